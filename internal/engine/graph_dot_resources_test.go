package engine

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTransitiveReduction(t *testing.T) {
	tests := map[string]struct {
		deps, want [][]int
	}{
		"empty": {deps: [][]int{}, want: [][]int{}},
		"chain keeps every edge": {
			deps: [][]int{nil, {0}, {1}},
			want: [][]int{nil, {0}, {1}},
		},
		"shortcut over a chain goes": {
			deps: [][]int{nil, {0}, {0, 1}},
			want: [][]int{nil, {0}, {1}},
		},
		"long shortcut goes": {
			deps: [][]int{nil, {0}, {1}, {0, 1, 2}},
			want: [][]int{nil, {0}, {1}, {2}},
		},
		"diamond keeps both sides": {
			deps: [][]int{nil, {0}, {0}, {1, 2}},
			want: [][]int{nil, {0}, {0}, {1, 2}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := transitiveReduction(tc.deps)
			if diff := cmp.Diff(tc.want, got, cmp.Transformer("nilEmpty", func(s []int) []int {
				if len(s) == 0 {
					return nil
				}
				return s
			})); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

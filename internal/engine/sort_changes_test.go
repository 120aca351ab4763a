package engine

import (
	"math/rand"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/plans"
)

// TestSortChanges checks the order of a plan's changes: root module
// first, then modules by path, resources by name, instance keys by value
// (2 before 10), a current object before its deposed ones.
func TestSortChanges(t *testing.T) {
	t.Parallel()
	type change struct{ addr, deposed string }
	want := []change{
		{"aws_a.x", ""},
		{"aws_b.x[2]", ""},
		{"aws_b.x[10]", ""},
		{"aws_b.x[10]", "00000001"},
		{"aws_b.x[10]", "00000002"},
		{`aws_c.y["a"]`, ""},
		{`aws_c.y["b"]`, ""},
		{"data.aws_a.x", ""},
		{"module.m.aws_a.x", ""},
		{"module.m[1].aws_a.x", ""},
		{"module.n.aws_a.x", ""},
		{"module.m.module.k.aws_a.x", ""},
	}
	for seed := int64(0); seed < 20; seed++ {
		shuffled := append([]change(nil), want...)
		rand.New(rand.NewSource(seed)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		c := &plans.Changes{}
		for _, ch := range shuffled {
			addr, diags := addrs.ParseAbsResourceInstanceStr(ch.addr)
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			c.Resources = append(c.Resources, &plans.ResourceInstanceChange{Addr: addr, DeposedKey: ch.deposed})
		}
		sortChanges(c)
		var got []change
		for _, rc := range c.Resources {
			got = append(got, change{rc.Addr.String(), rc.DeposedKey})
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(change{})); diff != "" {
			t.Fatalf("seed %d: wrong order (-want +got)\n%s", seed, diff)
		}
	}
}

package datadir

import (
	"path/filepath"
	"testing"
)

func TestPaths(t *testing.T) {
	tests := map[string]struct {
		env, join, in string
	}{
		"default":  {"", filepath.Join(".terraform", "providers"), filepath.Join("/w", ".terraform", "providers")},
		"relative": {"ci/data", filepath.Join("ci", "data", "providers"), filepath.Join("/w", "ci", "data", "providers")},
		"absolute": {"/var/tf", filepath.Join("/var/tf", "providers"), filepath.Join("/var/tf", "providers")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Setenv("TF_DATA_DIR", tc.env)
			if got := Join("providers"); got != tc.join {
				t.Errorf("Join = %q, want %q", got, tc.join)
			}
			if got := In("/w", "providers"); got != tc.in {
				t.Errorf("In = %q, want %q", got, tc.in)
			}
		})
	}
}

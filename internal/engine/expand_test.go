package engine

import (
	"context"
	"strings"
	"testing"
)

// TestForEachKnownKeys: for_each needs its keys during plan, not its
// values: a map of objects not created yet is fine, a set of unknown
// strings or an unknown map is not.
func TestForEachKnownKeys(t *testing.T) {
	const seed = `
resource "terraform_data" "seed" {
  for_each = toset(["a", "b"])
  input    = each.key
}
`
	tests := map[string]struct {
		src     string
		want    []string
		wantErr string
	}{
		"map of unknown objects": {
			src:  seed + "resource \"terraform_data\" \"x\" {\n  for_each = terraform_data.seed\n  input    = each.value.output\n}\n",
			want: []string{`terraform_data.x["a"]`, `terraform_data.x["b"]`},
		},
		"set of unknown strings": {
			src:     seed + "resource \"terraform_data\" \"x\" {\n  for_each = toset([for s in terraform_data.seed : s.id])\n}\n",
			wantErr: `The "for_each" value depends on resource attributes that cannot be determined until apply`,
		},
		"unknown count": {
			src:     seed + "resource \"terraform_data\" \"x\" {\n  count = length(terraform_data.seed[\"a\"].output)\n}\n",
			wantErr: `The "count" value depends on resource attributes that cannot be determined until apply`,
		},
		"module for_each over unknown set": {
			src:     seed + "module \"m\" {\n  source   = \"./mod\"\n  for_each = toset([for s in terraform_data.seed : s.id])\n}\n",
			wantErr: `The "for_each" value depends on resource attributes that cannot be determined until apply`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := testConfigInline(t, map[string]string{"main.tf": tc.src, "mod/main.tf": "resource \"terraform_data\" \"r\" {}\n"})
			plan, diags := builtinEngine(cfg).Plan(context.Background(), nil, PlanOpts{})
			if tc.wantErr != "" {
				if !diags.HasErrors() || !strings.Contains(diags.Error(), tc.wantErr) {
					t.Fatalf("diagnostics = %v, want %q", diags, tc.wantErr)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags.Error())
			}
			got := actions(plan)
			for _, addr := range tc.want {
				if _, ok := got[addr]; !ok {
					t.Errorf("%s not planned (got %v)", addr, got)
				}
			}
		})
	}
}

package configs

import "testing"

func TestDecodeImport(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		body      string
		wantTo    string
		wantKey   bool // to has a computed index
		wantDiags []diag
	}{
		"static":         {body: `to = terraform_data.a` + "\n" + `id = "x"`, wantTo: "terraform_data.a"},
		"static key":     {body: `to = terraform_data.a["k"]` + "\n" + `id = "x"`, wantTo: `terraform_data.a["k"]`},
		"for_each index": {body: `for_each = { k = "x" }` + "\n" + `to = terraform_data.a[each.key]` + "\n" + `id = each.value`, wantTo: "terraform_data.a", wantKey: true},
		"function call in index": {body: `for_each = { k = "x" }` + "\n" + `to = terraform_data.a[upper(each.key)]` + "\n" + `id = each.value`, wantDiags: []diag{
			errDiag("Function calls not allowed", "main.tf:3,23-3,38"),
		}},
		"data resource": {body: `to = data.terraform_data.a` + "\n" + `id = "x"`, wantDiags: []diag{
			errDiag("Invalid import address", "main.tf:2,6-2,27"),
		}},
		"identity": {body: `to = terraform_data.a` + "\n" + `identity = { name = "x" }`, wantTo: "terraform_data.a"},
		"id and identity": {body: `to = terraform_data.a` + "\n" + `id = "x"` + "\n" + `identity = { name = "x" }`, wantDiags: []diag{
			errDiag("Invalid import block", "main.tf:1,1-1,7"),
		}},
		"neither id nor identity": {body: `to = terraform_data.a`, wantDiags: []diag{
			errDiag("Invalid import block", "main.tf:1,1-1,7"),
		}},
		"index on a key": {body: `for_each = { k = "x" }` + "\n" + `to = terraform_data.a["k"][each.key]` + "\n" + `id = "x"`, wantDiags: []diag{
			errDiag("Invalid import address", "main.tf:3,6-3,37"),
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mod, diags := loadModuleSrc(t, map[string]string{"main.tf": "import {\n" + tc.body + "\n}\nresource \"terraform_data\" \"a\" {}\n"})
			assertDiags(t, diags, tc.wantDiags)
			if tc.wantDiags != nil {
				return
			}
			im := mod.Imports[0]
			if im.To.String() != tc.wantTo || (im.ToKey != nil) != tc.wantKey {
				t.Fatalf("to = %s (computed index %v), want %s (%v)", im.To, im.ToKey != nil, tc.wantTo, tc.wantKey)
			}
		})
	}
}

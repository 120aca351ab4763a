package configs

import "testing"

func TestReplaceTriggeredBy(t *testing.T) {
	t.Parallel()
	// Each entry is the list's source; the list starts at column 28 of
	// line 6. The expectations are what Terraform 1.11 validate reports.
	tests := map[string]struct {
		list      string
		wantDiags []diag
	}{
		"resource":                   {list: `[terraform_data.b]`},
		"instance":                   {list: `[terraform_data.b[0]]`},
		"attribute with count.index": {list: `[terraform_data.b[count.index].input]`},
		"data resource":              {list: `[data.terraform_remote_state.s]`},
		"expression over a resource": {list: `[terraform_data.b[0].input == 1]`},
		"literal": {list: `["lit"]`, wantDiags: []diag{
			errDiag("Invalid replace_triggered_by expression", "main.tf:6,29-6,34"),
		}},
		"count.index alone": {list: `[count.index]`, wantDiags: []diag{
			errDiag("Invalid replace_triggered_by expression", "main.tf:6,29-6,40"),
		}},
		"local value": {list: `[local.l]`, wantDiags: []diag{
			errDiag("Invalid reference in replace_triggered_by expression", "main.tf:6,29-6,36"),
			errDiag("Invalid replace_triggered_by expression", "main.tf:6,29-6,36"),
		}},
		"variable index": {list: `[terraform_data.b[var.x]]`, wantDiags: []diag{
			errDiag("Invalid reference in replace_triggered_by expression", "main.tf:6,46-6,51"),
		}},
		"each.value": {list: `[terraform_data.b[each.value]]`, wantDiags: []diag{
			errDiag("Invalid reference in replace_triggered_by expression", "main.tf:6,46-6,56"),
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src := `
resource "terraform_data" "a" {
  count = 1
  input = 1
  lifecycle {
    replace_triggered_by = ` + tc.list + `
  }
}
`
			_, diags := loadModuleSrc(t, map[string]string{"main.tf": src})
			assertDiags(t, diags, tc.wantDiags)
		})
	}
}

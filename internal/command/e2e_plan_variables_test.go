package command

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EPlanVariables: -var and TF_VAR_ strings are parsed as HCL for
// variables of type any and of collection or structural types, and taken
// literally with no type or a primitive one; show -json PLAN records each
// value as given (the string "1" for -var n=1, a file's numbers as
// numbers), not converted, while defaults are converted to the variable's
// type. The want values were taken from terraform
// 1.11.4, which the test also runs when installed.
func TestE2EPlanVariables(t *testing.T) {
	t.Parallel()
	config := `variable "a" { type = any }
variable "u" {}
variable "n" { type = number }
variable "l" { type = list(string) }
variable "s" { type = string }
variable "f" { type = list(string) }
variable "e" { type = map(number) }
variable "d" {
  type    = number
  default = 4
}
variable "dl" {
  type    = list(string)
  default = [1, 2]
}
variable "do" {
  type    = object({ a = string, b = optional(bool, true) })
  default = { a = 1 }
}
variable "du" {
  default = [1, "a", true]
}
variable "fo" { type = object({ a = string, b = optional(list(string)), c = optional(number, 5) }) }
variable "ft" { type = tuple([string, number]) }
variable "j" { type = list(string) }
variable "au" { type = list(string) }
output "a" { value = var.a }
output "u" { value = var.u }
output "n" { value = var.n }
`
	args := []string{"plan", "-no-color", "-input=false", "-out=p.plan",
		"-var", `a=["x"]`, "-var", `u={k=1}`, "-var", "n=1", "-var", `l=["p"]`, "-var", `s=["q"]`, "-var-file=t.tfvars", "-var-file=t.tfvars.json"}
	want := map[string]any{
		"a": map[string]any{"value": []any{"x"}},
		"u": map[string]any{"value": "{k=1}"},
		"n": map[string]any{"value": "1"},
		"l": map[string]any{"value": []any{"p"}},
		"s": map[string]any{"value": `["q"]`},
		"f": map[string]any{"value": []any{1.0, 2.0}},
		"e": map[string]any{"value": map[string]any{"k": 7.0}},
		"d": map[string]any{"value": 4.0},
		// Defaults are converted to the variable's type; values from
		// files (HCL, JSON, auto-loaded) are kept as written.
		"dl": map[string]any{"value": []any{"1", "2"}},
		"do": map[string]any{"value": map[string]any{"a": "1", "b": true}},
		"du": map[string]any{"value": []any{1.0, "a", true}},
		"fo": map[string]any{"value": map[string]any{"a": 1.0, "b": []any{1.0, 2.0}}},
		"ft": map[string]any{"value": []any{1.0, "2"}},
		"j":  map[string]any{"value": []any{1.0, 2.0}},
		"au": map[string]any{"value": []any{true}},
	}
	run := func(bin string) (map[string]any, map[string]any) {
		t.Helper()
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		writeFile(t, filepath.Join(dir, "t.tfvars"), "f = [1, 2]\nfo = { a = 1, b = [1, 2] }\nft = [1, \"2\"]\n")
		writeFile(t, filepath.Join(dir, "t.tfvars.json"), `{"j": [1, 2]}`)
		writeFile(t, filepath.Join(dir, "x.auto.tfvars"), "au = [true]\n")
		r := runIn(t, dir, "", bin, "init", "-no-color")
		if r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		env := []string{"TF_VAR_e={k = 7}"}
		if r := runWith(t, dir, "", bin, env, args...); r.code != 0 {
			t.Fatalf("%s plan: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		var doc struct {
			Variables    map[string]any `json:"variables"`
			PlannedValue struct {
				Outputs map[string]any `json:"outputs"`
			} `json:"planned_values"`
		}
		r = runWith(t, dir, "", bin, env, "show", "-json", "p.plan")
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s show -json: %v\n%s", bin, err, r.stdout)
		}
		return doc.Variables, doc.PlannedValue.Outputs
	}
	gotVars, gotOutputs := run(strataBin)
	if diff := cmp.Diff(want, gotVars); diff != "" {
		t.Errorf("plan variables (-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfVars, tfOutputs := run(tf)
		if diff := cmp.Diff(tfVars, gotVars); diff != "" {
			t.Errorf("plan variables differ from terraform's (-terraform +strata)\n%s", diff)
		}
		if diff := cmp.Diff(tfOutputs, gotOutputs); diff != "" {
			t.Errorf("planned outputs differ from terraform's (-terraform +strata)\n%s", diff)
		}
	}
}

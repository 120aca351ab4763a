package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Shapes found by running real public modules through both tools (the
// Invicton-Labs assertion module, label and context modules, ...): each
// test compares with terraform when it is installed.

// writeFiles writes files (relative path -> text) into a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	return dir
}

// assertionModule is the shape of Invicton-Labs/assertion/null: a
// validation rule of one variable refers to another variable.
const assertionModule = `variable "condition" {
  type = bool
  validation {
    condition     = var.error_message == "" ? var.condition : var.condition
    error_message = "ASSERTION FAILURE: ${var.error_message}"
  }
}
variable "error_message" {
  type = string
}
variable "other" {
  type    = string
  default = null
  validation {
    condition     = var.condition != null ? true : var.other == null
    error_message = "other"
  }
}
variable "n" {
  type    = number
  default = 1
  validation {
    condition     = var.n < 3
    error_message = "n too big"
  }
}
variable "path" {
  type    = string
  default = "main.tf"
}
locals {
  content = file(var.path)
}
resource "terraform_data" "r" {
  count = var.n
  input = local.content
}
`

// TestE2EValidateVariablesUnknown: validate judges the configuration for
// all values, as Terraform's: every reference to a variable is unknown,
// so a rule referring to another variable, or a function of a module
// argument, cannot fail; a rule on its own variable's value given in a
// module block still does.
func TestE2EValidateVariablesUnknown(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, call string
		valid      bool
	}{
		{"cross-variable rule", `condition = false
  error_message = "sample"`, true},
		{"function of an argument", `condition = true
  error_message = "sample"
  path = "missing.txt"`, true},
		{"own value", `condition = true
  error_message = "sample"
  n = 5`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"m/main.tf": assertionModule,
				"main.tf":   "module \"a\" {\n  source = \"./m\"\n  " + tc.call + "\n}\n",
			})
			mustStrata(t, dir, 0, "init", "-no-color")
			got := strata(t, dir, "validate", "-json", "-no-color")
			var doc struct {
				Valid bool `json:"valid"`
			}
			if err := json.Unmarshal([]byte(got.stdout), &doc); err != nil || doc.Valid != tc.valid {
				t.Errorf("validate -json: valid %v (%v), want %v\n%s", doc.Valid, err, tc.valid, got.stdout)
			}
			if tf, err := referenceTerraform(); err == nil {
				r := runIn(t, dir, "", tf, "validate", "-json", "-no-color")
				if r.code != got.code || r.stdout != got.stdout {
					t.Errorf("terraform validate -json: exit %d, strata %d\nterraform: %s\n   strata: %s", r.code, got.code, r.stdout, got.stdout)
				}
			}
		})
	}
}

// TestE2EErroredPlanSkippedRules: when a variable's validation fails in
// the plan, a rule of another variable that refers to it is not checked;
// the errored plan still lists that variable's instances (status unknown),
// as Terraform's does, and resources and outputs that use the failed
// variable have no instances.
func TestE2EErroredPlanSkippedRules(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"m/main.tf": assertionModule + `output "o" {
  value = var.condition
  precondition {
    condition     = var.condition != null
    error_message = "o"
  }
}
`,
		"main.tf": `module "a" {
  source        = "./m"
  condition     = false
  error_message = "sample"
}
module "b" {
  source        = "./m"
  count         = 2
  condition     = false
  error_message = "sample"
}
`,
	}
	checks := func(bin string) any {
		dir := writeFiles(t, files)
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		if r := runIn(t, dir, "", bin, "plan", "-no-color", "-out=p"); r.code != 1 {
			t.Fatalf("%s plan: exit %d, want 1\n%s", bin, r.code, r.stderr)
		}
		r := runIn(t, dir, "", bin, "show", "-json", "p")
		var doc struct {
			Checks any `json:"checks"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s show -json p: %v\n%s", bin, err, r.stderr)
		}
		return doc.Checks
	}
	got := checks(strataBin)
	want := []any{}
	if err := json.Unmarshal([]byte(erroredPlanChecks), &want); err != nil {
		t.Fatal(err)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(checks(tf), want); diff != "" {
			t.Errorf("terraform's checks are not the expected ones (-terraform +expected)\n%s", diff)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("checks of the errored plan (-want +strata)\n%s", diff)
	}
}

// erroredPlanChecks is what terraform 1.11.4 records for
// TestE2EErroredPlanSkippedRules.
const erroredPlanChecks = `[
{"address":{"kind":"output_value","module":"module.a","name":"o","to_display":"module.a.output.o"},"status":"unknown"},
{"address":{"kind":"var","module":"module.a","name":"condition","to_display":"module.a.var.condition"},"status":"fail","instances":[{"address":{"module":"module.a","to_display":"module.a.var.condition"},"status":"fail","problems":[{"message":"ASSERTION FAILURE: sample"}]}]},
{"address":{"kind":"var","module":"module.a","name":"n","to_display":"module.a.var.n"},"status":"pass","instances":[{"address":{"module":"module.a","to_display":"module.a.var.n"},"status":"pass"}]},
{"address":{"kind":"var","module":"module.a","name":"other","to_display":"module.a.var.other"},"status":"unknown","instances":[{"address":{"module":"module.a","to_display":"module.a.var.other"},"status":"unknown"}]},
{"address":{"kind":"output_value","module":"module.b","name":"o","to_display":"module.b.output.o"},"status":"unknown"},
{"address":{"kind":"var","module":"module.b","name":"condition","to_display":"module.b.var.condition"},"status":"fail","instances":[{"address":{"module":"module.b[0]","to_display":"module.b[0].var.condition"},"status":"fail","problems":[{"message":"ASSERTION FAILURE: sample"}]},{"address":{"module":"module.b[1]","to_display":"module.b[1].var.condition"},"status":"fail","problems":[{"message":"ASSERTION FAILURE: sample"}]}]},
{"address":{"kind":"var","module":"module.b","name":"n","to_display":"module.b.var.n"},"status":"pass","instances":[{"address":{"module":"module.b[0]","to_display":"module.b[0].var.n"},"status":"pass"},{"address":{"module":"module.b[1]","to_display":"module.b[1].var.n"},"status":"pass"}]},
{"address":{"kind":"var","module":"module.b","name":"other","to_display":"module.b.var.other"},"status":"unknown","instances":[{"address":{"module":"module.b[0]","to_display":"module.b[0].var.other"},"status":"unknown"},{"address":{"module":"module.b[1]","to_display":"module.b[1].var.other"},"status":"unknown"}]}
]`

// TestE2EValidateJSONCRLF: snippets of a file with CRLF line endings (as
// in Invicton-Labs/terraform-null-merge-network-rules) hold the lines
// without their carriage returns, as Terraform's.
func TestE2EValidateJSONCRLF(t *testing.T) {
	t.Parallel()
	main, err := os.ReadFile(filepath.Join("testdata", "validate-json", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"main.tf": strings.ReplaceAll(string(main), "\n", "\r\n")})
	got := strata(t, dir, "validate", "-json", "-no-color")
	var doc struct {
		Diagnostics []struct {
			Snippet *struct {
				Code string `json:"code"`
			} `json:"snippet"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(got.stdout), &doc); err != nil || len(doc.Diagnostics) == 0 {
		t.Fatalf("validate -json: %v\n%s", err, got.stdout)
	}
	for _, d := range doc.Diagnostics {
		if d.Snippet != nil && strings.Contains(d.Snippet.Code, "\r") {
			t.Errorf("snippet code has a carriage return: %q", d.Snippet.Code)
		}
	}
	if tf, err := referenceTerraform(); err == nil {
		r := runIn(t, dir, "", tf, "validate", "-json", "-no-color")
		if r.stdout != got.stdout {
			t.Errorf("terraform validate -json differs:\nterraform: %s\n   strata: %s", r.stdout, got.stdout)
		}
	}
}

// TestE2EDestroyValidatesFirst: a destroy of an invalid configuration
// fails, as Terraform validates before every plan, also when the state is
// empty or -refresh=false skips the normal plan (the tls provider's
// tls_public_key example reads file("~/.ssh/...")).
func TestE2EDestroyValidatesFirst(t *testing.T) {
	t.Parallel()
	files := map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "x"
}
data "terraform_remote_state" "x" {
  backend = "local"
  config = {
    path = file("missing.txt")
  }
}
`}
	state := `{"version":4,"terraform_version":"1.11.4","serial":1,"lineage":"5f1d1d34-4e5a-4e2b-8e8e-4a6f1e1f6a11","outputs":{},"resources":[{"mode":"managed","type":"terraform_data","name":"a","provider":"provider[\"terraform.io/builtin/terraform\"]","instances":[{"schema_version":0,"attributes":{"id":"x","input":{"value":"x","type":"string"},"output":{"value":"x","type":"string"},"triggers_replace":null},"sensitive_attributes":[]}]}],"check_results":null}`
	tf, _ := referenceTerraform()
	for _, tc := range []struct {
		name  string
		state string
		args  []string
	}{
		{"empty state", "", []string{"destroy", "-auto-approve", "-no-color"}},
		{"no refresh", state, []string{"destroy", "-auto-approve", "-no-color", "-refresh=false"}},
		{"plan -destroy", "", []string{"plan", "-destroy", "-no-color"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, bin := range []string{strataBin, tf} {
				if bin == "" {
					continue
				}
				dir := writeFiles(t, files)
				if tc.state != "" {
					writeFile(t, filepath.Join(dir, "terraform.tfstate"), tc.state)
				}
				runIn(t, dir, "", bin, "init", "-no-color")
				r := runIn(t, dir, "", bin, tc.args...)
				if r.code != 1 || !strings.Contains(r.stderr, "Error: Invalid function argument") {
					t.Errorf("%s %s: exit %d, want 1 with the file() error\n%s%s", bin, tc.args[0], r.code, r.stdout, r.stderr)
				}
			}
		})
	}
}

// TestE2EProviderSelections: before planning, the providers the lock
// file selects must be installed and the configuration's providers must
// have selections its constraints allow, as Terraform checks (found on
// hashicorp/terraform-cidr-subnets, whose test needs the retired
// hashicorp/testing provider); validate says a provider is missing in
// Terraform's words.
func TestE2EProviderSelections(t *testing.T) {
	t.Parallel()
	main := `terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = ">= 3.1, != 3.2.0"
    }
    random = {
      source = "hashicorp/random"
    }
  }
}
resource "terraform_data" "a" {}
`
	lock := `provider "registry.terraform.io/hashicorp/null" {
  version     = "3.0.0"
  constraints = ">= 3.0.0"
}
`
	tf, _ := referenceTerraform()
	for _, tc := range []struct {
		name, lock string
		args       []string
		want       string
	}{
		{"not installed", lock, []string{"plan", "-no-color"}, "Error: Required plugins are not installed"},
		{"not installed, validate", lock, []string{"validate", "-no-color"}, "Error: registry.terraform.io/hashicorp/null: there is no package for registry.terraform.io/hashicorp/null 3.0.0 cached in .terraform/providers"},
		{"no selections", "", []string{"plan", "-no-color"}, "provider registry.terraform.io/hashicorp/random: required by this configuration but no version is selected"},
		{"missing, validate", "", []string{"validate", "-json"}, `"summary": "Missing required provider"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, bin := range []string{strataBin, tf} {
				if bin == "" {
					continue
				}
				files := map[string]string{"main.tf": main}
				if tc.lock != "" {
					files[".terraform.lock.hcl"] = tc.lock
				}
				dir := writeFiles(t, files)
				r := runIn(t, dir, "", bin, tc.args...)
				if r.code != 1 || !strings.Contains(r.stdout+r.stderr, tc.want) {
					t.Errorf("%s %s: exit %d, want 1 and %q\n%s%s", bin, tc.args[0], r.code, tc.want, r.stdout, r.stderr)
				}
			}
		})
	}
}

// TestE2EValidateJSONFunctionCall: a diagnostic about a function call
// describes the call and the function's signature in its snippet
// (function_call), as Terraform's (found on the tls provider's
// tls_public_key example: file() of a missing key).
func TestE2EValidateJSONFunctionCall(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"main.tf": `locals {
  a = file("missing.txt")
  b = format("%d", "x")
  c = cidrsubnet("10.0.0.0/8", 40, 1)
  d = lookup({}, "x")
  e = tolist(["a", 1, {}])
}
output "o" { value = [local.a, local.b, local.c, local.d, local.e] }
`})
	calls := func(bin string) map[int]any {
		r := runIn(t, dir, "", bin, "validate", "-json")
		var doc struct {
			Diagnostics []struct {
				Range   struct{ Start struct{ Line int } } `json:"range"`
				Snippet struct {
					FunctionCall any `json:"function_call"`
				} `json:"snippet"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s validate -json: %v\n%s", bin, err, r.stdout)
		}
		out := map[int]any{}
		for _, d := range doc.Diagnostics { // terraform's order varies
			out[d.Range.Start.Line] = d.Snippet.FunctionCall
		}
		return out
	}
	got := calls(strataBin)
	var file any
	if err := json.Unmarshal([]byte(`{"called_as":"file","signature":{"name":"file","params":[{"name":"path","type":"string"}],"return_type":"string"}}`), &file); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(file, got[2]); diff != "" {
		t.Errorf("file() call (-want +got)\n%s", diff)
	}
	if len(got) != 5 {
		t.Errorf("got %d diagnostics, want 5: %v", len(got), got)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(calls(tf), got); diff != "" {
			t.Errorf("function calls differ from terraform's (-terraform +strata)\n%s", diff)
		}
	}
}

// TestE2EMissingPlanFile: apply and show of a plan file that is not there
// fail with Terraform's messages (seen when a configuration's plan fails
// and a script goes on to apply the plan it did not write).
func TestE2EMissingPlanFile(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"main.tf": `resource "terraform_data" "a" {}` + "\n"})
	want := map[string]string{
		"apply": "Error: Failed to load \"nope.tfplan\" as a plan file\n\nError: stat nope.tfplan: no such file or directory\n",
		"show":  "Error: Failed to read the given file as a state or plan file\n\nState read error: Error loading statefile: open nope.tfplan: no such file or\ndirectory\n\nPlan read error: couldn't load the provided path as either a local plan file\n(open nope.tfplan: no such file or directory) or a saved cloud plan (open\nnope.tfplan: no such file or directory)\n",
	}
	errors := func(s string) string { // from the first error on
		if i := strings.Index(s, "Error:"); i >= 0 {
			return s[i:]
		}
		return s
	}
	tf, _ := referenceTerraform()
	for _, cmd := range [][]string{{"apply", "-no-color", "nope.tfplan"}, {"show", "-no-color", "nope.tfplan"}, {"show", "-json", "-no-color", "nope.tfplan"}} {
		for _, bin := range []string{strataBin, tf} {
			if bin == "" {
				continue
			}
			r := runIn(t, dir, "", bin, cmd...)
			if got := errors(r.stderr); r.code != 1 || got != want[cmd[0]] {
				t.Errorf("%s %v: exit %d\n got: %q\nwant: %q", bin, cmd, r.code, got, want[cmd[0]])
			}
		}
	}
}

// TestE2EValidateRunModules: validate also validates the local modules
// that run blocks of the test files load, once per source, so an error of
// the configuration itself is reported again for module { source = "./" }
// (Invicton-Labs/terraform-null-merge-network-rules' tests do that).
func TestE2EValidateRunModules(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"main.tf": `locals {
  a = 1 + "x"
}
`,
		"helper/main.tf": `locals {
  b = file("missing.txt")
}
`,
		"tests/a.tftest.hcl": `run "one" {
  module { source = "./" }
}
run "two" {
  module { source = "./" }
}
run "three" {
  module { source = "./helper" }
}
`,
	})
	// Terraform needs init to have recorded the run blocks' modules.
	mustStrata(t, dir, 0, "init", "-no-color")
	got := strata(t, dir, "validate", "-json", "-no-color")
	var doc struct {
		ErrorCount int `json:"error_count"`
	}
	if err := json.Unmarshal([]byte(got.stdout), &doc); err != nil || doc.ErrorCount != 3 {
		t.Errorf("validate -json: %d errors (%v), want 3\n%s", doc.ErrorCount, err, got.stdout)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfDir := writeFiles(t, map[string]string{})
		for _, name := range []string{"main.tf", "helper/main.tf", "tests/a.tftest.hcl"} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(tfDir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(tfDir, name), string(readFile(t, filepath.Join(dir, name))))
		}
		if r := runIn(t, tfDir, "", tf, "init", "-no-color"); r.code != 0 {
			t.Fatalf("terraform init: %s", r.stderr)
		}
		r := runIn(t, tfDir, "", tf, "validate", "-json", "-no-color")
		if r.stdout != got.stdout {
			t.Errorf("terraform validate -json differs:\nterraform: %s\n   strata: %s", r.stdout, got.stdout)
		}
	}
}

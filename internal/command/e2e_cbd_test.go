package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const cbdChainConfig = `variable "v" { default = "1" }
variable "cbd" { default = true }
resource "terraform_data" "c" { triggers_replace = var.v }
resource "terraform_data" "b" { input = terraform_data.c.id }
resource "terraform_data" "d" { triggers_replace = var.v }
resource "terraform_data" "a" {
  input      = terraform_data.b.id
  depends_on = [terraform_data.d]
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "e" { triggers_replace = var.v }
`

// cbdModuleConfig crosses module boundaries both ways: a
// create_before_destroy resource in a child depends on a root resource
// through a module variable, and a root create_before_destroy resource
// depends on a child's resource through an output.
const cbdModuleConfig = `variable "v" { default = "1" }
resource "terraform_data" "root_dep" { triggers_replace = var.v }
module "child" {
  source = "./child"
  in     = terraform_data.root_dep.id
  v      = var.v
}
resource "terraform_data" "root_cbd" {
  input = module.child.out
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "plain" { triggers_replace = var.v }
`

const cbdChildConfig = `variable "in" {}
variable "v" {}
resource "terraform_data" "cbd" {
  input = var.in
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "out_dep" { triggers_replace = var.v }
output "out" { value = terraform_data.out_dep.id }
`

// cbdRemovedConfig is cbdChainConfig without its create_before_destroy
// resource: the second plan deletes "a" and replaces its former
// dependencies, whose state still carries the flag.
const cbdRemovedConfig = `variable "v" { default = "1" }
resource "terraform_data" "c" { triggers_replace = var.v }
resource "terraform_data" "b" { input = terraform_data.c.id }
resource "terraform_data" "d" { triggers_replace = var.v }
resource "terraform_data" "e" { triggers_replace = var.v }
`

// TestE2ECreateBeforeDestroyInherited: the resources a
// create_before_destroy resource depends on, directly, through another
// resource, through depends_on or across a module boundary, are replaced
// create-then-destroy too and carry the flag in the state; a resource no
// CBD resource depends on is replaced destroy-first. Compared with
// Terraform.
func TestE2ECreateBeforeDestroyInherited(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	cases := []struct {
		name  string
		files map[string]string
		// check holds actions Terraform must plan, so that the case keeps
		// exercising what it is named for.
		check map[string][]string
	}{
		{
			name:  "chain",
			files: map[string]string{"main.tf": cbdChainConfig},
			check: map[string][]string{
				"terraform_data.c": {"create", "delete"},
				"terraform_data.e": {"delete", "create"},
			},
		},
		{
			name:  "modules",
			files: map[string]string{"main.tf": cbdModuleConfig, "child/main.tf": cbdChildConfig},
			check: map[string][]string{
				"terraform_data.root_dep":             {"create", "delete"},
				"module.child.terraform_data.out_dep": {"create", "delete"},
				"terraform_data.plain":                {"delete", "create"},
			},
		},
	}
	type outcome struct {
		Flags   map[string]bool
		Actions map[string][]string
	}
	run := func(t *testing.T, bin string, files map[string]string) outcome {
		dir := t.TempDir()
		for name, src := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, name), src)
		}
		for _, args := range [][]string{{"init", "-input=false"}, {"apply", "-auto-approve", "-input=false"}} {
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %v: %s%s", bin, args, r.stdout, r.stderr)
			}
		}
		if r := runIn(t, dir, "", bin, "plan", "-input=false", "-var", "v=2", "-out=p"); r.code != 0 {
			t.Fatalf("%s plan: %s%s", bin, r.stdout, r.stderr)
		}
		var st struct {
			Resources []struct {
				Module    string
				Name      string
				Instances []struct {
					CreateBeforeDestroy bool `json:"create_before_destroy"`
				}
			}
		}
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
			t.Fatal(err)
		}
		o := outcome{Flags: map[string]bool{}, Actions: map[string][]string{}}
		for _, r := range st.Resources {
			o.Flags[r.Module+"."+r.Name] = r.Instances[0].CreateBeforeDestroy
		}
		r := runIn(t, dir, "", bin, "show", "-json", "p")
		var plan struct {
			ResourceChanges []struct {
				Address string
				Change  struct{ Actions []string }
			} `json:"resource_changes"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
			t.Fatalf("show -json: %v\n%s", err, r.stdout)
		}
		for _, rc := range plan.ResourceChanges {
			o.Actions[rc.Address] = rc.Change.Actions
		}
		return o
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, got := run(t, tf, tc.files), run(t, strataBin, tc.files)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("strata: %+v\nterraform: %+v", got, want)
			}
			for addr, actions := range tc.check {
				if !reflect.DeepEqual(want.Actions[addr], actions) {
					t.Errorf("the case no longer shows what it is named for: terraform plans %s %v, want %v", addr, want.Actions[addr], actions)
				}
			}
		})
	}
}

// TestE2ECreateBeforeDestroyRemoved: when the create_before_destroy
// resource leaves the configuration while its former dependencies are
// replaced, strata deletes it first and replaces the dependencies
// destroy-first, as their own configuration says. Terraform 1.11 keeps
// the flag stored in their state and fails the plan with a cycle (see
// differences.md); the test notices if it stops doing so.
func TestE2ECreateBeforeDestroyRemoved(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	prepare := func(bin string) string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), cbdChainConfig)
		for _, args := range [][]string{{"init", "-input=false"}, {"apply", "-auto-approve", "-input=false"}} {
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %v: %s%s", bin, args, r.stdout, r.stderr)
			}
		}
		writeFile(t, filepath.Join(dir, "main.tf"), cbdRemovedConfig)
		return dir
	}
	if r := runIn(t, prepare(tf), "", tf, "plan", "-input=false", "-no-color", "-var", "v=2"); r.code != 1 || !strings.Contains(r.stderr, "Error: Cycle:") {
		t.Errorf("terraform no longer fails with a cycle (exit %d): compare the plans instead\n%s%s", r.code, r.stdout, r.stderr)
	}
	dir := prepare(strataBin)
	if r := strata(t, dir, "apply", "-auto-approve", "-input=false", "-var", "v=2"); r.code != 0 {
		t.Fatalf("apply: %s%s", r.stdout, r.stderr)
	}
	var st struct {
		Resources []struct {
			Name      string
			Instances []struct {
				CreateBeforeDestroy bool `json:"create_before_destroy"`
			}
		}
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range st.Resources {
		names = append(names, r.Name)
		if r.Instances[0].CreateBeforeDestroy {
			t.Errorf("%s still carries create_before_destroy", r.Name)
		}
	}
	if !reflect.DeepEqual(names, []string{"b", "c", "d", "e"}) {
		t.Errorf("resources after apply: %v", names)
	}
}

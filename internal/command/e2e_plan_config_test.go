package command

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// planConfigFiles use the protocol 5 test provider, whose stratav5_thing
// schema is at version 1, in the root module and in module calls that
// plan nothing (count = 0, for_each instances, a module with count = 0),
// with local-exec provisioners whose arguments are constants and
// references.
var planConfigFiles = map[string]string{
	"main.tf": `terraform {
  required_providers {
    stratav5 = { source = "strata/stratav5" }
  }
}
variable "x" {
  default = "a"
}
locals {
  l = "v"
}
resource "stratav5_thing" "root" {
  name = "r"
  provisioner "local-exec" {
    command = "echo ${self.name} ${var.x}"
    when    = create
    environment = {
      A = local.l
    }
  }
  provisioner "local-exec" {
    command     = "echo hi"
    interpreter = ["sh", "-c"]
    working_dir = path.module
    quiet       = true
    on_failure  = continue
  }
}
module "m" {
  source = "./mod"
  n      = 0
}
module "none" {
  source = "./mod"
  count  = 0
  n      = 1
}
module "each" {
  source   = "./mod"
  for_each = toset(["a", "b"])
  n        = 1
}
`,
	"mod/main.tf": `terraform {
  required_providers {
    stratav5 = { source = "strata/stratav5" }
  }
}
variable "n" {}
resource "stratav5_thing" "inner" {
  count = var.n
  name  = "i"
  provisioner "local-exec" {
    command = "echo ${self.id}"
    when    = destroy
  }
}
data "stratav5_echo" "e" {
  input = "x"
}
resource "terraform_data" "d" {
  provisioner "local-exec" {
    command = "true"
  }
}
`,
}

// TestE2EPlanConfigurationMatchesTerraform: the "configuration" of show
// -json PLAN gives every resource its type's current schema version, in
// module calls too and whether or not the plan has changes for it, and
// lists each resource's provisioners with their arguments' constant
// values or references, as Terraform's does, for a plan, a refresh-only
// plan and a destroy plan.
func TestE2EPlanConfigurationMatchesTerraform(t *testing.T) {
	mirror := testProviderMirrorV5(t)
	modes := map[string][]string{"plan": nil, "refresh-only": {"-refresh-only"}, "destroy": {"-destroy"}}
	run := func(bin string) map[string]any {
		t.Helper()
		dir := t.TempDir()
		writeTree(t, dir, planConfigFiles)
		if r := runIn(t, dir, "", bin, "init", "-no-color", "-plugin-dir="+mirror); r.code != 0 {
			t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
		}
		ret := map[string]any{}
		for mode, args := range modes {
			args = append([]string{"plan", "-no-color", "-out=p.plan"}, args...)
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %s: %s%s", bin, mode, r.stdout, r.stderr)
			}
			r := runIn(t, dir, "", bin, "show", "-json", "p.plan")
			var doc struct {
				Configuration map[string]any `json:"configuration"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("%s show -json: %v\n%s%s", bin, err, r.stdout, r.stderr)
			}
			ret[mode] = doc.Configuration
		}
		return ret
	}
	got := run(strataBin)

	// Independently of terraform: the module's resources have version 1,
	// and the provisioners are there.
	for mode := range modes {
		for _, call := range []string{"m", "none", "each"} {
			res := dig(t, got[mode], "root_module", "module_calls", call, "module", "resources").([]any)
			inner := res[0].(map[string]any)
			if inner["address"] != "stratav5_thing.inner" || inner["schema_version"] != 1.0 {
				t.Errorf("%s: module.%s's first resource: %v", mode, call, inner)
			}
			wantProv := []any{map[string]any{"type": "local-exec", "expressions": map[string]any{
				"command": map[string]any{"references": []any{"self.id", "self"}}}}}
			if diff := cmp.Diff(wantProv, inner["provisioners"]); diff != "" {
				t.Errorf("%s: module.%s's provisioners (-want +got)\n%s", mode, call, diff)
			}
		}
		root := dig(t, got[mode], "root_module", "resources").([]any)[0].(map[string]any)
		if provs, _ := root["provisioners"].([]any); len(provs) != 2 || root["schema_version"] != 1.0 {
			t.Errorf("%s: root resource: %v", mode, root)
		}
	}

	if tf, err := exec.LookPath("terraform"); err == nil {
		want := run(tf)
		for mode := range modes {
			if diff := cmp.Diff(want[mode], got[mode]); diff != "" {
				t.Errorf("%s: configuration differs from terraform's (-terraform +strata)\n%s", mode, diff)
			}
		}
	}
}

// dig follows keys down nested JSON objects.
func dig(t *testing.T, v any, keys ...string) any {
	t.Helper()
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("no object at %q", k)
		}
		v = m[k]
	}
	return v
}

package command

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
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
	t.Parallel()
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
		// In a fixed order, so that each run sees the same files.
		for _, mode := range slices.Sorted(maps.Keys(modes)) {
			args := append([]string{"plan", "-no-color", "-out=p.plan"}, modes[mode]...)
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

	if tf, err := referenceTerraform(); err == nil {
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

// TestE2EPlanConfigurationProviderKeys: a called module's resources point
// at the caller's provider configuration when the caller knows the
// provider by the same local name, and at the module's own entry when it
// does not (even if the caller has the provider under another name), as
// in Terraform's "configuration".
func TestE2EPlanConfigurationProviderKeys(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirrorV5(t)
	req := func(name string) string {
		return "terraform {\n  required_providers {\n    " + name + " = { source = \"strata/stratav5\" }\n  }\n}\n"
	}
	thing := func(name, provider string) string {
		return "resource \"stratav5_thing\" \"" + name + "\" {\n  provider = " + provider + "\n  name     = \"x\"\n}\n"
	}
	tests := map[string]struct {
		files map[string]string
		// keys are the provider_config_key of each resource, by the
		// module calls down to it.
		keys map[string]string
	}{
		"same local name": {
			files: map[string]string{
				"main.tf":     req("v5") + "module \"m\" {\n  source = \"./mod\"\n}\n",
				"mod/main.tf": req("v5") + thing("inner", "v5"),
			},
			keys: map[string]string{"m": "v5"},
		},
		"other local names": {
			files: map[string]string{
				"main.tf":     req("v5") + "provider \"v5\" {\n  prefix = \"p\"\n}\nmodule \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf":   req("mid") + thing("mid", "mid") + "module \"b\" {\n  source = \"./b\"\n}\n",
				"a/b/main.tf": req("low") + thing("low", "low"),
			},
			keys: map[string]string{"a": "module.a:mid", "a/b": "module.a.module.b:low"},
		},
		"type name in the module": {
			files: map[string]string{
				"main.tf":     req("v5") + "module \"m\" {\n  source = \"./mod\"\n}\n",
				"mod/main.tf": req("stratav5") + thing("inner", "stratav5"),
			},
			keys: map[string]string{"m": "stratav5"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			run := func(bin string) map[string]any {
				t.Helper()
				dir := t.TempDir()
				writeTree(t, dir, tc.files)
				if r := runIn(t, dir, "", bin, "init", "-no-color", "-plugin-dir="+mirror); r.code != 0 {
					t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
				}
				if r := runIn(t, dir, "", bin, "plan", "-no-color", "-out=p.plan"); r.code != 0 {
					t.Fatalf("%s plan: %s%s", bin, r.stdout, r.stderr)
				}
				r := runIn(t, dir, "", bin, "show", "-json", "p.plan")
				var doc struct {
					Configuration map[string]any `json:"configuration"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
					t.Fatalf("%s show -json: %v\n%s%s", bin, err, r.stdout, r.stderr)
				}
				return doc.Configuration
			}
			got := run(strataBin)
			for calls, want := range tc.keys {
				path := []string{"root_module"}
				for _, c := range strings.Split(calls, "/") {
					path = append(path, "module_calls", c, "module")
				}
				res := dig(t, got, append(path, "resources")...).([]any)
				if key := res[0].(map[string]any)["provider_config_key"]; key != want {
					t.Errorf("module %s: provider_config_key %v, want %s", calls, key, want)
				}
				pcs := got["provider_config"].(map[string]any)
				if _, ok := pcs[want]; !ok {
					t.Errorf("module %s: no provider_config entry %s: %v", calls, want, pcs)
				}
			}
			if tf, err := referenceTerraform(); err == nil {
				if diff := cmp.Diff(run(tf), got); diff != "" {
					t.Errorf("configuration differs from terraform's (-terraform +strata)\n%s", diff)
				}
			}
		})
	}
}

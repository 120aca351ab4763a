package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// providerForEachConfig declares OpenTofu's provider for_each: one
// instance of stratafw.r per element of var.regions, each with its own
// prefix, selected by a resource and by a module call per element of
// var.active.
const providerForEachConfig = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
variable "regions" {
  type    = map(string)
  default = { a = "pa-", b = "pb-" }
}
variable "active" {
  type    = set(string)
  default = ["a", "b"]
}
provider "stratafw" {
  alias    = "r"
  for_each = var.regions
  prefix   = each.value
}
resource "stratafw_thing" "t" {
  for_each = var.active
  provider = stratafw.r[each.key]
  name     = each.key
}
data "stratafw_echo" "e" {
  provider = stratafw.r["a"]
  input    = "x"
}
module "per" {
  source    = "./per"
  for_each  = var.active
  providers = { stratafw = stratafw.r[each.key] }
}
output "ids" {
  value = merge({ for k, v in stratafw_thing.t : k => v.id }, { for k, m in module.per : "m${k}" => m.id })
}
`

const providerForEachChild = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
resource "stratafw_thing" "m" {
  name = "m"
}
output "id" {
  value = stratafw_thing.m.id
}
`

// TestE2EProviderForEach: each instance of a provider configuration with
// for_each is its own plugin process, configured with its own each.value;
// resources and module instances use the one they select, the state
// records it per resource instance as OpenTofu does, and objects whose
// element leaves the resource's for_each are destroyed with their own
// provider instance. Terraform 1.11 refuses provider for_each, so there is
// nothing to compare with: the state format is OpenTofu's.
func TestE2EProviderForEach(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"main.tf": providerForEachConfig, "per/main.tf": providerForEachChild})
	mustStrata(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	r := mustStrata(t, dir, 0, "output", "-json", "ids")
	if got, want := flat(r.stdout), `{"a":"pa-a","b":"pb-b","ma":"pa-m","mb":"pb-m"}`; got != want {
		t.Fatalf("ids = %s, want %s", got, want)
	}

	var state struct {
		Resources []struct {
			Module, Mode, Type, Name string
			Provider                 *string `json:"provider"`
			Instances                []struct {
				IndexKey any    `json:"index_key"`
				Provider string `json:"provider"`
			}
		}
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &state); err != nil {
		t.Fatal(err)
	}
	const inst = `provider["registry.terraform.io/strata/stratafw"].r`
	got := map[string]string{}
	for _, rs := range state.Resources {
		if rs.Provider != nil {
			t.Errorf("%s %s.%s: resource-level provider %q, want none (OpenTofu records each instance's)", rs.Module, rs.Type, rs.Name, *rs.Provider)
		}
		for _, is := range rs.Instances {
			got[strings.TrimPrefix(rs.Module+"."+rs.Mode+"."+rs.Type+"."+rs.Name, ".")+keyString(is.IndexKey)] = is.Provider
		}
	}
	want := map[string]string{
		`managed.stratafw_thing.t["a"]`:            inst + `["a"]`,
		`managed.stratafw_thing.t["b"]`:            inst + `["b"]`,
		`data.stratafw_echo.e`:                     inst + `["a"]`,
		`module.per["a"].managed.stratafw_thing.m`: inst + `["a"]`,
		`module.per["b"].managed.stratafw_thing.m`: inst + `["b"]`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: provider %q, want %q", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("state instances %v, want %v", got, want)
	}

	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

	// Selecting an instance that is not declared fails.
	r = mustStrata(t, dir, 1, "plan", "-no-color", `-var=regions={a="pa-"}`)
	if !strings.Contains(flat(r.stderr), `The provider configuration of stratafw_thing.t["b"] selects the provider instance provider["registry.terraform.io/strata/stratafw"].r["b"], but the for_each of provider["registry.terraform.io/strata/stratafw"].r has no element with that key.`) {
		t.Fatalf("expected the undeclared provider instance to be reported:\n%s", r.stderr)
	}
	// Removing the provider instance together with the resources that
	// use it fails too: their objects need it to be destroyed.
	r = mustStrata(t, dir, 1, "plan", "-no-color", `-var=regions={a="pa-"}`, `-var=active=["a"]`)
	for _, addr := range []string{`stratafw_thing.t["b"]`, `module.per["b"].stratafw_thing.m`} {
		if !strings.Contains(flat(r.stderr), `To work with `+addr+` its original provider instance at provider["registry.terraform.io/strata/stratafw"].r["b"] is required, but it has been removed.`) {
			t.Fatalf("expected the missing provider instance of %s to be reported:\n%s", addr, r.stderr)
		}
	}

	// Removing the element from the resources' for_each only destroys
	// them, with the provider instance that created them.
	// (Through a saved plan, which records each change's provider
	// instance.)
	mustStrata(t, dir, 0, "plan", "-no-color", `-var=active=["a"]`, "-out=shrink.tfplan")
	r = mustStrata(t, dir, 0, "apply", "-no-color", "shrink.tfplan")
	for _, s := range []string{`stratafw_thing.t["b"]: Destroying... [id=pb-b]`, `module.per["b"].stratafw_thing.m: Destroying... [id=pb-m]`, "0 added, 0 changed, 2 destroyed"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("apply output lacks %q:\n%s", s, r.stdout)
		}
	}
	// Now the provider instance can go.
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode", `-var=active=["a"]`, `-var=regions={a="pa-",b="pb-"}`)
	r = mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color", `-var=active=["a"]`)
	if !strings.Contains(r.stdout, "Destroy complete! Resources: 2 destroyed.") {
		t.Errorf("destroy output:\n%s", r.stdout)
	}

	// import uses the provider instance the resource instance selects,
	// through a module block's providers argument too.
	mustStrata(t, dir, 0, "import", "-no-color", `stratafw_thing.t["b"]`, "pb-b")
	mustStrata(t, dir, 0, "import", "-no-color", `module.per["a"].stratafw_thing.m`, "pa-m")
	st := string(readFile(t, filepath.Join(dir, "terraform.tfstate")))
	for _, want := range []string{`"provider": "provider[\"registry.terraform.io/strata/stratafw\"].r[\"b\"]"`, `"provider": "provider[\"registry.terraform.io/strata/stratafw\"].r[\"a\"]"`} {
		if !strings.Contains(st, want) {
			t.Errorf("imported state lacks %s:\n%s", want, st)
		}
	}
}

func keyString(k any) string {
	switch k := k.(type) {
	case string:
		return `["` + k + `"]`
	case float64:
		return fmt.Sprintf("[%d]", int(k))
	}
	return ""
}

// TestE2EProviderForEachErrors: references that do not fit the provider
// configuration they name are reported when the configuration is loaded,
// with OpenTofu's diagnostics.
func TestE2EProviderForEachErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src  string
		want []string
	}{
		"key for a configuration without for_each": {
			src: `
provider "terraform" {
  alias = "r"
}
resource "terraform_data" "a" {
  provider = terraform.r["x"]
}
`,
			want: []string{"Error: Invalid resource provider configuration", "An instance key can be specified only for a provider configuration that uses for_each."},
		},
		"no key for a configuration with for_each": {
			src: `
provider "terraform" {
  alias    = "r"
  for_each = toset(["x"])
}
resource "terraform_data" "a" {
  provider = terraform.r
}
`,
			want: []string{"Error: Invalid resource provider configuration", "requires an instance key"},
		},
		"for_each without alias": {
			src: `
provider "terraform" {
  for_each = toset(["x"])
}
`,
			want: []string{`Error: Alias required when using "for_each"`},
		},
		"key not among the instances": {
			src: `
provider "terraform" {
  alias    = "r"
  for_each = toset(["x"])
}
resource "terraform_data" "a" {
  provider = terraform.r["y"]
}
`,
			want: []string{"Error: Provider instance not present", `selects the provider instance provider["terraform.io/builtin/terraform"].r["y"]`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), tc.src)
			r := mustStrata(t, dir, 1, "plan", "-no-color")
			for _, w := range tc.want {
				if !strings.Contains(flat(r.stderr), flat(w)) {
					t.Errorf("plan output lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

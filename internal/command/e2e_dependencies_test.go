package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// dependenciesConfig chains resources through a local, a module with
// instances, a module output and depends_on, so that the state's
// dependencies are a transitive set wider than any one reference.
var dependenciesConfig = map[string]string{
	"main.tf": `
resource "terraform_data" "a" {
  input = "a"
}

locals {
  from_a = terraform_data.a.output
}

resource "terraform_data" "b" {
  input = local.from_a
}

module "m" {
  source   = "./m"
  for_each = toset(["x", "y"])
  in       = terraform_data.b.output
}

resource "terraform_data" "c" {
  input = module.m["x"].out
}

resource "terraform_data" "d" {
  depends_on = [terraform_data.c]
}

resource "terraform_data" "alone" {}
`,
	"m/main.tf": `
variable "in" {}

resource "terraform_data" "inner" {
  input = var.in
}

resource "terraform_data" "next" {
  input = terraform_data.inner.output
}

output "out" {
  value = terraform_data.next.output
}
`,
}

// stateDependencies reads each instance's dependencies from a state file.
func stateDependencies(t *testing.T, path string) map[string][]string {
	t.Helper()
	var doc struct {
		Resources []struct {
			Module, Type, Name string
			Instances          []struct {
				Dependencies []string `json:"dependencies"`
			}
		}
	}
	if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, r := range doc.Resources {
		addr := r.Type + "." + r.Name
		if r.Module != "" {
			addr = r.Module + "." + addr
		}
		for _, inst := range r.Instances {
			out[addr] = inst.Dependencies
		}
	}
	return out
}

// showDependsOn returns "address: depends_on" lines for every resource
// in a show -json state document, in document order.
func showDependsOn(t *testing.T, doc string) string {
	t.Helper()
	type module struct {
		Resources []struct {
			Address   string   `json:"address"`
			DependsOn []string `json:"depends_on"`
		} `json:"resources"`
		ChildModules []json.RawMessage `json:"child_modules"`
	}
	var out strings.Builder
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		var m module
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		for _, r := range m.Resources {
			fmt.Fprintf(&out, "%s: %s\n", r.Address, strings.Join(r.DependsOn, " "))
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	var top struct {
		Values struct {
			RootModule json.RawMessage `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(doc), &top); err != nil {
		t.Fatal(err)
	}
	walk(top.Values.RootModule)
	return out.String()
}

// TestE2EStateDependencies: the state records the full, sorted set of
// resources each instance depends on, as Terraform writes it.
func TestE2EStateDependencies(t *testing.T) {
	t.Parallel()
	// apply returns the dependencies in the state file and the depends_on
	// of each resource in show -json.
	apply := func(bin string) (map[string][]string, string) {
		dir := t.TempDir()
		for name, body := range dependenciesConfig {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, name), body)
		}
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		show := runIn(t, dir, "", bin, "show", "-json")
		if show.code != 0 {
			t.Fatalf("%s show -json: %d\n%s", bin, show.code, show.stderr)
		}
		return stateDependencies(t, filepath.Join(dir, "terraform.tfstate")), showDependsOn(t, show.stdout)
	}
	got, gotShow := apply(strataBin)
	want := map[string][]string{
		"terraform_data.a":                   nil,
		"terraform_data.alone":               nil,
		"terraform_data.b":                   {"terraform_data.a"},
		`module.m["x"].terraform_data.inner`: {"terraform_data.a", "terraform_data.b"},
		`module.m["y"].terraform_data.inner`: {"terraform_data.a", "terraform_data.b"},
		`module.m["x"].terraform_data.next`:  {"module.m.terraform_data.inner", "terraform_data.a", "terraform_data.b"},
		`module.m["y"].terraform_data.next`:  {"module.m.terraform_data.inner", "terraform_data.a", "terraform_data.b"},
		"terraform_data.c":                   {"module.m.terraform_data.inner", "module.m.terraform_data.next", "terraform_data.a", "terraform_data.b"},
		"terraform_data.d":                   {"module.m.terraform_data.inner", "module.m.terraform_data.next", "terraform_data.a", "terraform_data.b", "terraform_data.c"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("strata's state dependencies (-want +got):\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfDeps, tfShow := apply(tf)
		if diff := cmp.Diff(tfDeps, got); diff != "" {
			t.Errorf("dependencies (-terraform +strata):\n%s", diff)
		}
		if diff := cmp.Diff(tfShow, gotShow); diff != "" {
			t.Errorf("show -json depends_on (-terraform +strata):\n%s", diff)
		}
	}
}

// TestE2EStateDependenciesFollowConfiguration: an object whose
// configuration gained a dependency but plans no change records the new
// dependencies, as Terraform does, in the plan's prior_state (show -json)
// and in the state after apply, with and without -refresh=false; so a
// later destroy orders it after what it now depends on.
func TestE2EStateDependenciesFollowConfiguration(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	before := "resource \"terraform_data\" \"y\" {}\nresource \"terraform_data\" \"x\" {\n  input = 1\n}\n"
	after := "resource \"terraform_data\" \"y\" {}\nlocals {\n  l = terraform_data.y.id\n}\n" +
		"resource \"terraform_data\" \"x\" {\n  input      = 1\n  depends_on = [local.l]\n}\n"
	for _, refresh := range []string{"-refresh=true", "-refresh=false"} {
		// run returns the prior state's depends_on in the saved plan and
		// the state's dependencies after applying it.
		run := func(bin string) (string, map[string][]string) {
			dir := writeFiles(t, map[string]string{"main.tf": before})
			var prior string
			for _, args := range [][]string{{"apply", "-auto-approve"}, {"plan", refresh, "-out=p.tfplan"}, {"show", "-json", "p.tfplan"}, {"apply", "p.tfplan"}} {
				if args[0] == "plan" {
					writeFile(t, filepath.Join(dir, "main.tf"), after)
				}
				r := runIn(t, dir, "", bin, args...)
				if r.code != 0 {
					t.Fatalf("%s %s: %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
				}
				if args[0] == "show" {
					var doc struct {
						PriorState json.RawMessage `json:"prior_state"`
					}
					if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
						t.Fatal(err)
					}
					prior = showDependsOn(t, string(doc.PriorState))
				}
			}
			return prior, stateDependencies(t, filepath.Join(dir, "terraform.tfstate"))
		}
		wantPrior, wantState := run(tf)
		gotPrior, gotState := run(strataBin)
		if !strings.Contains(gotPrior, "terraform_data.x: terraform_data.y") {
			t.Errorf("%s: strata's prior_state lacks the new dependency:\n%s", refresh, gotPrior)
		}
		if diff := cmp.Diff(wantPrior, gotPrior); diff != "" {
			t.Errorf("%s: prior_state depends_on (-terraform +strata):\n%s", refresh, diff)
		}
		if diff := cmp.Diff(wantState, gotState); diff != "" {
			t.Errorf("%s: state dependencies (-terraform +strata):\n%s", refresh, diff)
		}
	}
}

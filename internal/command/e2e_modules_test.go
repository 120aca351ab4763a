package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// writeModulesTree writes files (names may contain directories) under dir,
// removing the *.tf files a previous step wrote first, so that each step
// is exactly its files.
func writeModulesTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".terraform" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".tf") {
			_ = os.Remove(path)
		}
		return nil
	})
	for name, src := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, path, src)
	}
}

// plannedChanges returns "ADDRESS ACTION [REASON]" for each planned_change
// message of a -json stream, sorted.
func plannedChanges(t *testing.T, stream string) []string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var m struct {
			Type   string
			Change struct {
				Resource struct{ Addr string }
				Action   string
				Reason   string
			}
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		if m.Type != "planned_change" {
			continue
		}
		s := m.Change.Resource.Addr + " " + m.Change.Action
		if m.Change.Reason != "" {
			s += " " + m.Change.Reason
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func modulesSortedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return out
}

const e2eChildModule = `
variable "name" {
  type = string
}
variable "suffix" {
  type    = string
  default = ""
}
resource "terraform_data" "r" {
  input = "${var.name}${var.suffix}"
}
module "leaf" {
  source = "../leaf"
  in     = terraform_data.r.output
}
output "out" {
  value = terraform_data.r.output
}
output "leaf" {
  value = module.leaf.out
}
`

const e2eLeafModule = `
variable "in" {}
resource "terraform_data" "l" {
  input = "leaf-${var.in}"
}
output "out" {
  value = terraform_data.l.output
}
`

// modulesSteps are the configurations of TestE2EModulesWorkflow, in order.
var modulesSteps = []struct {
	name string
	root string
	// plan is what the plan of this step does, from the state the
	// previous step left ("ADDRESS ACTION [REASON]", as plannedChanges
	// writes them).
	plan []string
	// state is the state's addresses after applying.
	state []string
}{
	{
		name: "create",
		root: `
module "c" {
  source = "./modules/child"
  count  = 2
  name   = "c${count.index}"
}
module "e" {
  source   = "./modules/child"
  for_each = toset(["x", "y"])
  name     = each.key
}
module "gone" {
  source = "./modules/child"
  name   = "g"
}
resource "terraform_data" "root" {
  input = [for m in module.c : m.leaf]
}
output "leafs" {
  value = terraform_data.root.output
}
output "ex" {
  value = module.e["x"].out
}
`,
		plan: []string{
			`module.c[0].module.leaf.terraform_data.l create`,
			`module.c[0].terraform_data.r create`,
			`module.c[1].module.leaf.terraform_data.l create`,
			`module.c[1].terraform_data.r create`,
			`module.e["x"].module.leaf.terraform_data.l create`,
			`module.e["x"].terraform_data.r create`,
			`module.e["y"].module.leaf.terraform_data.l create`,
			`module.e["y"].terraform_data.r create`,
			`module.gone.module.leaf.terraform_data.l create`,
			`module.gone.terraform_data.r create`,
			`terraform_data.root create`,
		},
		state: []string{
			`module.c[0].module.leaf.terraform_data.l`,
			`module.c[0].terraform_data.r`,
			`module.c[1].module.leaf.terraform_data.l`,
			`module.c[1].terraform_data.r`,
			`module.e["x"].module.leaf.terraform_data.l`,
			`module.e["x"].terraform_data.r`,
			`module.e["y"].module.leaf.terraform_data.l`,
			`module.e["y"].terraform_data.r`,
			`module.gone.module.leaf.terraform_data.l`,
			`module.gone.terraform_data.r`,
			`terraform_data.root`,
		},
	},
	{
		// Fewer instances, a removed call, a changed input and a new call.
		name: "change",
		root: `
module "c" {
  source = "./modules/child"
  count  = 1
  name   = "c${count.index}"
}
module "e" {
  source   = "./modules/child"
  for_each = toset(["x"])
  name     = each.key
  suffix   = "2"
}
module "added" {
  source = "./modules/leaf"
  in     = module.e["x"].out
}
resource "terraform_data" "root" {
  input = [for m in module.c : m.leaf]
}
output "leafs" {
  value = terraform_data.root.output
}
output "ex" {
  value = module.e["x"].out
}
output "added" {
  value = module.added.out
}
`,
		plan: []string{
			`module.added.terraform_data.l create`,
			`module.c[1].module.leaf.terraform_data.l delete delete_because_no_module`,
			`module.c[1].terraform_data.r delete delete_because_no_module`,
			`module.e["x"].module.leaf.terraform_data.l update`,
			`module.e["x"].terraform_data.r update`,
			`module.e["y"].module.leaf.terraform_data.l delete delete_because_no_module`,
			`module.e["y"].terraform_data.r delete delete_because_no_module`,
			`module.gone.module.leaf.terraform_data.l delete delete_because_no_resource_config`,
			`module.gone.terraform_data.r delete delete_because_no_resource_config`,
			`terraform_data.root update`,
		},
		state: []string{
			`module.added.terraform_data.l`,
			`module.c[0].module.leaf.terraform_data.l`,
			`module.c[0].terraform_data.r`,
			`module.e["x"].module.leaf.terraform_data.l`,
			`module.e["x"].terraform_data.r`,
			`terraform_data.root`,
		},
	},
}

// TestE2EModulesWorkflow applies a configuration with modules, changes
// it, plans and applies again, and checks the planned actions and the
// resulting state, and that Terraform plans the same on the same steps.
func TestE2EModulesWorkflow(t *testing.T) {
	t.Parallel()
	run := func(t *testing.T, bin string) {
		dir := t.TempDir()
		tool := func(want int, args ...string) result {
			t.Helper()
			r := runIn(t, dir, "", bin, args...)
			if r.code != want {
				t.Fatalf("%s %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", filepath.Base(bin), strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
			}
			return r
		}
		for i, step := range modulesSteps {
			writeModulesTree(t, dir, map[string]string{
				"main.tf":                step.root,
				"modules/child/child.tf": e2eChildModule,
				"modules/leaf/leaf.tf":   e2eLeafModule,
			})
			tool(0, "init", "-no-color")
			// A plan with changes exits 2 with -detailed-exitcode.
			r := tool(2, "plan", "-json", "-detailed-exitcode", "-input=false")
			if diff := diffLines(step.plan, plannedChanges(t, r.stdout)); diff != "" {
				t.Errorf("step %s: wrong plan\n%s", step.name, diff)
			}
			if i == 1 {
				human := flat(tool(2, "plan", "-no-color", "-detailed-exitcode").stdout)
				for _, want := range []string{
					`# module.c[1].terraform_data.r will be destroyed # (because module.c[1] is not in configuration)`,
					`# module.e["y"].terraform_data.r will be destroyed # (because module.e["y"] is not in configuration)`,
					`# module.gone.terraform_data.r will be destroyed # (because terraform_data.r is not in configuration)`,
					`# module.e["x"].terraform_data.r will be updated in-place`,
					`Plan: 1 to add, 3 to change, 6 to destroy.`,
				} {
					if !strings.Contains(human, want) {
						t.Errorf("step %s: human plan lacks %q:\n%s", step.name, want, human)
					}
				}
			}
			tool(0, "apply", "-auto-approve", "-no-color", "-input=false")
			if diff := diffLines(step.state, modulesSortedLines(tool(0, "state", "list").stdout)); diff != "" {
				t.Errorf("step %s: wrong state\n%s", step.name, diff)
			}
			// Nothing left to do.
			tool(0, "plan", "-detailed-exitcode", "-no-color", "-input=false")
		}
		var outputs map[string]struct{ Value any }
		if err := json.Unmarshal([]byte(tool(0, "output", "-json").stdout), &outputs); err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for k, v := range outputs {
			got[k] = v.Value
		}
		want := map[string]any{"ex": "x2", "added": "leaf-x2", "leafs": []any{"leaf-c0"}}
		if a, b := jsonString(want), jsonString(got); a != b {
			t.Errorf("wrong outputs: want %s, got %s", a, b)
		}
		r := tool(0, "destroy", "-auto-approve", "-no-color")
		if !strings.Contains(r.stdout, "Destroy complete! Resources: 6 destroyed.") {
			t.Errorf("destroy: %s", r.stdout)
		}
		if s := tool(0, "state", "list").stdout; strings.TrimSpace(s) != "" {
			t.Errorf("state not empty after destroy:\n%s", s)
		}
	}
	t.Run("strata", func(t *testing.T) {
		t.Parallel()
		run(t, strataBin)
	})
	t.Run("terraform", func(t *testing.T) {
		t.Parallel()
		run(t, terraformBin(t))
	})
}

func diffLines(want, got []string) string {
	if strings.Join(want, "\n") == strings.Join(got, "\n") {
		return ""
	}
	return "--- want\n" + strings.Join(want, "\n") + "\n--- got\n" + strings.Join(got, "\n")
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestE2EModuleErrors: each user error with modules gives a diagnostic
// naming the file and line, exit code 1, and leaves the state file
// byte-identical, in validate, plan and apply.
func TestE2EModuleErrors(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  []string
	}{
		"module directory missing": {
			files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./nope\"\n}\n"},
			want:  []string{"Error: Unreadable module directory", "on main.tf line 2, in module \"m\""},
		},
		"unsupported argument": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n  bogus  = 1\n}\n",
				"child/child.tf": "variable \"a\" {\n  default = 1\n}\n",
			},
			want: []string{"Error: Unsupported argument", "on main.tf line 3, in module \"m\"", `An argument named "bogus" is not expected here.`},
		},
		"missing required argument": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n}\n",
				"child/child.tf": "variable \"a\" {}\n",
			},
			want: []string{"Error: Missing required argument", "on main.tf line 1, in module \"m\"", `The argument "a" is required`},
		},
		"count and for_each": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source   = \"./child\"\n  count    = 1\n  for_each = toset([\"a\"])\n}\n",
				"child/child.tf": "",
			},
			want: []string{`Error: Invalid combination of "count" and "for_each"`, "on main.tf line 4, in module \"m\""},
		},
		"source not static": {
			// A variable is allowed (OpenTofu's early evaluation), but
			// not a resource attribute.
			files: map[string]string{"main.tf": "resource \"terraform_data\" \"d\" {}\nmodule \"m\" {\n  source = terraform_data.d.output\n}\n"},
			want:  []string{"Error: Dynamic value in static context", "on main.tf line 3, in module \"m\""},
		},
		"remote source not installed": {
			files: map[string]string{"main.tf": "module \"m\" {\n  source = \"git::https://example.com/mod.git\"\n}\n"},
			want:  []string{"Error: Module not installed", "on main.tf line 1:", `Run "strata init"`},
		},
		"module calling itself": {
			files: map[string]string{"main.tf": "module \"m\" {\n  source = \"./\"\n}\n"},
			want:  []string{"Error: Module calls itself", "on main.tf line 2, in module \"m\""},
		},
		"provider block in a module called with count": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n  count  = 2\n}\n",
				"child/child.tf": "provider \"terraform\" {\n  bogus = 1\n}\n",
			},
			want: []string{"Error: Module is incompatible with count, for_each, and depends_on", "on main.tf line 3, in module \"m\""},
		},
		"reserved blocks": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n  lifecycle {\n  }\n}\n",
				"child/child.tf": "",
			},
			want: []string{"Error: Reserved block type name in module block", "on main.tf line 3, in module \"m\""},
		},
		"validation rule in the child": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n  n      = 12\n}\n",
				"child/child.tf": "variable \"n\" {\n  type = number\n  validation {\n    condition     = var.n < 10\n    error_message = \"Too big.\"\n  }\n}\n",
			},
			want: []string{"Error: Invalid value for variable", "on main.tf line 3, in module \"m\"", "Too big.", "child/child.tf:3,3-13"},
		},
		"wrong input type": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n  n      = \"five\"\n}\n",
				"child/child.tf": "variable \"n\" {\n  type = number\n}\n",
			},
			want: []string{"Error: Invalid value for input variable", "on main.tf line 3, in module \"m\"", "a number is required"},
		},
		"error inside the child": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n}\n",
				"child/child.tf": "resource \"terraform_data\" \"a\" {\n  input = var.nope\n}\n",
			},
			want: []string{"Error: Reference to undeclared input variable", "on child/child.tf line 2, in resource \"terraform_data\" \"a\""},
		},
		"unknown module output": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n}\noutput \"o\" {\n  value = module.m.nope\n}\n",
				"child/child.tf": "",
			},
			want: []string{"Error: Unsupported attribute", "on main.tf line 5, in output \"o\""},
		},
		"cycle through a module": {
			files: map[string]string{
				"main.tf":        "module \"m\" {\n  source = \"./child\"\n  in     = terraform_data.a.output\n}\nresource \"terraform_data\" \"a\" {\n  input = module.m.out\n}\n",
				"child/child.tf": "variable \"in\" {}\nresource \"terraform_data\" \"r\" {\n  input = var.in\n}\noutput \"out\" {\n  value = terraform_data.r.output\n}\n",
			},
			want: []string{"Error: Cycle: module.m.output.out, module.m.terraform_data.r, module.m.var.in, terraform_data.a"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeModulesTree(t, dir, map[string]string{
				"main.tf":     "module \"keep\" {\n  source = \"./keep\"\n}\n",
				"keep/key.tf": "resource \"terraform_data\" \"k\" {\n  input = \"k\"\n}\n",
			})
			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
			statePath := filepath.Join(dir, "terraform.tfstate")
			before := readFile(t, statePath)
			writeModulesTree(t, dir, tc.files)
			for _, args := range [][]string{
				{"validate", "-no-color"},
				{"plan", "-no-color", "-input=false"},
				{"apply", "-no-color", "-input=false", "-auto-approve"},
			} {
				r := runInProcess(t, dir, nil, "", args...)
				if r.code != 1 {
					t.Fatalf("%s: exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", args[0], r.code, r.stdout, r.stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(flat(r.stderr), w) {
						t.Errorf("%s: stderr lacks %q:\n%s", args[0], w, r.stderr)
					}
				}
				if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
					t.Fatalf("%s panicked:\n%s", args[0], r.stderr)
				}
				if after := readFile(t, statePath); string(after) != string(before) {
					t.Fatalf("%s changed the state file", args[0])
				}
			}
		})
	}
}

package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// The e2e tests of OpenTofu's additions to the language, which Terraform
// does not accept: golden outputs, checked against OpenTofu's
// documentation.

// TestE2ETofuFiles: .tofu and .tofu.json files are configuration, and
// take the place of the .tf and .tf.json files of the same base name, for
// override files too; a saved plan's configuration snapshot keeps the
// same files.
func TestE2ETofuFiles(t *testing.T) {
	t.Parallel()
	dir := workdir(t, "tofu_files")
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-out=p.tfplan")
	golden(t, "tofu_files", "plan.golden", r.stdout)
	mustStrata(t, dir, 0, "apply", "-no-color", "p.tfplan")
	out := mustStrata(t, dir, 0, "output", "-raw", "extra")
	if out.stdout != "from extra.tofu.json" {
		t.Errorf("output extra = %q", out.stdout)
	}
	show := mustStrata(t, dir, 0, "state", "show", "-no-color", "terraform_data.b")
	if !strings.Contains(show.stdout, `"from b_override.tofu"`) {
		t.Errorf("terraform_data.b:\n%s", show.stdout)
	}
}

// TestE2ETofuExclude: -exclude leaves out what it names and what depends
// on it, an instance alone where it names one (what depends on its
// resource is still left out, as in OpenTofu), and when destroying, what
// the excluded objects depend on. It cannot be combined with -target.
func TestE2ETofuExclude(t *testing.T) {
	t.Parallel()
	dir := copyTree(t, "tofu_exclude")
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-exclude=terraform_data.base", "-exclude=terraform_data.other[1]", "-exclude=module.m", "-out=p.tfplan")
	golden(t, "tofu_exclude", "plan.golden", r.stdout)
	r = mustStrata(t, dir, 0, "apply", "-no-color", "p.tfplan")
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != "terraform_data.other[0]\n" {
		t.Errorf("state after applying the plan with -exclude:\n%s", got)
	}
	r = mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve", "-exclude=terraform_data.dep")
	golden(t, "tofu_exclude", "apply.golden", summaryLines(r.stdout))
	want := "terraform_data.base\nterraform_data.other[0]\nterraform_data.other[1]\nterraform_data.uses_other\nmodule.m.terraform_data.inner\n"
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != want {
		t.Errorf("state after apply -exclude:\n%s", got)
	}
	mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve")
	r = mustStrata(t, dir, 0, "destroy", "-no-color", "-auto-approve", "-exclude=terraform_data.dep")
	golden(t, "tofu_exclude", "destroy.golden", summaryLines(r.stdout))
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != "terraform_data.base\nterraform_data.dep\n" {
		t.Errorf("state after destroy -exclude:\n%s", got)
	}
	r = mustStrata(t, dir, 0, "refresh", "-no-color", "-exclude=terraform_data.dep")
	if !strings.Contains(r.stdout, "terraform_data.base: Refreshing") || strings.Contains(r.stdout, "terraform_data.dep: Refreshing") {
		t.Errorf("refresh -exclude refreshed what it excludes:\n%s", r.stdout)
	}
	r = mustStrata(t, dir, 1, "plan", "-no-color", "-exclude=terraform_data.dep", "-target=terraform_data.base")
	if !strings.Contains(r.stderr, "Invalid combination of arguments") {
		t.Errorf("-exclude with -target:\n%s", r.stderr)
	}
}

// summaryLines keeps what an apply says it plans and did, without the
// progress lines, whose order varies: the headers of planned changes, the
// counts, and the summaries of warnings.
func summaryLines(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		for _, p := range []string{"  # ", "Plan: ", "Warning: ", "Apply complete!", "Destroy complete!"} {
			if strings.HasPrefix(l, p) {
				keep = append(keep, l)
			}
		}
	}
	return strings.Join(keep, "\n") + "\n"
}

// TestE2ETofuEnabled: OpenTofu's lifecycle { enabled = ... } on resources,
// data sources and module calls: one instance without a key when true,
// none when false, and the resource or module is then null; disabling
// destroys what there was, "because enabled is false"; a resource that
// used count = 1 moves to the address without a key.
func TestE2ETofuEnabled(t *testing.T) {
	t.Parallel()
	dir := copyTree(t, "tofu_enabled")
	mustStrata(t, dir, 0, "validate", "-no-color")
	mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve")
	out := mustStrata(t, dir, 0, "output", "-json").stdout
	if flat(out) != flat(`{ "a": { "sensitive": false, "type": "string", "value": "a" }, "m": { "sensitive": false, "type": "string", "value": "in" }, "s": { "sensitive": false, "type": "bool", "value": true } }`) {
		t.Errorf("outputs when enabled:\n%s", out)
	}
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-var", "on=false")
	golden(t, "tofu_enabled", "disable.golden", r.stdout)
	r = mustStrata(t, dir, 0, "plan", "-json", "-var", "on=false")
	if !strings.Contains(r.stdout, `"reason":"delete_because_enabled_false"`) {
		t.Errorf("plan -json does not give the reason:\n%s", r.stdout)
	}
	mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve", "-var", "on=false")
	if got := mustStrata(t, dir, 0, "state", "list").stdout; got != "" {
		t.Errorf("state when disabled:\n%s", got)
	}
	if got := mustStrata(t, dir, 0, "output", "-raw", "a").stdout; got != "disabled" {
		t.Errorf("output a when disabled: %q", got)
	}

	// From count = 1 to enabled: the instance moves.
	dir = t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  count = 1\n}\n")
	mustStrata(t, dir, 0, "apply", "-no-color", "-auto-approve")
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    enabled = true\n  }\n}\n")
	r = mustStrata(t, dir, 0, "plan", "-no-color")
	if !strings.Contains(r.stdout, "# terraform_data.a[0] has moved to terraform_data.a") || !strings.Contains(r.stdout, "Plan: 0 to add, 0 to change, 0 to destroy.") {
		t.Errorf("plan from count to enabled:\n%s", r.stdout)
	}

	errors := map[string]struct{ config, want string }{
		"with count": {"resource \"terraform_data\" \"a\" {\n  count = 1\n  lifecycle {\n    enabled = true\n  }\n}\n",
			`Invalid combination of "count", "enabled", and "for_each"`},
		"module with for_each": {"module \"m\" {\n  source = \"./m\"\n  for_each = {}\n  lifecycle {\n    enabled = true\n  }\n}\n",
			`Invalid combination of "count", "enabled", and "for_each"`},
		"not a bool": {"resource \"terraform_data\" \"a\" {\n  lifecycle {\n    enabled = \"maybe\"\n  }\n}\n",
			"Incorrect value type"},
		"null": {"variable \"v\" {\n  type = bool\n  default = null\n}\nresource \"terraform_data\" \"a\" {\n  lifecycle {\n    enabled = var.v\n  }\n}\n",
			`The given "enabled" argument value is null.`},
		"unknown": {"resource \"terraform_data\" \"b\" {}\nresource \"terraform_data\" \"a\" {\n  lifecycle {\n    enabled = terraform_data.b.id != \"\"\n  }\n}\n",
			`The "enabled" value depends on resource attributes that cannot be determined until apply`},
		"sensitive": {"resource \"terraform_data\" \"a\" {\n  lifecycle {\n    enabled = sensitive(true)\n  }\n}\n",
			"Sensitive values, or values derived from sensitive values, cannot be used as enabled arguments."},
		"module lifecycle argument": {"module \"m\" {\n  source = \"./m\"\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n",
			`An argument named "prevent_destroy" is not expected here.`},
	}
	for name, c := range errors {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), c.config)
			if err := os.MkdirAll(filepath.Join(dir, "m"), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "m", "main.tf"), "")
			r := strata(t, dir, "plan", "-no-color")
			if r.code != 1 || !strings.Contains(flat(r.stderr), c.want) {
				t.Errorf("exit %d, want 1 and %q:\n%s", r.code, c.want, r.stderr)
			}
		})
	}
}

// TestE2ETofuEarlyEvaluation: a module call's source may use variables and
// locals known when the configuration is loaded, as in OpenTofu 1.8: the
// default, variable files, TF_VAR_, -var, and for a saved plan the values
// it was made with. A remote source so computed is what init installs.
// What is not static is an error.
func TestE2ETofuEarlyEvaluation(t *testing.T) {
	t.Parallel()
	e := &stickyEnv{t: t}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"main.tf": `variable "which" {
  type    = string
  default = "a"
}

locals {
  dir = "./mods/${var.which}"
}

module "m" {
  source = local.dir
}

output "name" {
  value = module.m.name
}
`,
		"mods/a/main.tf": `output "name" { value = "a" }`,
		"mods/b/main.tf": `output "name" { value = "b" }`,
	})
	r := e.mustStrata(dir, 0, "init", "-no-color")
	if !strings.Contains(r.stdout, "- m in mods/a") {
		t.Errorf("init:\n%s", r.stdout)
	}
	planned := func(r result) string {
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "+ name") {
				return strings.TrimSpace(l)
			}
		}
		return r.stdout
	}
	if got := planned(e.mustStrata(dir, 0, "plan", "-no-color")); got != `+ name = "a"` {
		t.Errorf("default: %s", got)
	}
	if got := planned(e.mustStrata(dir, 0, "plan", "-no-color", "-var", "which=b")); got != `+ name = "b"` {
		t.Errorf("-var: %s", got)
	}
	writeFile(t, filepath.Join(dir, "vars.tfvars"), "which = \"b\"\n")
	if got := planned(e.mustStrata(dir, 0, "plan", "-no-color", "-var-file=vars.tfvars")); got != `+ name = "b"` {
		t.Errorf("-var-file: %s", got)
	}
	env := e.runInEnv(dir, []string{"TF_VAR_which=b"}, "plan", "-no-color")
	if got := planned(env); got != `+ name = "b"` {
		t.Errorf("TF_VAR_: %s", got)
	}
	e.mustStrata(dir, 0, "plan", "-no-color", "-var", "which=b", "-out=p.tfplan")
	e.mustStrata(dir, 0, "apply", "-no-color", "p.tfplan")
	if got := e.mustStrata(dir, 0, "output", "-raw", "name").stdout; got != "b" {
		t.Errorf("applied saved plan made with -var: output %q", got)
	}

	// A git source whose ref is a variable: init installs what it says.
	bare, _ := sourcetest.ModuleRepo(t)
	gdir := t.TempDir()
	writeTree(t, gdir, map[string]string{"main.tf": `variable "ref" {
  default = "v1.0"
}

locals {
  repo = "git::file://` + filepath.ToSlash(bare) + `"
}

module "vpc" {
  source = "${local.repo}//vpc?ref=${var.ref}"
}

output "vpc" {
  value = module.vpc.version
}
`})
	e.mustStrata(gdir, 0, "init", "-no-color")
	e.mustStrata(gdir, 0, "apply", "-no-color", "-auto-approve")
	if got := e.mustStrata(gdir, 0, "output", "-raw", "vpc").stdout; got != "one" {
		t.Errorf("module installed from the computed git source says %q", got)
	}

	errors := map[string]string{
		"no value":      "variable \"req\" {\n  type = string\n}\nmodule \"r\" {\n  source = var.req\n}\n",
		"resource":      "resource \"terraform_data\" \"x\" {}\nmodule \"d\" {\n  source = \"./mods/${terraform_data.x.id}\"\n}\n",
		"sensitive":     "variable \"s\" {\n  default = \"./mods/a\"\n  sensitive = true\n}\nmodule \"s\" {\n  source = var.s\n}\n",
		"local cycle":   "locals {\n  a = local.b\n  b = local.a\n}\nmodule \"c\" {\n  source = local.a\n}\n",
		"file function": "module \"f\" {\n  source = file(\"x\")\n}\n",
	}
	wants := map[string]string{
		"no value":      "Error: Variable value required for early evaluation",
		"resource":      "Error: Dynamic value in static context",
		"sensitive":     "Error: Sensitive value not allowed",
		"local cycle":   "Error: Circular reference",
		"file function": "Error: Function calls not allowed",
	}
	for name, config := range errors {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"main.tf": config, "mods/a/main.tf": ""})
			r := runWith(t, dir, "", strataBin, e.env, "validate", "-no-color")
			if r.code != 1 || !strings.Contains(r.stderr, wants[name]) {
				t.Errorf("exit %d, want 1 and %q:\n%s", r.code, wants[name], r.stderr)
			}
		})
	}
}

// TestE2ETofuEarlyEvaluationBackend: a backend block's arguments may use
// static variables and locals too; a different value is a changed backend
// configuration, which needs init again.
func TestE2ETofuEarlyEvaluationBackend(t *testing.T) {
	t.Parallel()
	e := &stickyEnv{t: t}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"main.tf": `variable "env" {
  default = "dev"
}

locals {
  state = "states/${var.env}.tfstate"
}

terraform {
  backend "local" {
    path = local.state
  }
}

resource "terraform_data" "a" {}
`, "states/.keep": ""})
	e.mustStrata(dir, 0, "init", "-no-color")
	e.mustStrata(dir, 0, "apply", "-no-color", "-auto-approve")
	if _, err := os.Stat(filepath.Join(dir, "states", "dev.tfstate")); err != nil {
		t.Fatalf("state not where the evaluated path says: %v", err)
	}
	e.setenv("TF_VAR_env", "prod")
	r := e.mustStrata(dir, 1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "Backend configuration block has changed") {
		t.Errorf("plan with another value:\n%s", r.stderr)
	}
	e.mustStrata(dir, 0, "init", "-no-color", "-reconfigure")
	r = e.mustStrata(dir, 0, "plan", "-no-color")
	if !strings.Contains(r.stdout, "Plan: 1 to add") {
		t.Errorf("plan with the prod state (empty):\n%s", r.stdout)
	}

	bad := t.TempDir()
	writeFile(t, filepath.Join(bad, "main.tf"), "resource \"terraform_data\" \"a\" {}\nterraform {\n  backend \"local\" {\n    path = terraform_data.a.id\n  }\n}\n")
	r = e.strata(bad, "init", "-no-color")
	if r.code != 1 || !strings.Contains(r.stderr, "Error: Dynamic value in static context") {
		t.Errorf("backend from a resource: exit %d\n%s", r.code, r.stderr)
	}
}

// TestE2ETofuProviderForEachVsTerraform: OpenTofu's for_each in provider
// blocks is accepted, where Terraform 1.11 refuses it.
func TestE2ETofuProviderForEachVsTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	config := "provider \"terraform\" {\n  alias    = \"x\"\n  for_each = toset([\"a\"])\n}\nresource \"terraform_data\" \"a\" {\n  provider = terraform.x[\"a\"]\n}\n"
	var outs []result
	for _, bin := range []string{tf, strataBin} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		outs = append(outs, runIn(t, dir, "", bin, "validate", "-no-color"))
	}
	if outs[0].code != 1 || !strings.Contains(outs[0].stderr, "Reserved argument name in provider block") {
		t.Errorf("terraform: exit %d\n%s", outs[0].code, outs[0].stderr)
	}
	if outs[1].code != 0 {
		t.Errorf("strata: exit %d\n%s", outs[1].code, outs[1].stderr)
	}
}

// TestE2ETofuInitVars: init takes -var and -var-file, as OpenTofu does,
// for the early evaluation of module sources and the backend block; with
// none, TF_VAR_ and variable files still count. (Terraform 1.11 accepts
// the flags on init and ignores them.)
func TestE2ETofuInitVars(t *testing.T) {
	t.Parallel()
	e := &stickyEnv{t: t}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"main.tf": `variable "which" {
  type = string
}

variable "env" {
  type = string
}

terraform {
  backend "local" {
    path = "states/${var.env}.tfstate"
  }
}

module "m" {
  source = "./mods/${var.which}"
}

output "name" {
  value = module.m.name
}
`,
		"mods/a/main.tf": `output "name" { value = "a" }`,
		"mods/b/main.tf": `output "name" { value = "b" }`,
	})
	r := e.mustStrata(dir, 1, "init", "-no-color")
	if !strings.Contains(r.stderr, "Error: Variable value required for early evaluation") {
		t.Errorf("init without values:\n%s", r.stderr)
	}
	r = e.mustStrata(dir, 0, "init", "-no-color", "-var", "which=b", "-var=env=dev")
	if !strings.Contains(r.stdout, "- m in mods/b") {
		t.Errorf("init -var:\n%s", r.stdout)
	}
	e.mustStrata(dir, 0, "apply", "-no-color", "-auto-approve", "-var", "which=b", "-var=env=dev")
	// output has no -var (OpenTofu's has): the environment gives the
	// backend's value.
	if got := e.runInEnv(dir, []string{"TF_VAR_env=dev"}, "output", "-raw", "name").stdout; got != "b" {
		t.Errorf("output %q, want b", got)
	}
	// The backend's path was evaluated with env=dev; its directory is
	// created as Terraform creates it.
	if _, err := os.Stat(filepath.Join(dir, "states", "dev.tfstate")); err != nil {
		t.Fatalf("state not where the evaluated path says: %v", err)
	}

	writeFile(t, filepath.Join(dir, "a.tfvars"), "which = \"a\"\n")
	e.setenv("TF_VAR_env", "prod")
	r = e.mustStrata(dir, 0, "init", "-no-color", "-reconfigure", "-var-file=a.tfvars")
	if !strings.Contains(r.stdout, "- m in mods/a") {
		t.Errorf("init -var-file:\n%s", r.stdout)
	}
	r = e.mustStrata(dir, 0, "plan", "-no-color", "-var-file=a.tfvars")
	if !strings.Contains(r.stdout, `+ name = "a"`) {
		t.Errorf("plan with the prod state and module a:\n%s", r.stdout)
	}
}

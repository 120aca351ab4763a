package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestE2EFmt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ugly := "resource \"terraform_data\" \"a\" {\ninput = \"${var.x}\"\n  triggers_replace=1\n}\n"
	pretty := "resource \"terraform_data\" \"a\" {\n  input            = var.x\n  triggers_replace = 1\n}\n"
	writeFile(t, filepath.Join(dir, "main.tf"), ugly)
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "sub", "x.tf"), ugly)

	r := mustStrata(t, dir, 3, "fmt", "-check")
	if r.stdout != "main.tf\n" {
		t.Fatalf("fmt -check listed %q", r.stdout)
	}
	if string(readFile(t, filepath.Join(dir, "main.tf"))) != ugly {
		t.Fatal("fmt -check modified a file")
	}
	r = mustStrata(t, dir, 3, "fmt", "-check", "-diff", "-recursive")
	if !strings.Contains(r.stdout, "--- old/main.tf") || !strings.Contains(r.stdout, "+  input            = var.x") || !strings.Contains(r.stdout, "sub/x.tf") {
		t.Fatalf("fmt -diff output:\n%s", r.stdout)
	}
	mustStrata(t, dir, 0, "fmt", "-recursive")
	for _, f := range []string{"main.tf", "sub/x.tf"} {
		if got := string(readFile(t, filepath.Join(dir, f))); got != pretty {
			t.Fatalf("%s not formatted:\n%s", f, got)
		}
	}
	mustStrata(t, dir, 0, "fmt", "-check", "-recursive")

	writeFile(t, filepath.Join(dir, "bad.tf"), "resource {\n")
	r = mustStrata(t, dir, 2, "fmt", "-no-color")
	if !strings.Contains(flat(r.stderr), "bad.tf line 1") {
		t.Fatalf("fmt syntax error: %s", r.stderr)
	}
}

func TestE2EVersionAndChdir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := mustStrata(t, dir, 0, "version")
	if !strings.HasPrefix(r.stdout, "strata v0.1.0\n") {
		t.Fatalf("version: %q", r.stdout)
	}
	if r2 := mustStrata(t, dir, 0, "-version"); r2.stdout != r.stdout {
		t.Fatalf("-version differs from version: %q", r2.stdout)
	}
	sub := filepath.Join(dir, "infra")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(sub, "main.tf"), `output "where" { value = path.module }`)
	mustStrata(t, dir, 0, "-chdir=infra", "apply", "-auto-approve", "-no-color")
	if _, err := os.Stat(filepath.Join(sub, "terraform.tfstate")); err != nil {
		t.Fatal("state not written in the -chdir directory")
	}
	if r := mustStrata(t, dir, 0, "-chdir", "infra", "output", "-raw", "where"); r.stdout != "." {
		t.Fatalf("path.module = %q", r.stdout)
	}
	if r := strata(t, dir, "plan", "-chdir=infra"); r.code != 1 || !strings.Contains(flat(r.stderr), "chdir") {
		t.Fatalf("-chdir after the subcommand should be refused: %+v", r)
	}
	if r := mustStrata(t, dir, 0, "plan", "-help"); !strings.Contains(flat(r.stdout), "-detailed-exitcode") || strings.Contains(flat(r.stdout), "--detailed-exitcode") {
		t.Fatalf("plan -help:\n%s", r.stdout)
	}
	if r := strata(t, dir, "plan"); r.code != 1 || !strings.Contains(flat(r.stderr), "No configuration files") {
		t.Fatalf("plan in an empty directory: %+v", r)
	}
}

func TestE2EWorkspaceState(t *testing.T) {
	t.Parallel()
	e := &stickyEnv{t: t}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `output "ws" { value = terraform.workspace }`)
	e.setenv("TF_WORKSPACE", "staging")
	// A workspace that does not exist yet is created, as by Terraform's
	// local backend.
	e.mustStrata(dir, 0, "apply", "-auto-approve", "-no-color")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "staging", "terraform.tfstate")); err != nil {
		t.Fatal("workspace state not written in terraform.tfstate.d/staging")
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Fatal("the default workspace's state was written")
	}
	if r := e.mustStrata(dir, 0, "output", "-raw", "ws"); r.stdout != "staging" {
		t.Fatalf("terraform.workspace = %q", r.stdout)
	}
}

func TestE2EProvidersAndGraph(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = 1\n}\nresource \"terraform_data\" \"b\" {\n  input = terraform_data.a.output\n}\n")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	r := mustStrata(t, dir, 0, "providers")
	want := "\nProviders required by configuration:\n.\n└── provider[terraform.io/builtin/terraform]\n\nProviders required by state:\n\n    provider[terraform.io/builtin/terraform]\n\n"
	if r.stdout != want {
		t.Fatalf("providers:\n%q\nwant\n%q", r.stdout, want)
	}
	r = mustStrata(t, dir, 0, "providers", "schema", "-json")
	var doc struct {
		FormatVersion   string `json:"format_version"`
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]struct {
				Block struct {
					Attributes map[string]map[string]any
				}
			} `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	attrs := doc.ProviderSchemas["terraform.io/builtin/terraform"].ResourceSchemas["terraform_data"].Block.Attributes
	if doc.FormatVersion != "1.0" || attrs["input"]["type"] != "dynamic" || attrs["id"]["computed"] != true {
		t.Fatalf("schema document: %s", r.stdout)
	}
	g := mustStrata(t, dir, 0, "graph")
	if !strings.Contains(g.stdout, `"terraform_data.b" -> "terraform_data.a";`) {
		t.Fatalf("graph:\n%s", g.stdout)
	}
}

func TestE2EWorkspaceCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `resource "terraform_data" "a" {
  input = terraform.workspace
}`)
	r := mustStrata(t, dir, 0, "workspace", "new", "-no-color", "staging")
	if !strings.Contains(r.stdout, `Created and switched to workspace "staging"!`) {
		t.Fatalf("new: %s", r.stdout)
	}
	if r := mustStrata(t, dir, 0, "workspace", "show"); r.stdout != "staging\n" {
		t.Fatalf("show: %q", r.stdout)
	}
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate.d", "staging", "terraform.tfstate")); err != nil {
		t.Fatal("apply in the staging workspace did not write its state there")
	}
	if r := mustStrata(t, dir, 0, "workspace", "list"); r.stdout != "  default\n* staging\n\n" {
		t.Fatalf("list: %q", r.stdout)
	}
	if r := strata(t, dir, "workspace", "delete", "-no-color", "staging"); r.code != 1 || !strings.Contains(flat(r.stderr), "is your active workspace") {
		t.Fatalf("deleting the active workspace: %+v", r)
	}
	mustStrata(t, dir, 0, "workspace", "select", "-no-color", "default")
	if r := strata(t, dir, "workspace", "delete", "-no-color", "staging"); r.code != 1 || !strings.Contains(flat(r.stderr), "Workspace is not empty") {
		t.Fatalf("deleting a workspace with resources: %+v", r)
	}
	if r := strata(t, dir, "workspace", "select", "-no-color", "nope"); r.code != 1 || !strings.Contains(flat(r.stderr), `Workspace "nope" doesn't exist`) {
		t.Fatalf("selecting a missing workspace: %+v", r)
	}
	mustStrata(t, dir, 0, "workspace", "select", "-or-create", "-no-color", "other")
	mustStrata(t, dir, 0, "workspace", "select", "-no-color", "default")
	mustStrata(t, dir, 0, "workspace", "delete", "-force", "-no-color", "staging")
	if r := mustStrata(t, dir, 0, "workspace", "list"); r.stdout != "* default\n  other\n\n" {
		t.Fatalf("list after delete: %q", r.stdout)
	}
	// Terraform sees the same workspaces.
	if tf, err := referenceTerraform(); err == nil {
		runIn(t, dir, "", tf, "init", "-no-color")
		if r := runIn(t, dir, "", tf, "workspace", "list"); r.stdout != "* default\n  other\n\n" {
			t.Fatalf("terraform workspace list: %q", r.stdout)
		}
	}
}

// TestE2EProvidersModuleTree prints the requirement tree with modules,
// nested, byte for byte as terraform providers does (its bars are padded
// with no-break spaces), except that Terraform lists sibling modules in an
// order that changes from run to run and strata sorts them.
func TestE2EProvidersModuleTree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  source = \"./a\"\n}\n")
	if err := os.MkdirAll(filepath.Join(dir, "a", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "a", "main.tf"), "resource \"terraform_data\" \"r\" {}\nmodule \"c\" {\n  source = \"./c\"\n}\n")
	writeFile(t, filepath.Join(dir, "a", "c", "main.tf"), "terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\", version = \"~> 3.0\" }\n  }\n}\n")
	r := mustStrata(t, dir, 0, "providers")
	const bar = "│\u00a0\u00a0 "
	want := "\nProviders required by configuration:\n.\n" +
		"├── module.a\n" +
		bar + "├── provider[terraform.io/builtin/terraform]\n" +
		bar + "└── module.c\n" +
		bar + "    └── provider[registry.terraform.io/hashicorp/null] ~> 3.0\n" +
		"└── module.b\n" +
		"    ├── provider[terraform.io/builtin/terraform]\n" +
		"    └── module.c\n" +
		"        └── provider[registry.terraform.io/hashicorp/null] ~> 3.0\n\n"
	if r.stdout != want {
		t.Fatalf("providers:\n%s\nwant\n%s", r.stdout, want)
	}
}

// TestE2EProvidersConstraints: the version constraints in the tree are in
// Terraform's normalized form (three-part versions, "~>" keeping its
// precision, no "=", sorted, without duplicates); compared with
// terraform providers when installed, line by line, as Terraform lists a
// module's providers in an order that changes from run to run.
func TestE2EProvidersConstraints(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    a = { source = "acme/a", version = "1.2" }
    b = { source = "acme/b", version = "= 1.2" }
    c = { source = "acme/c", version = "> 1" }
    e = { source = "acme/e", version = "~> 1" }
    f = { source = "acme/f", version = "~> 1.2.3" }
    g = { source = "acme/g", version = "< 3, >= 1" }
    h = { source = "acme/h", version = ">= 1.0.0-beta1" }
    i = { source = "acme/i", version = ">=1.2,<2" }
    j = { source = "acme/j", version = "~> 1.0, ~> 1.0" }
  }
}
`)
	r := runInProcess(t, dir, nil, "", "providers")
	want := "\nProviders required by configuration:\n.\n" +
		"├── provider[registry.terraform.io/acme/a] 1.2.0\n" +
		"├── provider[registry.terraform.io/acme/b] 1.2.0\n" +
		"├── provider[registry.terraform.io/acme/c] > 1.0.0\n" +
		"├── provider[registry.terraform.io/acme/e] ~> 1.0\n" +
		"├── provider[registry.terraform.io/acme/f] ~> 1.2.3\n" +
		"├── provider[registry.terraform.io/acme/g] >= 1.0.0, < 3.0.0\n" +
		"├── provider[registry.terraform.io/acme/h] >= 1.0.0-beta1\n" +
		"├── provider[registry.terraform.io/acme/i] >= 1.2.0, < 2.0.0\n" +
		"└── provider[registry.terraform.io/acme/j] ~> 1.0\n\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("providers: exit %d\n%s\nwant\n%s\nstderr:\n%s", r.code, r.stdout, want, r.stderr)
	}
	if tf, err := referenceTerraform(); err == nil {
		tr := runIn(t, dir, "", tf, "providers")
		lines := func(s string) []string {
			l := strings.Split(strings.NewReplacer("└── ", "", "├── ", "").Replace(s), "\n")
			sort.Strings(l)
			return l
		}
		if diff := cmp.Diff(lines(tr.stdout), lines(r.stdout)); tr.code != 0 || diff != "" {
			t.Errorf("differs from terraform providers (exit %d), -terraform +strata:\n%s", tr.code, diff)
		}
	}
}

package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2ENoColorEverywhere: every command takes -no-color, as in
// Terraform, including those whose help does not list it; tools such as
// terraform-exec pass it to all of them.
func TestE2ENoColorEverywhere(t *testing.T) {
	t.Parallel()
	commands := [][]string{
		{"version"}, {"version", "-json"},
		{"workspace", "list"}, {"workspace", "show"},
		{"workspace", "new", "w"}, {"workspace", "select", "default"}, {"workspace", "delete", "w"},
		{"console"},
		{"providers"}, {"providers", "schema", "-json"},
		{"state", "list"}, {"output"}, {"fmt"}, {"validate"}, {"graph"}, {"modules"}, {"get"},
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
	for _, args := range commands {
		args := append(args, "-no-color")
		r := runIn(t, dir, "", strataBin, args...)
		if strings.Contains(r.stderr, "unknown flag") || strings.Contains(r.stderr, "flag provided but not defined") {
			t.Errorf("strata %s: %s", strings.Join(args, " "), r.stderr)
		}
		if strings.Contains(r.stdout+r.stderr, "\x1b[") {
			t.Errorf("strata %s printed color codes:\n%s%s", strings.Join(args, " "), r.stdout, r.stderr)
		}
	}
}

// TestE2EWorkspacesWithoutConfiguration: the workspace commands work in a
// directory with no configuration files, on the default local backend,
// as Terraform's do (workspace list shows terraform.tfstate.d's
// workspaces).
func TestE2EWorkspacesWithoutConfiguration(t *testing.T) {
	t.Parallel()
	steps := [][]string{
		{"workspace", "list"},
		{"workspace", "new", "bar"},
		{"workspace", "list"},
		{"workspace", "show"},
		{"workspace", "select", "default"},
		{"workspace", "delete", "bar"},
		{"workspace", "list"},
	}
	run := func(bin string) []string {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "terraform.tfstate.d", "foo"), 0o755); err != nil {
			t.Fatal(err)
		}
		var outs []string
		for _, args := range steps {
			r := runIn(t, dir, "", bin, append(args, "-no-color")...)
			outs = append(outs, strings.Join(args, " ")+": exit "+string(rune('0'+r.code))+"\n"+strings.ReplaceAll(r.stdout, "terraform", "strata"))
		}
		return outs
	}
	got := run(strataBin)
	want := []string{
		"workspace list: exit 0\n* default\n  foo\n\n",
	}
	if got[0] != want[0] {
		t.Errorf("first workspace list:\n%s\nwant:\n%s", got[0], want[0])
	}
	if tf, err := referenceTerraform(); err == nil {
		tfOut := run(tf)
		for i := range steps {
			if strings.ReplaceAll(tfOut[i], "Terraform", "strata") != got[i] {
				t.Errorf("step %d differs from terraform:\nstrata:\n%s\nterraform:\n%s", i, got[i], tfOut[i])
			}
		}
	}
}

// TestE2EWorkspaceNewState: workspace new -state=FILE starts the new
// workspace with that state, under a lineage of its own and the same
// serial, as Terraform does.
func TestE2EWorkspaceNewState(t *testing.T) {
	t.Parallel()
	type summary struct {
		Serial      int
		SameLineage bool
		List        string
	}
	run := func(bin string) summary {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		if err := os.Rename(filepath.Join(dir, "terraform.tfstate"), filepath.Join(dir, "src.tfstate")); err != nil {
			t.Fatal(err)
		}
		if r := runIn(t, dir, "", bin, "workspace", "new", "-state=src.tfstate", "dev"); r.code != 0 {
			t.Fatalf("%s workspace new -state: %s", bin, r.stderr)
		}
		read := func(p string) (doc struct {
			Serial  int    `json:"serial"`
			Lineage string `json:"lineage"`
		}) {
			data, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			return doc
		}
		src, dst := read("src.tfstate"), read(filepath.Join("terraform.tfstate.d", "dev", "terraform.tfstate"))
		list := runIn(t, dir, "", bin, "state", "list").stdout
		return summary{Serial: dst.Serial - src.Serial, SameLineage: src.Lineage == dst.Lineage, List: list}
	}
	got := run(strataBin)
	if want := (summary{List: "terraform_data.a\n"}); got != want {
		t.Errorf("workspace new -state: %+v, want %+v", got, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		if want := run(tf); got != want {
			t.Errorf("strata %+v, terraform %+v", got, want)
		}
	}
}

// TestE2EGraphPlanAndFlags: graph -plan=FILE renders the apply graph of a
// saved plan, with a step per deletion; -draw-cycles is accepted, as are
// refresh -compact-warnings.
func TestE2EGraphPlanAndFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"o\" {\n  triggers_replace = \"1\"\n}\nresource \"terraform_data\" \"a\" {\n  triggers_replace = terraform_data.o.id\n}\n")
	mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"o\" {\n  triggers_replace = \"2\"\n}\nresource \"terraform_data\" \"a\" {\n  triggers_replace = terraform_data.o.id\n}\n")
	mustInProcess(t, dir, 0, "plan", "-out=p.plan", "-no-color")
	r := mustInProcess(t, dir, 0, "graph", "-plan=p.plan")
	for _, want := range []string{`"[root] terraform_data.o (destroy)"`, `"[root] terraform_data.a (destroy)"`, `"[root] terraform_data.o"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("graph -plan lacks %s:\n%s", want, r.stdout)
		}
	}
	if r := runInProcess(t, dir, nil, "", "graph", "-plan=p.plan", "-type=plan"); r.code != 1 {
		t.Errorf("graph -plan with -type=plan: exit %d", r.code)
	}
	if r := runInProcess(t, dir, nil, "", "graph", "-plan=missing.plan"); r.code != 1 {
		t.Errorf("graph -plan of a missing file: exit %d", r.code)
	}
	mustInProcess(t, dir, 0, "graph", "-draw-cycles")
	mustInProcess(t, dir, 0, "refresh", "-compact-warnings", "-no-color")
}

// TestE2EConsolePlan: console -plan evaluates against the planned values
// (a pending change shows its new value, a value only the apply can tell
// is unknown), without the plan's progress lines, as terraform console
// -plan does; compared with terraform when installed.
func TestE2EConsolePlan(t *testing.T) {
	t.Parallel()
	exprs := []string{"terraform_data.o.triggers_replace", "terraform_data.a.triggers_replace", "terraform_data.o.input"}
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"o\" {\n  triggers_replace = \"1\"\n}\nresource \"terraform_data\" \"a\" {\n  triggers_replace = terraform_data.o.id\n}\n")
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"o\" {\n  triggers_replace = \"2\"\n}\nresource \"terraform_data\" \"a\" {\n  triggers_replace = terraform_data.o.id\n}\n")
		var outs []string
		for _, e := range exprs {
			r := runIn(t, dir, e+"\n", bin, "console", "-plan")
			outs = append(outs, r.stdout)
		}
		return outs
	}
	got := run(strataBin)
	want := []string{"\"2\"\n", "(known after apply)\n", "null\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("console -plan (-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}

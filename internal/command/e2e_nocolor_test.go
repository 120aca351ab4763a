package command

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ENoColorEverywhere: every command takes -no-color, as in
// Terraform, including those whose help does not list it; tools such as
// terraform-exec pass it to all of them.
func TestE2ENoColorEverywhere(t *testing.T) {
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
	if tf, err := exec.LookPath("terraform"); err == nil {
		tfOut := run(tf)
		for i := range steps {
			if strings.ReplaceAll(tfOut[i], "Terraform", "strata") != got[i] {
				t.Errorf("step %d differs from terraform:\nstrata:\n%s\nterraform:\n%s", i, got[i], tfOut[i])
			}
		}
	}
}

package command

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2ELocalBackendEmptyPathsMatchTerraform: the local backend refuses
// an empty path or workspace_dir, set in the block, by a -backend-config
// file or on the command line, and its diagnostic points where the value
// was given, as Terraform's does (terraform-plugin-testing's
// TestTerraformBackend_local_empty_path_validation_error expects the
// message); a null path is as if unset.
func TestE2ELocalBackendEmptyPathsMatchTerraform(t *testing.T) {
	t.Parallel()
	block := func(body string) string {
		return "terraform {\n  backend \"local\" {\n" + body + "  }\n}\n"
	}
	for _, tc := range []struct {
		name  string
		main  string
		file  string // backend.hcl, when set
		args  []string
		fails bool
	}{
		{name: "path in the block", main: block("    path = \"\"\n"), fails: true},
		{name: "workspace_dir in the block", main: block("    workspace_dir = \"\"\n"), fails: true},
		{name: "both in the block", main: block("    path = \"\"\n    workspace_dir = \"\"\n"), fails: true},
		{name: "on the command line", main: block("    path = \"x.tfstate\"\n"), args: []string{"-backend-config=path="}, fails: true},
		{name: "on the command line, not in the block", main: block(""), args: []string{"-backend-config=path="}, fails: true},
		{name: "in a file, over the block's", main: block("    path = \"x.tfstate\"\n"), file: "path = \"\"\n", args: []string{"-backend-config=backend.hcl"}, fails: true},
		{name: "in a file", main: block(""), file: "path = \"\"\n", args: []string{"-backend-config=backend.hcl"}, fails: true},
		{name: "null", main: block("    path = null\n")},
		{name: "set", main: block("    path = \"x.tfstate\"\n    workspace_dir = \"ws\"\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"main.tf": tc.main}
			if tc.file != "" {
				files["backend.hcl"] = tc.file
			}
			sdir, tdir := twinDirs(t, files)
			for _, mode := range []string{"-no-color", "-json"} {
				args := append([]string{"init", mode}, tc.args...)
				r := strataEnv(t, sdir, nil, args...)
				if (r.code != 0) != tc.fails {
					t.Fatalf("strata %s: exit %d, want failure %v\n%s%s", mode, r.code, tc.fails, r.stdout, r.stderr)
				}
				got := r.stdout + r.stderr
				if mode == "-json" {
					got = jsonDiagnosticsOf(t, got)
				} else {
					got = fromFirstError(got)
				}
				if tc.fails && !strings.Contains(got, "must not be empty") {
					t.Errorf("strata %s does not say the value must not be empty:\n%s", mode, got)
				}
				for _, d := range []string{sdir, tdir} {
					os.RemoveAll(filepath.Join(d, ".terraform"))
				}
				tr, ok := terraformEnv(t, tdir, nil, args...)
				if !ok {
					continue
				}
				want := tr.stdout
				if mode == "-json" {
					want = jsonDiagnosticsOf(t, want)
				} else {
					want = fromFirstError(want)
				}
				if tr.code != r.code || paragraphs(got) != paragraphs(want) {
					t.Errorf("%s: strata exits %d, terraform %d\nstrata:\n%s\nterraform:\n%s", mode, r.code, tr.code, got, want)
				}
			}
		})
	}
}

// fromFirstError is human output from its first error on: what follows
// the progress lines.
func fromFirstError(s string) string {
	if i := strings.Index(s, "Error: "); i >= 0 {
		return s[i:]
	}
	return ""
}

// jsonDiagnosticsOf is the diagnostic objects of -json output, one a
// line.
func jsonDiagnosticsOf(t *testing.T, out string) string {
	t.Helper()
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		var msg struct {
			Diagnostic json.RawMessage `json:"diagnostic"`
		}
		if json.Unmarshal([]byte(line), &msg) != nil || msg.Diagnostic == nil {
			continue
		}
		b.Write(msg.Diagnostic)
		b.WriteString("\n")
	}
	return b.String()
}

// TestE2ERemoteStateLocalEmptyPathMatchesTerraform: terraform_remote_state
// reports the local backend's refusal of an empty path as Terraform
// does, with the backend's own summary, not as a state it failed to read.
func TestE2ERemoteStateLocalEmptyPathMatchesTerraform(t *testing.T) {
	t.Parallel()
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": `data "terraform_remote_state" "x" {
  backend = "local"
  config  = { path = "" }
}
`})
	strataEnv(t, sdir, nil, "init")
	r := strataEnv(t, sdir, nil, "plan", "-json")
	got := jsonDiagnosticsOf(t, r.stdout)
	if r.code != 1 || !strings.Contains(got, `"summary":"Invalid local state file path"`) {
		t.Fatalf("strata plan exits %d with:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, ok := terraformEnv(t, tdir, nil, "init"); !ok {
		return
	}
	tr, _ := terraformEnv(t, tdir, nil, "plan", "-json")
	if want := jsonDiagnosticsOf(t, tr.stdout); tr.code != r.code || got != want {
		t.Errorf("strata exits %d, terraform %d\nstrata:\n%s\nterraform:\n%s", r.code, tr.code, got, want)
	}
}

package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const driftConfig = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

# a's description and labels may change outside; b and c use them.
resource "stratafw_thing" "a" {
  name        = "a"
  description = "orig"
  labels      = { env = "dev", team = "x" }
  lifecycle {
    ignore_changes = [description, labels]
  }
}
resource "stratafw_thing" "b" {
  name        = "b"
  description = stratafw_thing.a.description
}
resource "stratafw_thing" "c" {
  name        = "c"
  description = stratafw_thing.a.labels["env"]
}

# Nothing refers to d.
resource "stratafw_thing" "d" {
  name        = "d"
  description = "orig"
  lifecycle {
    ignore_changes = [description]
  }
}

# g refers to f's id; nothing refers to h.
resource "stratafw_thing" "f" {
  name = "f"
}
resource "stratafw_thing" "g" {
  name        = "g"
  description = stratafw_thing.f.id
}
resource "stratafw_thing" "h" {
  name = "h"
}
`

// TestE2EDriftMatchesTerraform changes objects behind both tools' backs
// (the stratafw provider's STRATAFW_DRIFT_DIR) and checks that strata's
// plan shows the same "Objects have changed outside" note as Terraform's,
// word for word: in a normal plan only the drift in attributes the
// planned changes depend on, and only when there are changes; all of it
// in a refresh-only plan; none with -refresh=false. Exit codes of
// -detailed-exitcode and the -json stream's resource_drift messages must
// match too.
func TestE2EDriftMatchesTerraform(t *testing.T) {
	t.Parallel() // its own directories
	tf := terraformBin(t)
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), driftConfig)
	cliConfig := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	run := func(bin, driftDir string, args ...string) result {
		t.Helper()
		return runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "TF_IN_AUTOMATION=", "STRATAFW_DRIFT_DIR=" + driftDir}, args...)
	}
	if r := run(tf, "", "init", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("terraform init: %s%s", r.stdout, r.stderr)
	}
	if r := run(tf, "", "apply", "-auto-approve", "-no-color", "-input=false"); r.code != 0 {
		t.Fatalf("terraform apply: %s%s", r.stdout, r.stderr)
	}
	// Terraform wrote the state with the umask's mode, readable by all;
	// strata would warn about the sensitive values in it (a difference of
	// its own, tested in TestE2EStateReadableWarning). Give the state the
	// mode strata writes so that the plans compare as they are.
	if err := os.Chmod(filepath.Join(dir, "terraform.tfstate"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Each scenario's drift: a file per changed object, named by its id.
	relevant := map[string]string{"fw-a.json": `{"description": "changed", "size": 5, "labels": {"env": "prod", "team": "y"}}`}
	tests := []struct {
		name  string
		drift map[string]string
		args  []string
		// note is whether the plan shows changes made outside; shown and
		// hidden list what it must and must not show of them.
		note          bool
		shown, hidden []string
		code          int
	}{
		{
			name: "relevant", drift: relevant, note: true, code: 2,
			shown:  []string{`~ description  = "orig" -> "changed"`, `~ "env"  = "dev" -> "prod"`},
			hidden: []string{`~ size         = 1 -> 5`, `"team"`},
		},
		{name: "irrelevant, no changes", drift: map[string]string{"fw-d.json": `{"description": "changed"}`}, code: 0},
		{name: "irrelevant, with changes", drift: map[string]string{"fw-d.json": `{"description": "changed"}`, "fw-h.json": `null`}, code: 2},
		{
			name: "deleted", drift: map[string]string{"fw-f.json": `null`, "fw-h.json": `null`}, note: true, code: 2,
			shown: []string{"# stratafw_thing.f has been deleted"}, hidden: []string{"stratafw_thing.h has been deleted"},
		},
		{name: "refresh=false", drift: relevant, args: []string{"-refresh=false"}, code: 0},
		{
			name: "refresh-only", drift: map[string]string{"fw-a.json": relevant["fw-a.json"], "fw-d.json": `{"description": "changed"}`, "fw-h.json": `null`},
			args: []string{"-refresh-only"}, note: true, code: 2,
			shown: []string{`~ size         = 1 -> 5`, "stratafw_thing.d has changed", "stratafw_thing.h has been deleted"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			driftDir := t.TempDir()
			for name, content := range tc.drift {
				writeFile(t, filepath.Join(driftDir, name), content)
			}
			args := append([]string{"plan", "-no-color", "-input=false", "-detailed-exitcode"}, tc.args...)
			want := run(tf, driftDir, args...)
			got := run(strataBin, driftDir, args...)
			if got.code != tc.code || want.code != tc.code {
				t.Fatalf("exit code %d, terraform %d, want %d\n%s%s", got.code, want.code, tc.code, got.stdout, got.stderr)
			}
			w := normalize(strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply").Replace(want.stdout))
			g := normalize(got.stdout)
			if g != w {
				t.Errorf("plan differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", w, g)
			}
			if has := strings.Contains(g, "Objects have changed outside of strata"); has != tc.note {
				t.Errorf("drift note shown: %v, want %v\n%s", has, tc.note, g)
			}
			for _, s := range tc.shown {
				if !strings.Contains(g, s) {
					t.Errorf("%q not shown:\n%s", s, g)
				}
			}
			note, _, _ := strings.Cut(g, "─────")
			for _, s := range tc.hidden {
				if strings.Contains(note, s) {
					t.Errorf("%q shown as drift:\n%s", s, g)
				}
			}
			// The -json stream reports every drift, relevant or not.
			jargs := append([]string{"plan", "-json", "-input=false"}, tc.args...)
			wj, gj := driftMessages(t, run(tf, driftDir, jargs...).stdout), driftMessages(t, run(strataBin, driftDir, jargs...).stdout)
			if strings.Join(gj, "\n") != strings.Join(wj, "\n") {
				t.Errorf("resource_drift messages differ:\n--- terraform\n%s\n--- strata\n%s", strings.Join(wj, "\n"), strings.Join(gj, "\n"))
			}
			if len(tc.drift) > 0 && !contains(tc.args, "-refresh=false") && len(gj) == 0 {
				t.Errorf("no resource_drift message")
			}
		})
	}
}

// driftMessages returns the resource_drift messages of a -json stream,
// without timestamps, sorted: Terraform emits them in no fixed order.
func driftMessages(t *testing.T, stream string) []string {
	t.Helper()
	var ret []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad JSON line %q: %v", line, err)
		}
		if m["type"] != "resource_drift" {
			continue
		}
		delete(m, "@timestamp")
		b, _ := json.Marshal(m) // sorted keys
		ret = append(ret, string(b))
	}
	sort.Strings(ret)
	return ret
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

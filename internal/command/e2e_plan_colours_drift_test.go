package command

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// colourDriftStep1 and colourDriftStep2 are a configuration and its
// change whose plan has every "# forces replacement" note (a primitive,
// a heredoc, a jsonencode document, set block elements), the
// "# whitespace changes" notes (with and without replacement), and,
// with the drift colourDriftFiles simulates, the changes made outside
// strata that affect the plan.
const colourDriftStep1 = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
    stratav5 = { source = "strata/stratav5" }
  }
}
resource "terraform_data" "ws" {
  input = jsonencode({ a = 1 })
}
resource "terraform_data" "wsr" {
  triggers_replace = jsonencode({ a = 1 })
}
resource "stratafw_thing" "prim" {
  name        = "n1"
  description = "d"
}
resource "stratafw_thing" "json_ws" {
  name = jsonencode({ a = 1 })
}
resource "stratafw_thing" "json" {
  name = jsonencode({ a = 1, b = [1, 2] })
}
resource "stratafw_thing" "heredoc" {
  name = "line1\nline2\n"
}
resource "stratav5_thing" "set" {
  name = "v5"
  set {
    s = "a"
  }
}
resource "stratafw_thing" "dr" {
  name        = "dr"
  description = "orig"
  labels      = { env = "dev", team = "x" }
  lifecycle {
    ignore_changes = [description, labels]
  }
}
resource "stratafw_thing" "user" {
  name        = "user"
  description = stratafw_thing.dr.description
}
resource "stratafw_thing" "gone" {
  name = "gone"
}
`

var colourDriftStep2 = strings.NewReplacer(
	`input = jsonencode({ a = 1 })`, `input = "{\"a\":  1}"`,
	`triggers_replace = jsonencode({ a = 1 })`, `triggers_replace = "{ \"a\": 1 }"`,
	`name        = "n1"`, `name        = "n2"`,
	`name = jsonencode({ a = 1 })`, `name = "{\"a\":  1}"`,
	`a = 1, b = [1, 2]`, `a = 2, b = [1, 2]`,
	`line2`, `line3`,
	`s = "a"`, `s = "b"`,
).Replace(colourDriftStep1)

var colourDriftFiles = map[string]string{
	"fw-dr.json":   `{"description": "changed", "size": 5, "labels": {"env": "prod", "team": "y"}}`,
	"fw-gone.json": `null`,
}

// TestE2EPlanColoursDriftMatchTerraform: the colours of the notes
// TestE2EPlanColoursMatchTerraform does not reach are Terraform's byte
// for byte: "# forces replacement" (a reset after its own),
// "# whitespace changes" (not coloured), and the changes made outside
// strata (the heading's reset after its newline, the dark gray rule
// that ends them, in a normal plan and in a refresh-only plan with
// output changes, and no reset after a refresh-only plan without).
func TestE2EPlanColoursDriftMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	fw, v5 := testProviderMirror(t), testProviderMirrorV5(t)
	type step struct {
		name string
		args []string
		// output adds an output to the configuration first.
		output bool
	}
	steps := []step{
		{name: "plan", args: []string{"plan"}},
		{name: "refresh-only", args: []string{"plan", "-refresh-only"}},
		{name: "refresh-only with outputs", args: []string{"plan", "-refresh-only"}, output: true},
		{name: "apply refresh-only", args: []string{"apply", "-refresh-only", "-auto-approve"}, output: true},
	}
	outputs := map[string][]string{}
	for _, tool := range []string{strataBin, tf} {
		dir, drift := t.TempDir(), t.TempDir()
		cliConfig := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [\"strata/stratafw\"]\n  }\n  filesystem_mirror {\n    path    = %q\n    include = [\"strata/stratav5\"]\n  }\n}\n", fw, v5))
		run := func(args ...string) result {
			t.Helper()
			return runWith(t, dir, "", tool, []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "STRATAFW_DRIFT_DIR=" + drift}, args...)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), colourDriftStep1)
		for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			if r := run(args...); r.code != 0 {
				t.Fatalf("%s %s: %s%s", tool, args[0], r.stdout, r.stderr)
			}
		}
		writeFile(t, filepath.Join(dir, "main.tf"), colourDriftStep2)
		for name, src := range colourDriftFiles {
			writeFile(t, filepath.Join(drift, name), src)
		}
		names := strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply")
		for _, s := range steps {
			if s.output {
				writeFile(t, filepath.Join(dir, "main.tf"), colourDriftStep2+"output \"o\" { value = stratafw_thing.dr.size }\n")
			}
			r := run(s.args...)
			out := uuidRe.ReplaceAllString(dropStrataNotes(names.Replace(r.stdout)), "<uuid>")
			// Progress lines come in the order the refreshes finish.
			out = normalizeProgress(out)
			outputs[tool] = append(outputs[tool], fmt.Sprintf("exit %d\n%s%s", r.code, out, r.stderr))
		}
	}
	for i, s := range steps {
		if got, want := outputs[strataBin][i], outputs[tf][i]; got != want {
			t.Errorf("%s: differs from Terraform's:\n--- terraform\n%q\n--- strata\n%q", s.name, want, got)
		}
	}
}

// progressEntry is a coloured "Refreshing state..." line; the id of the
// heredoc resource spans lines.
var progressEntry = regexp.MustCompile(`(?s)\x1b\[0m\x1b\[1m[a-z0-9_.]+: Refreshing state\.\.\. \[id=.*?\]\x1b\[0m\n`)

// normalizeProgress puts the progress entries, which come in the order
// the refreshes finish, first and sorted.
func normalizeProgress(s string) string {
	entries := progressEntry.FindAllString(s, -1)
	sort.Strings(entries)
	return strings.Join(entries, "") + progressEntry.ReplaceAllString(s, "")
}

package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var refreshingLine = regexp.MustCompile(`(?m)^\S+: Refreshing state\.\.\. \[id=[^]]*\]\n`)

// TestE2ERefreshOnlyStateChangesMatchTerraform: a refresh-only plan that
// finds no change in any object's attributes is still applyable, as
// Terraform decides, when refreshing changed an object's private data,
// dependencies (a refresh adds the configuration's, and removes none) or
// create_before_destroy flag: plan -detailed-exitcode
// exits 2, plan -out says how to apply it, show -json says applyable
// true, apply -refresh-only asks before writing, and the state records
// the change. Compared with terraform.
func TestE2ERefreshOnlyStateChangesMatchTerraform(t *testing.T) {
	t.Parallel()
	const before = `resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = "y"
}
resource "terraform_data" "c" {
  input = terraform_data.b.output
}
`
	tests := map[string]struct {
		after     string // the configuration refreshed
		private   bool   // private data added to a's state
		applyable bool
	}{
		"nothing changed":  {after: before},
		"dependency added": {after: strings.Replace(before, `input = "y"`, "input = \"y\"\n  depends_on = [terraform_data.a]", 1), applyable: true},
		// A refresh removes no dependency.
		"dependency removed":              {after: strings.Replace(before, "input = terraform_data.b.output", `input = "z"`, 1)},
		"dependency made explicit":        {after: strings.Replace(before, "input = terraform_data.b.output", "input = terraform_data.b.output\n  depends_on = [terraform_data.b]", 1)},
		"create_before_destroy":           {after: strings.Replace(before, `input = "x"`, "input = \"x\"\n  lifecycle {\n    create_before_destroy = true\n  }", 1), applyable: true},
		"private data dropped by refresh": {after: before, private: true, applyable: true},
	}
	product := regexp.MustCompile(`(?i)terraform|strata`)
	tf, tfErr := referenceTerraform()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run := func(bin string) string {
				dir := t.TempDir()
				writeFile(t, filepath.Join(dir, "main.tf"), before)
				for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
					if r := runWith(t, dir, "", bin, nil, args...); r.code != 0 {
						t.Fatalf("%s %s: exit %d\n%s%s", bin, args[0], r.code, r.stdout, r.stderr)
					}
				}
				statePath := filepath.Join(dir, "terraform.tfstate")
				if tc.private {
					var st map[string]any
					if err := json.Unmarshal(readFile(t, statePath), &st); err != nil {
						t.Fatal(err)
					}
					st["resources"].([]any)[0].(map[string]any)["instances"].([]any)[0].(map[string]any)["private"] = "eyJ4IjoxfQ=="
					data, _ := json.MarshalIndent(st, "", "  ")
					writeFile(t, statePath, string(data)+"\n")
				}
				writeFile(t, filepath.Join(dir, "main.tf"), tc.after)
				var got strings.Builder
				step := func(stdin string, args ...string) {
					r := runWith(t, dir, stdin, bin, []string{"TF_IN_AUTOMATION="}, args...)
					// Without the Refreshing lines, whose order varies.
					out := refreshingLine.ReplaceAllString(r.stdout, "")
					fmt.Fprintf(&got, "## %s: exit %d\n%s\n--- stderr\n%s", strings.Join(args, " "), r.code, out, r.stderr)
				}
				step("", "plan", "-refresh-only", "-detailed-exitcode", "-no-color")
				step("", "plan", "-refresh-only", "-out=p", "-no-color")
				r := runWith(t, dir, "", bin, nil, "show", "-json", "p")
				var doc struct{ Applyable bool }
				if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
					t.Fatalf("%s show -json: %v\n%s%s", bin, err, r.stdout, r.stderr)
				}
				fmt.Fprintf(&got, "## show -json p: applyable %t\n", doc.Applyable)
				step("no\n", "apply", "-refresh-only", "-no-color")
				serial := func() int {
					var st struct{ Serial int }
					if err := json.Unmarshal(readFile(t, statePath), &st); err != nil {
						t.Fatal(err)
					}
					return st.Serial
				}
				was := serial()
				step("", "apply", "-refresh-only", "-auto-approve", "-no-color")
				var st struct {
					Serial    int
					Resources []struct {
						Name      string
						Instances []struct {
							Private             string
							Dependencies        []string
							CreateBeforeDestroy bool `json:"create_before_destroy"`
						}
					}
				}
				if err := json.Unmarshal(readFile(t, statePath), &st); err != nil {
					t.Fatal(err)
				}
				// Terraform's serial counts its writes, strata's its commands.
				fmt.Fprintf(&got, "## state: written %t\n", st.Serial > was)
				for _, rs := range st.Resources {
					i := rs.Instances[0]
					fmt.Fprintf(&got, "%s: private %q, dependencies %q, create_before_destroy %t\n", rs.Name, i.Private, i.Dependencies, i.CreateBeforeDestroy)
				}
				return product.ReplaceAllString(got.String(), "PRODUCT")
			}
			got := run(strataBin)
			if want := fmt.Sprintf("## show -json p: applyable %t\n", tc.applyable); !strings.Contains(got, want) {
				t.Errorf("strata's output lacks %q:\n%s", want, got)
			}
			if tfErr != nil {
				return
			}
			if want := run(tf); unwrap(want) != unwrap(got) {
				t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, got)
			}
		})
	}
}

package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2ERefreshOnlyNumbersMatchTerraform: a refresh-only plan that finds
// no changes is applyable for Terraform when the provider sent a number
// of the object as a msgpack integer or float (the protocol 5 test
// provider's size, 1 or 2), and not when it sent it as text (0.1, which
// no float holds exactly): the note about -out, -detailed-exitcode 2,
// "applyable" in show -json, and apply -refresh-only asking before it
// writes the state. Compared with terraform.
func TestE2ERefreshOnlyNumbersMatchTerraform(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirrorV5(t)
	product := regexp.MustCompile(`(?i)terraform|strata`)
	run := func(bin, size string) string {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		writeFile(t, filepath.Join(dir, "main.tf"), "terraform {\n  required_providers {\n    stratav5 = { source = \"strata/stratav5\" }\n  }\n}\n\nresource \"stratav5_thing\" \"a\" {\n  name = \"one\"\n"+size+"}\n")
		var got strings.Builder
		step := func(stdin string, args ...string) result {
			r := runWith(t, dir, stdin, bin, []string{"TF_CLI_CONFIG_FILE=" + cli, "TF_IN_AUTOMATION="}, args...)
			fmt.Fprintf(&got, "## %s: exit %d\n%s\n--- stderr\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
			return r
		}
		for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color"}} {
			if r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, args...); r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
		}
		step("", "plan", "-refresh-only", "-detailed-exitcode", "-no-color")
		step("", "plan", "-refresh-only", "-out=p", "-no-color")
		r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, "show", "-json", "p")
		var doc struct{ Applyable bool }
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatalf("%s show -json: %v\n%s%s", bin, err, r.stdout, r.stderr)
		}
		fmt.Fprintf(&got, "## show -json p: applyable %t\n", doc.Applyable)
		step("no\n", "apply", "-refresh-only", "-no-color")
		return product.ReplaceAllString(got.String(), "PRODUCT")
	}
	tf, tfErr := referenceTerraform()
	for _, tc := range []struct {
		name, size string
		applyable  bool
	}{
		{"integer the provider chose", "", true},
		{"integer", "  size = 2\n", true},
		{"decimal", "  size = 0.1\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(strataBin, tc.size)
			if want := fmt.Sprintf("## show -json p: applyable %t\n", tc.applyable); !strings.Contains(got, want) {
				t.Errorf("strata's output lacks %q:\n%s", want, got)
			}
			if want := fmt.Sprintf("detailed-exitcode -no-color: exit %d\n", map[bool]int{true: 2, false: 0}[tc.applyable]); !strings.Contains(got, want) {
				t.Errorf("strata's output lacks %q:\n%s", want, got)
			}
			if tfErr != nil {
				return
			}
			if want := run(tf, tc.size); unwrap(want) != unwrap(got) {
				t.Errorf("differs from terraform:\nterraform:\n%s\nstrata:\n%s", want, got)
			}
		})
	}
}

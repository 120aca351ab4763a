package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EPlanValidatesFirstMatchesTerraform: plan, apply and a
// refresh-only plan validate the whole configuration first, as
// Terraform's: an error in a resource that has no instances (count = 0,
// a module called zero times) stops them with validation's error alone,
// exit 1 and no state written. Compared with terraform.
func TestE2EPlanValidatesFirstMatchesTerraform(t *testing.T) {
	t.Parallel()
	const config = `resource "terraform_data" "ok" {}

resource "terraform_data" "none" {
  count = 0
  input = 1 + "a"
}

module "m" {
  source = "./m"
  count  = 0
}
`
	run := func(bin string) string {
		t.Helper()
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{"main.tf": config, "m/main.tf": "resource \"terraform_data\" \"a\" {\n  input = upper(1, 2)\n}\n"})
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		var out strings.Builder
		for _, args := range [][]string{
			{"plan", "-no-color"},
			{"apply", "-auto-approve", "-no-color"},
			{"plan", "-refresh-only", "-no-color"},
		} {
			r := runIn(t, dir, "", bin, args...)
			fmt.Fprintf(&out, "## %s: exit %d\n%s--- stderr\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
			t.Errorf("%s wrote a state", bin)
		}
		return out.String()
	}
	got := run(strataBin)
	if n := strings.Count(got, "Error: Invalid operand"); n != 3 {
		t.Errorf("the count = 0 resource's error shows %d times, want 3:\n%s", n, got)
	}
	if n := strings.Count(got, "Error: Too many function arguments"); n != 3 {
		t.Errorf("the uncalled module's error shows %d times, want 3:\n%s", n, got)
	}
	sameAsTerraform(t, got, run)
}

// TestE2ETestRunValidatesFirstMatchesTerraform: strata test validates each
// run's configuration before planning it, as terraform test does, so a
// resource with count = 0 holding an error fails the run. Compared with
// terraform.
func TestE2ETestRunValidatesFirstMatchesTerraform(t *testing.T) {
	t.Parallel()
	run := func(bin string) string {
		t.Helper()
		dir := t.TempDir()
		writeTree(t, dir, map[string]string{
			"main.tf":      "resource \"terraform_data\" \"ok\" {}\n\nresource \"terraform_data\" \"none\" {\n  count = 0\n  input = 1 + \"a\"\n}\n",
			"a.tftest.hcl": "run \"p\" {\n  command = plan\n}\n",
		})
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		r := runIn(t, dir, "", bin, "test", "-no-color")
		return fmt.Sprintf("exit %d\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
	}
	got := run(strataBin)
	if !strings.HasPrefix(got, "exit 1\n") || !strings.Contains(got, `run "p"... fail`) || !strings.Contains(got, "Error: Invalid operand") {
		t.Errorf("the run did not fail on validation:\n%s", got)
	}
	sameAsTerraform(t, got, run)
}

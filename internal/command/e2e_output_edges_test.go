package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EOutputEdgeCasesMatchTerraform: output with -json and -raw on
// sensitive, null, nested, number, bool and multi-line values, and the
// errors for a missing name (-raw needs one, followed by the pointer to
// the help) or a missing output, print what Terraform prints on the same
// streams with the same exit codes. Error texts are compared as
// paragraphs, since "strata apply" wraps at other words than "terraform
// apply".
func TestE2EOutputEdgeCasesMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	const config = `output "s" { value = "str" }
output "n" { value = 42 }
output "b" { value = true }
output "nul" { value = null }
output "sec" {
  value     = { k = "hidden" }
  sensitive = true
}
output "obj" { value = { a = [1, "x", null], b = { c = true } } }
output "ml" { value = "line1\nline2" }
`
	commands := [][]string{
		{}, {"-json"}, {"-raw", "s"}, {"-raw", "n"}, {"-raw", "b"}, {"-raw", "ml"},
		{"-raw", "nul"}, {"-raw", "sec"}, {"-raw", "obj"}, {"-json", "sec"}, {"-json", "nul"}, {"-json", "obj"},
		{"sec"}, {"nul"}, {"obj"}, {"nope"}, {"-raw", "nope"}, {"-json", "nope"},
		{"-raw"}, {"-raw", "-json", "s"}, {"s", "n"},
	}
	var dirs [2]string
	for i, bin := range []string{tf, strataBin} {
		dirs[i] = t.TempDir()
		writeFile(t, filepath.Join(dirs[i], "main.tf"), config)
		if r := runIn(t, dirs[i], "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s%s", filepath.Base(bin), r.stdout, r.stderr)
		}
	}
	for _, args := range commands {
		args = append([]string{"output", "-no-color"}, args...)
		want := runIn(t, dirs[0], "", tf, args...)
		got := runIn(t, dirs[1], "", strataBin, args...)
		cmd := strings.Join(args, " ")
		if got.code != want.code {
			t.Errorf("%s: exit code %d, terraform's %d", cmd, got.code, want.code)
		}
		if got.stdout != want.stdout {
			t.Errorf("%s: stdout differs\n--- terraform\n%q\n--- strata\n%q", cmd, want.stdout, got.stdout)
		}
		if g, w := paragraphs(got.stderr), paragraphs(strings.ReplaceAll(want.stderr, "terraform ", "strata ")); g != w {
			t.Errorf("%s: stderr differs\n--- terraform\n%s\n--- strata\n%s", cmd, w, g)
		}
	}
}

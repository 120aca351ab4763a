package command

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EForcesReplacementOnce: an attribute that forces replacement and
// goes from known to unknown is marked "# forces replacement" once, on
// the same lines as Terraform marks it.
func TestE2EForcesReplacementOnce(t *testing.T) {
	t.Parallel()
	const config = `variable "v" {
  default = "1"
}
resource "terraform_data" "a" {
  triggers_replace = var.v
}
resource "terraform_data" "b" {
  triggers_replace = terraform_data.a.id
  input            = { x = terraform_data.a.id, y = "k" }
}
`
	marked := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if r := runIn(t, dir, "", bin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s", bin, r.stderr)
		}
		r := runIn(t, dir, "", bin, "plan", "-no-color", "-var", "v=2")
		if r.code != 0 {
			t.Fatalf("%s plan: %s", bin, r.stderr)
		}
		var lines []string
		for _, l := range strings.Split(uuidRe.ReplaceAllString(r.stdout, "<uuid>"), "\n") {
			if strings.Contains(l, "# forces replacement") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	got := marked(strataBin)
	want := []string{
		`      ~ triggers_replace = "<uuid>" -> (known after apply) # forces replacement`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("marked lines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tf, err := referenceTerraform(); err == nil {
		if tfLines := marked(tf); strings.Join(tfLines, "\n") != strings.Join(got, "\n") {
			t.Errorf("terraform marks:\n%s\nstrata:\n%s", strings.Join(tfLines, "\n"), strings.Join(got, "\n"))
		}
	}
}

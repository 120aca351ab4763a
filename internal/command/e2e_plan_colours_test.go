package command

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestE2EPlanColoursMatchTerraform: a plan in colour shows the same
// colours on the same text as Terraform's: action symbols, arrows (none
// before "(known after apply)"), hidden-attribute notes, a plain
// "Changes to Outputs:", the dark gray rule. Byte for byte: Terraform
// writes more resets than it needs (after each symbol, at line starts),
// and tools that compare coloured output see them, so strata writes them
// too. The same holds for the plan saved with -out and shown by show.
func TestE2EPlanColoursMatchTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	const step1 = `variable "n" { default = 2 }
resource "terraform_data" "a" {
  count = var.n
  input = { name = "a${count.index}", tags = ["x", "y"], nested = { deep = true }, keep = "same" }
}
resource "terraform_data" "b" {
  input            = "one"
  triggers_replace = [1]
}
resource "terraform_data" "c" {
  input = "one"
}
resource "terraform_data" "gone" {
  input = "x"
}
output "o" { value = terraform_data.c.output }
`
	step2 := strings.NewReplacer(`default = 2`, `default = 1`, `[1]`, `[2]`, `"one"`, `"two"`, `deep = true`, `deep = false`,
		"resource \"terraform_data\" \"gone\" {\n  input = \"x\"\n}\n", "").Replace(step1)
	plans, exact, shown := map[string]string{}, map[string]string{}, map[string]string{}
	for _, tool := range []string{strataBin, tf} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), step1)
		if r := runIn(t, dir, "", tool, "apply", "-auto-approve", "-no-color"); r.code != 0 {
			t.Fatalf("%s apply: %s%s", tool, r.stdout, r.stderr)
		}
		writeFile(t, filepath.Join(dir, "main.tf"), step2)
		r := runIn(t, dir, "", tool, "plan", "-refresh=false")
		if r.code != 0 {
			t.Fatalf("%s plan: %s%s", tool, r.stdout, r.stderr)
		}
		names := strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply")
		plans[tool] = visibleColours(dropStrataNotes(names.Replace(r.stdout)))
		exact[tool] = uuidRe.ReplaceAllString(dropStrataNotes(names.Replace(r.stdout)), "<uuid>")
		if r := runIn(t, dir, "", tool, "plan", "-refresh=false", "-out=saved.tfplan"); r.code != 0 {
			t.Fatalf("%s plan -out: %s%s", tool, r.stdout, r.stderr)
		}
		r = runIn(t, dir, "", tool, "show", "saved.tfplan")
		if r.code != 0 {
			t.Fatalf("%s show: %s%s", tool, r.stdout, r.stderr)
		}
		shown[tool] = uuidRe.ReplaceAllString(dropStrataNotes(names.Replace(r.stdout)), "<uuid>")
	}
	if got, want := plans[strataBin], plans[tf]; got != want {
		t.Errorf("plan colours differ from Terraform's:\n--- terraform\n%q\n--- strata\n%q", want, got)
	}
	if got, want := exact[strataBin], exact[tf]; got != want {
		t.Errorf("plan bytes differ from Terraform's:\n--- terraform\n%q\n--- strata\n%q", want, got)
	}
	if got, want := shown[strataBin], shown[tf]; got != want {
		t.Errorf("show of the saved plan differs from Terraform's:\n--- terraform\n%q\n--- strata\n%q", want, got)
	}
}

var (
	resetRun   = regexp.MustCompile(`(\x1b\[0m)+`)
	lineResets = regexp.MustCompile(`(?m)^\x1b\[0m|\x1b\[0m$`)
)

// visibleColours is coloured output without what a terminal does not
// show: repeated resets and resets at the start or end of a line; ids are
// replaced as normalize does.
func visibleColours(s string) string {
	s = resetRun.ReplaceAllString(s, "\x1b[0m")
	s = lineResets.ReplaceAllString(s, "")
	return uuidRe.ReplaceAllString(s, "<uuid>")
}

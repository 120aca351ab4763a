package command

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EJSONSavedPlanStreamMatchesTerraform: the -json streams of
// `plan -out` and of applying the saved plan have Terraform's messages
// in Terraform's order (types and messages; timestamps, object ids and
// the version line left out, and strata's own resource_outcome
// messages): no log line about the saved file, and planned_change
// messages before the apply's.
func TestE2EJSONSavedPlanStreamMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed")
	}
	// A chain, so that the order of the apply messages is fixed.
	src := map[string]string{"main.tf": `resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
output "o" {
  value     = terraform_data.b.output
  sensitive = true
}
`}
	stream := func(out string) []string {
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("not JSON: %q", line)
			}
			typ, _ := m["type"].(string)
			if typ == "version" || typ == "resource_outcome" {
				continue
			}
			msg, _ := m["@message"].(string)
			if i := strings.Index(msg, " [id="); i >= 0 {
				msg = msg[:i]
			}
			got = append(got, typ+": "+msg)
		}
		return got
	}
	runs := map[string][][]string{}
	for _, bin := range []string{tf, strataBin} {
		dir := writeFiles(t, src)
		for _, args := range [][]string{{"plan", "-json", "-out=p.tfplan"}, {"apply", "-json", "p.tfplan"}} {
			r := runIn(t, dir, "", bin, args...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			runs[bin] = append(runs[bin], stream(r.stdout))
		}
	}
	for i, name := range []string{"plan -out", "apply FILE"} {
		if diff := cmp.Diff(runs[tf][i], runs[strataBin][i]); diff != "" {
			t.Errorf("%s: stream differs (-terraform +strata):\n%s", name, diff)
		}
	}
}

package command

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestE2EDestroySummaryMatchesTerraform: only the destroy command ends
// with "Destroy complete!"; apply -destroy and applying a saved destroy
// plan end as any apply does ("Apply complete! ... N destroyed", then the
// outputs), in the human output and in the -json stream, as in Terraform.
func TestE2EDestroySummaryMatchesTerraform(t *testing.T) {
	t.Parallel()
	const config = "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\noutput \"o\" {\n  value = \"v\"\n}\n"
	run := func(bin string) []string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		var got []string
		step := func(want int, args ...string) result {
			r := runIn(t, dir, "", bin, args...)
			if r.code != want {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r
		}
		summary := func(what string, r result) {
			for _, line := range strings.Split(r.stdout, "\n") {
				if !strings.HasPrefix(line, "{") && (strings.Contains(line, " complete! Resources:") || strings.HasPrefix(line, "Outputs:")) {
					got = append(got, what+": "+strings.TrimSpace(line))
				}
				var msg struct {
					Type    string         `json:"type"`
					Message string         `json:"@message"`
					Changes map[string]any `json:"changes"`
				}
				if json.Unmarshal([]byte(line), &msg) == nil && (msg.Type == "change_summary" || msg.Type == "outputs") {
					got = append(got, what+" -json: "+msg.Message+" "+jsonString(msg.Changes))
				}
			}
		}
		for _, json := range []bool{false, true} {
			flag := "-no-color"
			if json {
				flag = "-json"
			}
			step(0, "apply", "-auto-approve", "-no-color")
			summary("apply -destroy", step(0, "apply", "-destroy", "-auto-approve", flag))
			step(0, "apply", "-auto-approve", "-no-color")
			step(0, "plan", "-destroy", "-no-color", "-out=destroy.tfplan")
			summary("saved destroy plan", step(0, "apply", flag, "destroy.tfplan"))
			step(0, "apply", "-auto-approve", "-no-color")
			summary("destroy", step(0, "destroy", "-auto-approve", flag))
		}
		return got
	}
	got := run(strataBin)
	for _, want := range []string{
		"apply -destroy: Apply complete! Resources: 0 added, 0 changed, 1 destroyed.",
		"saved destroy plan: Apply complete! Resources: 0 added, 0 changed, 1 destroyed.",
		"destroy: Destroy complete! Resources: 1 destroyed.",
	} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("missing %q in:\n%s", want, strings.Join(got, "\n"))
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("summaries differ from terraform (-terraform +strata):\n%s", diff)
	}
}

package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// destroyOutputsBefore is the configuration TestE2EDestroyOutputsMatchTerraform
// applies; destroyOutputsAfter the one it then destroys with: an output
// whose expression changed, outputs added (sensitive and not, known,
// unknown, null), outputs removed (sensitive and not), an output that
// became null, one that became sensitive, one that became unknown.
const (
	destroyOutputsBefore = `resource "terraform_data" "a" {
  input = "x"
}
output "changed" {
  value = "old"
}
output "same" {
  value = terraform_data.a.output
}
output "dep" {
  value = "${terraform_data.a.output}-1"
}
output "removed" {
  value = "r"
}
output "removed_s" {
  value     = "rs"
  sensitive = true
}
output "becomes_null" {
  value = "bn"
}
output "becomes_sens" {
  value = "bs"
}
output "goes_unknown" {
  value = ["was"]
}
`
	destroyOutputsAfter = `resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = "y"
}
output "changed" {
  value = "new"
}
output "same" {
  value = terraform_data.a.output
}
output "dep" {
  value = "${terraform_data.a.output}-2"
}
output "added" {
  value = "n"
}
output "p" {
  value     = "s"
  sensitive = true
}
output "added_unknown" {
  value = [terraform_data.b.output, "k"]
}
output "added_null" {
  value = null
}
output "becomes_null" {
  value = null
}
output "becomes_sens" {
  value     = "bs"
  sensitive = true
}
output "goes_unknown" {
  value = [terraform_data.b.output]
}
`
)

// TestE2EDestroyOutputsMatchTerraform: the "Changes to Outputs" of a
// destroy plan go from the values the configuration now gives the
// outputs (the normal plan made first evaluated them) to null, outputs
// added since the last apply included, as Terraform's: in the human
// output of plan -destroy, destroy and show PLANFILE, in the -json
// stream's outputs message, and in show -json's output_changes and
// prior_state. -refresh=false shows the recorded values, -target no
// output changes (and applying it keeps the values the normal plan
// evaluated for the targeted outputs, and outputs no longer configured,
// which a targeted normal plan does not remove either), an empty state
// none. Compared with terraform's recorded runs.
func TestE2EDestroyOutputsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	product := strings.NewReplacer("Terraform", "strata")
	run := func(bin string) []string {
		dir := t.TempDir()
		var got []string
		step := func(args ...string) result {
			t.Helper()
			r := runIn(t, dir, "", bin, args...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r
		}
		human := func(args ...string) {
			t.Helper()
			out := step(args...).stdout
			if bin != strataBin {
				out = product.Replace(out)
			}
			// The -target warning's text wraps differently with
			// strata's shorter name.
			out, _, _ = strings.Cut(uuidRe.ReplaceAllString(out, "<uuid>"), "\nWarning: Resource targeting is in effect")
			got = append(got, "$ "+strings.Join(args, " "), out)
		}
		stream := func(args ...string) {
			t.Helper()
			for _, line := range strings.Split(step(args...).stdout, "\n") {
				var msg struct {
					Type    string          `json:"type"`
					Message string          `json:"@message"`
					Outputs json.RawMessage `json:"outputs"`
				}
				if json.Unmarshal([]byte(line), &msg) == nil && (msg.Type == "outputs" || msg.Type == "change_summary") {
					got = append(got, fmt.Sprintf("%s: %s %s", strings.Join(args, " "), msg.Message, canonicalJSON(t, msg.Outputs)))
				}
			}
		}
		showJSON := func(plan string) {
			t.Helper()
			var doc struct {
				OutputChanges  json.RawMessage `json:"output_changes"`
				PlannedValues  json.RawMessage `json:"planned_values"`
				PriorState     json.RawMessage `json:"prior_state"`
				ResourceChange json.RawMessage `json:"resource_changes"`
			}
			if err := json.Unmarshal([]byte(step("show", "-json", plan).stdout), &doc); err != nil {
				t.Fatal(err)
			}
			var prior struct {
				Values struct {
					Outputs json.RawMessage `json:"outputs"`
				} `json:"values"`
			}
			if doc.PriorState != nil {
				if err := json.Unmarshal(doc.PriorState, &prior); err != nil {
					t.Fatal(err)
				}
			}
			got = append(got,
				"show -json "+plan+" output_changes: "+canonicalJSON(t, doc.OutputChanges),
				"show -json "+plan+" planned_values: "+canonicalJSON(t, doc.PlannedValues),
				"show -json "+plan+" prior_state outputs: "+canonicalJSON(t, prior.Values.Outputs))
		}
		stateOutputs := func(what string) {
			t.Helper()
			b, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Outputs json.RawMessage `json:"outputs"`
			}
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			got = append(got, what+" state outputs: "+canonicalJSON(t, s.Outputs))
		}

		writeFile(t, filepath.Join(dir, "main.tf"), destroyOutputsBefore)
		step("apply", "-auto-approve", "-no-color")
		writeFile(t, filepath.Join(dir, "main.tf"), destroyOutputsAfter)
		human("plan", "-destroy", "-no-color")
		stream("plan", "-destroy", "-json")
		step("plan", "-destroy", "-no-color", "-out=destroy.tfplan")
		human("show", "-no-color", "destroy.tfplan")
		showJSON("destroy.tfplan")
		human("plan", "-destroy", "-refresh=false", "-no-color")
		stream("plan", "-destroy", "-refresh=false", "-json")
		step("plan", "-destroy", "-refresh=false", "-no-color", "-out=norefresh.tfplan")
		showJSON("norefresh.tfplan")
		// A targeted normal plan removes no output either.
		human("plan", "-target=terraform_data.a", "-no-color")
		human("plan", "-destroy", "-target=terraform_data.a", "-no-color", "-out=target.tfplan")
		showJSON("target.tfplan")
		step("apply", "-no-color", "target.tfplan")
		stateOutputs("after the targeted destroy")
		human("destroy", "-auto-approve", "-no-color")
		stateOutputs("after destroy")
		human("destroy", "-auto-approve", "-no-color")
		stream("plan", "-destroy", "-json")
		return got
	}
	got := run(strataBin)
	joined := strings.Join(got, "\n")
	for _, want := range []string{
		"  - added        = \"n\" -> null\n",
		"  - changed      = \"new\" -> null\n",
		"  - p            = (sensitive value) -> null\n",
		"  - becomes_sens = (sensitive value) -> null\n",
		"  - removed_s    = (sensitive value) -> null\n",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("strata's plans miss %q:\n%s", want, joined)
		}
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
	}
}

// TestE2EDestroyValidationWarningsMatchTerraform: a destroy (plan
// -destroy, destroy) validates the configuration first, as Terraform does
// before every plan, and shows validation's warnings with the plan's own
// (the -target one), each once: a provider's warning about a resource's
// configuration and a redundant ignore_changes element, whether the
// destroy plans normally first (a state to refresh) or not (an empty
// state, -refresh=false); a required variable without a value stops the
// destroy before validation, with no warnings. Compared with terraform's
// recorded runs: the warnings, where they point, and their order in the human output
// (sorted by place) and the -json stream (compared as a set: Terraform's
// validation walk emits them in an order that varies).
func TestE2EDestroyValidationWarningsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	mirror := testProviderMirrorV5(t)
	const config = `terraform {
  required_providers {
    v5 = { source = "strata/stratav5" }
  }
}
resource "stratav5_thing" "a" {
  provider    = v5
  name        = "one"
  description = "deprecated"
}
variable "v" {
  type = string
}
resource "terraform_data" "d" {
  input = var.v
  lifecycle {
    ignore_changes = [output]
  }
}
`
	run := func(bin string) []string {
		dir := t.TempDir()
		cli := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		var got []string
		step := func(args ...string) {
			t.Helper()
			want := 0
			if args[len(args)-1] == "-input=false" {
				want = 1 // no value for the required variable
			} else if args[0] != "init" {
				args = append(args, "-var=v=x")
			}
			r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cli}, args...)
			if r.code != want {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			var lines, diags []string
			for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
				var msg struct {
					Type       string `json:"type"`
					Diagnostic struct {
						Severity string `json:"severity"`
						Summary  string `json:"summary"`
						Range    *struct {
							Start struct{ Line int } `json:"start"`
						} `json:"range"`
					} `json:"diagnostic"`
				}
				switch {
				case json.Unmarshal([]byte(l), &msg) == nil:
					if msg.Type == "diagnostic" {
						d := msg.Diagnostic.Severity + ": " + msg.Diagnostic.Summary
						if msg.Diagnostic.Range != nil {
							d += fmt.Sprintf(" (line %d)", msg.Diagnostic.Range.Start.Line)
						}
						diags = append(diags, d)
					}
				case strings.HasPrefix(l, "Warning: ") || strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, "  on main.tf") ||
					strings.HasPrefix(l, "(and ") || strings.HasPrefix(l, "Plan: ") || strings.Contains(l, " complete! Resources:"):
					lines = append(lines, strings.TrimSpace(l))
				}
			}
			sort.Strings(diags)
			got = append(got, fmt.Sprintf("%s: %s", strings.Join(args, " "), strings.Join(append(lines, diags...), "; ")))
		}
		step("init", "-no-color")
		got = got[:0] // init's output differs by product name only
		step("plan", "-destroy", "-no-color")
		step("plan", "-destroy", "-json")
		step("destroy", "-auto-approve", "-no-color")
		step("destroy", "-auto-approve", "-no-color", "-input=false")
		// A normal plan validates first too: the provider's warning shows
		// twice, folded into one.
		step("apply", "-auto-approve", "-no-color")
		step("plan", "-destroy", "-no-color")
		step("plan", "-destroy", "-json")
		step("plan", "-destroy", "-refresh=false", "-no-color")
		step("plan", "-destroy", "-refresh=false", "-json")
		step("plan", "-destroy", "-refresh=false", "-target=stratav5_thing.a", "-no-color")
		step("plan", "-destroy", "-no-color", "-input=false")
		step("destroy", "-refresh=false", "-auto-approve", "-json")
		return got
	}
	got := run(strataBin)
	for _, line := range got {
		if strings.Contains(line, "-input=false") {
			// A required variable without a value stops the destroy
			// before validation, as in Terraform.
			if strings.Contains(line, "Warning") || !strings.Contains(line, "Error: No value for required variable") {
				t.Errorf("strata: %s", line)
			}
			continue
		}
		if !strings.Contains(line, "Redundant ignore_changes element") || !strings.Contains(line, "Deprecated description") {
			t.Errorf("strata misses a validation warning: %s", line)
		}
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
	}
}

// canonicalJSON re-encodes a JSON document with its objects' keys
// sorted, "null" for none.
func canonicalJSON(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	if len(raw) == 0 {
		return "null"
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

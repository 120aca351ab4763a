package command

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// targetedConfig has a module, a for_each resource, a check that fails,
// and outputs that depend on each, on the module, and on nothing.
var targetedConfig = map[string]string{
	"main.tf": `variable "names" {
  type    = set(string)
  default = ["a", "b"]
}
module "m" {
  source = "./m"
  count  = 2
  x      = "v${count.index}"
}
resource "terraform_data" "each" {
  for_each = var.names
  input    = each.key
}
output "names" {
  value = [for k, v in terraform_data.each : v.output]
}
output "mod" {
  value = module.m[*].out
}
output "constant" {
  value = "c"
}
check "c" {
  assert {
    condition     = length(var.names) > 5
    error_message = "too few names"
  }
}
`,
	"m/main.tf": "variable \"x\" {}\nresource \"terraform_data\" \"r\" {\n  input = var.x\n}\noutput \"out\" {\n  value = terraform_data.r.output\n}\n",
}

// outlineRe matches the lines whose order and text TestE2ETargetedApply
// compares: headings, warnings, summaries, output change lines and
// progress (collapsed).
var outlineRe = regexp.MustCompile(`^(Warning: |Error: |Apply complete|Destroy complete|Changes to Outputs|Plan: |  [~+-] [a-z]+ +=|Outputs:|No changes)`)

// outline reduces command output to the lines outlineRe matches, with
// every run of progress lines as one "<progress>".
func outline(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		switch {
		case strings.Contains(l, ": Creating...") || strings.Contains(l, ": Destroying...") || strings.Contains(l, "complete after"):
			if len(out) == 0 || out[len(out)-1] != "<progress>" {
				out = append(out, "<progress>")
			}
		case outlineRe.MatchString(l):
			out = append(out, l)
		}
	}
	return out
}

// TestE2ETargetedApply: applies limited by -target report as Terraform's
// do: with -auto-approve the plan's warnings come after the changes, the
// "Applied changes may be incomplete" warning before the summary (saved
// plans too), no check block runs, outputs that depend on nothing
// targeted are left out of the plan, and a targeted destroy keeps the
// root outputs.
func TestE2ETargetedApply(t *testing.T) {
	t.Parallel()
	steps := [][]string{
		{"apply", "-no-color", "-auto-approve", "-var=names=[\"a\",\"c\"]", "-target=terraform_data.each"},
		{"plan", "-no-color", "-var=names=[\"a\",\"d\"]", "-target=terraform_data.each", "-out=t.tfplan"},
		{"apply", "-no-color", "t.tfplan"},
		{"destroy", "-no-color", "-auto-approve", "-var=names=[\"a\",\"d\"]", "-target=module.m"},
		{"output", "-json"},
	}
	run := func(bin string) [][]string {
		dir := writeFiles(t, targetedConfig)
		for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-no-color", "-auto-approve"}} {
			if r := runIn(t, dir, "", bin, args...); r.code != 0 {
				t.Fatalf("%s %s: %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
		}
		var outs [][]string
		for _, args := range steps {
			r := runIn(t, dir, "", bin, args...)
			if r.code != 0 {
				t.Fatalf("%s %s: %d\n%s%s", bin, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			if args[0] == "output" {
				var doc map[string]any
				if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
					t.Fatal(err)
				}
				var names []string
				for k := range doc {
					names = append(names, k)
				}
				sort.Strings(names)
				outs = append(outs, names)
				continue
			}
			outs = append(outs, outline(r.stdout+r.stderr))
		}
		return outs
	}
	got := run(strataBin)
	want := [][]string{
		{"Plan: 1 to add, 0 to change, 1 to destroy.", "Changes to Outputs:", "  ~ names = [", "<progress>",
			"Warning: Resource targeting is in effect", "Warning: Applied changes may be incomplete",
			"Apply complete! Resources: 1 added, 0 changed, 1 destroyed.", "Outputs:"},
		{"Plan: 1 to add, 0 to change, 1 to destroy.", "Changes to Outputs:", "  ~ names = [", "Warning: Resource targeting is in effect"},
		{"<progress>", "Warning: Applied changes may be incomplete", "Apply complete! Resources: 1 added, 0 changed, 1 destroyed.", "Outputs:"},
		{"Plan: 0 to add, 0 to change, 2 to destroy.", "<progress>", "Warning: Resource targeting is in effect",
			"Warning: Applied changes may be incomplete", "Destroy complete! Resources: 2 destroyed."},
		{"constant", "mod", "names"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("strata (-want +got):\n%s", diff)
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("strata differs from terraform (-terraform +strata):\n%s", diff)
	}
}

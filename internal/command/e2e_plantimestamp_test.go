package command

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestE2EPlanTimestamp: plantimestamp() is known while planning, is the
// plan's recorded timestamp (show -json "timestamp"), and keeps that value
// when the saved plan is applied later, as in Terraform; validate still
// leaves it unknown. Terraform plans the same configuration to the same
// text, timestamps aside.
func TestE2EPlanTimestamp(t *testing.T) {
	t.Parallel()
	const config = `resource "terraform_data" "a" {
  input = plantimestamp()
}
locals {
  year = formatdate("YYYY", plantimestamp())
}
resource "terraform_data" "b" {
  input = local.year
  lifecycle {
    precondition {
      condition     = timecmp(plantimestamp(), "2020-01-01T00:00:00Z") > 0 && local.year != ""
      error_message = "The plan's timestamp is known and late enough."
    }
  }
}
output "t" {
  value = plantimestamp()
}
`
	stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	year := regexp.MustCompile(`"\d{4}"`)
	plans := map[string]string{}
	bins := []string{strataBin}
	if tf, err := referenceTerraform(); err == nil {
		bins = append(bins, tf)
	}
	for _, bin := range bins {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
		}
		r := runIn(t, dir, "", bin, "plan", "-no-color", "-out=p.tfplan")
		if r.code != 0 {
			t.Fatalf("%s plan: %s%s", bin, r.stdout, r.stderr)
		}
		plans[bin] = r.stdout
		show := runIn(t, dir, "", bin, "show", "-json", "p.tfplan")
		var doc struct {
			Timestamp     string `json:"timestamp"`
			PlannedValues struct {
				Outputs map[string]struct {
					Value any `json:"value"`
				} `json:"outputs"`
			} `json:"planned_values"`
		}
		if err := json.Unmarshal([]byte(show.stdout), &doc); err != nil {
			t.Fatalf("%s show -json: %v\n%s", bin, err, show.stdout)
		}
		planned := doc.PlannedValues.Outputs["t"].Value
		if planned != doc.Timestamp || doc.Timestamp == "" {
			t.Errorf("%s: planned output %v, plan timestamp %q", bin, planned, doc.Timestamp)
		}
		if !strings.Contains(r.stdout, `+ input  = "`+doc.Timestamp+`"`) {
			t.Errorf("%s: the plan does not show the timestamp %s as known:\n%s", bin, doc.Timestamp, r.stdout)
		}
		// Apply after the clock has moved on: the value is the plan's.
		time.Sleep(1100 * time.Millisecond)
		if r := runIn(t, dir, "", bin, "apply", "-no-color", "p.tfplan"); r.code != 0 {
			t.Fatalf("%s apply: %s%s", bin, r.stdout, r.stderr)
		}
		out := runIn(t, dir, "", bin, "output", "-raw", "t")
		if out.stdout != doc.Timestamp {
			t.Errorf("%s: applied output %q, planned %q", bin, out.stdout, doc.Timestamp)
		}
		if bin == strataBin {
			// Validation has no plan: the value is unknown, and the
			// precondition is not evaluated.
			mustStrata(t, dir, 0, "validate", "-no-color")
		}
	}
	if len(bins) == 2 {
		norm := func(s string) string {
			s = stamp.ReplaceAllString(s, "<timestamp>")
			s = year.ReplaceAllString(s, `"<year>"`)
			return normalize(strings.NewReplacer("Terraform", "strata", "terraform", "strata").Replace(s))
		}
		if got, want := norm(plans[strataBin]), norm(plans[bins[1]]); got != want {
			t.Errorf("plan differs from Terraform's:\n--- terraform\n%s\n--- strata\n%s", want, got)
		}
	}
}

package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

const providerChangeConfig = legacyRequired + `
variable "region" {
  default = "us-east-1"
}
provider "stratalegacy" {
  region = var.region
  token  = "t0ken"
}
resource "stratalegacy_thing" "a" {
  name = "a"
}
resource "stratalegacy_thing" "b" {
  name = "b"
}
`

// stateRecords reads the provider records of strata's part of the state:
// instance address to identity arguments.
func stateRecords(t *testing.T, dir string) map[string]map[string]string {
	t.Helper()
	var doc struct {
		Strata *struct {
			ProviderConfigs map[string]struct {
				Provider, Hash string
				Identity       map[string]string
			} `json:"provider_configs"`
		} `json:"strata"`
	}
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]string{}
	if doc.Strata == nil {
		return out
	}
	for addr, r := range doc.Strata.ProviderConfigs {
		if !strings.HasPrefix(r.Hash, "sha256:") || r.Provider != `provider["registry.terraform.io/strata/stratalegacy"]` {
			t.Errorf("record of %s: %+v", addr, r)
		}
		out[addr] = r.Identity
	}
	return out
}

// TestE2EProviderConfigChange: strata records, with each object, the
// identity arguments of its provider configuration (region) in a part of
// the state Terraform ignores; when the region changes, the plan lists
// the objects left in the old region and fails, until they are replaced
// (-replace) or the change is accepted (-allow-provider-change).
func TestE2EProviderConfigChange(t *testing.T) {
	t.Parallel()
	env := []string{"TF_CLI_CONFIG_FILE=" + legacyProviderConfig(t)}
	dir := writeFiles(t, map[string]string{"main.tf": providerChangeConfig})
	run := func(want int, args ...string) result {
		t.Helper()
		r := runEnv(t, dir, env, strataBin, args...)
		if r.code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	run(0, "init", "-no-color")
	run(0, "apply", "-auto-approve", "-no-color")
	us := map[string]string{"region": `"us-east-1"`}
	eu := map[string]string{"region": `"eu-west-1"`}
	if got := stateRecords(t, dir); len(got) != 2 || got["stratalegacy_thing.a"]["region"] != us["region"] || got["stratalegacy_thing.b"]["region"] != us["region"] {
		t.Fatalf("records: %v", got)
	}
	if strings.Contains(string(readFile(t, filepath.Join(dir, "terraform.tfstate"))), "t0ken") {
		t.Error("the sensitive token is in the state")
	}
	// Terraform reads the state, strata's part and all.
	if tf, err := referenceTerraform(); err == nil {
		if r := runEnv(t, dir, env, tf, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
			t.Errorf("terraform plan on strata's state: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}

	r := run(1, "plan", "-no-color", "-var", "region=eu-west-1")
	for _, want := range []string{
		"Error: Provider configuration changed under existing objects",
		`- stratalegacy_thing.a: provider configuration changed: region "us-east-1" → "eu-west-1"`,
		`- stratalegacy_thing.b: provider configuration changed: region "us-east-1" → "eu-west-1"`,
		"-replace=stratalegacy_thing.a -replace=stratalegacy_thing.b",
	} {
		if !strings.Contains(flat(r.stderr), want) {
			t.Errorf("plan errors lack %q:\n%s", want, r.stderr)
		}
	}
	// Replacing one is not enough; the apply changes nothing.
	before := readFile(t, filepath.Join(dir, "terraform.tfstate"))
	r = run(1, "apply", "-auto-approve", "-no-color", "-var", "region=eu-west-1", "-replace=stratalegacy_thing.a")
	if strings.Contains(flat(r.stderr), "stratalegacy_thing.a: provider configuration changed") || !strings.Contains(flat(r.stderr), "stratalegacy_thing.b: provider configuration changed") {
		t.Errorf("errors:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, `# (strata) replaced because: -replace names it or lifecycle replace_on_provider_change is set, and the provider configuration changed: region "us-east-1" → "eu-west-1"`) {
		t.Errorf("the replacement does not say why:\n%s", r.stdout)
	}
	if string(before) != string(readFile(t, filepath.Join(dir, "terraform.tfstate"))) {
		t.Error("a refused apply changed the state")
	}
	// Replace a, keep b where it is: both recorded in eu-west-1 after.
	r = run(0, "apply", "-auto-approve", "-no-color", "-var", "region=eu-west-1", "-replace=stratalegacy_thing.a", "-allow-provider-change")
	if !strings.Contains(r.stdout+r.stderr, "Warning: Provider configuration changed under existing objects") || !strings.Contains(r.stdout, "1 added, 0 changed, 1 destroyed") {
		t.Errorf("apply -allow-provider-change:\n%s%s", r.stdout, r.stderr)
	}
	if got := stateRecords(t, dir); got["stratalegacy_thing.a"]["region"] != eu["region"] || got["stratalegacy_thing.b"]["region"] != eu["region"] {
		t.Errorf("records after the accepted change: %v", got)
	}
	if r := run(0, "plan", "-no-color", "-detailed-exitcode", "-var", "region=eu-west-1"); strings.Contains(r.stdout+r.stderr, "provider configuration changed") {
		t.Errorf("the accepted change is reported again:\n%s%s", r.stdout, r.stderr)
	}
	// Destroying drops the records with the objects.
	run(0, "destroy", "-auto-approve", "-no-color", "-var", "region=eu-west-1")
	if got := stateRecords(t, dir); len(got) != 0 {
		t.Errorf("records after destroy: %v", got)
	}
}

// TestE2EReplaceOnProviderChange: with lifecycle replace_on_provider_change
// (strata's own), any change of the provider configuration's
// non-sensitive arguments plans the replacement of the resource's
// objects; other resources are not replaced, and a sensitive argument
// does not count.
func TestE2EReplaceOnProviderChange(t *testing.T) {
	t.Parallel()
	env := []string{"TF_CLI_CONFIG_FILE=" + legacyProviderConfig(t)}
	config := func(region, retries, token string) string {
		return legacyRequired + fmt.Sprintf(`
provider "stratalegacy" {
  region  = %q
  retries = %s
  token   = %q
}
resource "stratalegacy_thing" "r" {
  name = "r"
  lifecycle {
    replace_on_provider_change = true
  }
}
resource "stratalegacy_thing" "k" {
  name = "k"
}
`, region, retries, token)
	}
	dir := writeFiles(t, map[string]string{"main.tf": config("us-east-1", "1", "t1")})
	run := func(want int, args ...string) result {
		t.Helper()
		r := runEnv(t, dir, env, strataBin, args...)
		if r.code != want {
			t.Fatalf("strata %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	run(0, "init", "-no-color")
	run(0, "apply", "-auto-approve", "-no-color")
	// A sensitive argument changes nothing.
	writeFile(t, filepath.Join(dir, "main.tf"), config("us-east-1", "1", "t2"))
	run(0, "plan", "-no-color", "-detailed-exitcode")
	// Another argument replaces r only.
	writeFile(t, filepath.Join(dir, "main.tf"), config("us-east-1", "2", "t1"))
	r := run(2, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(r.stdout, "  # stratalegacy_thing.r will be replaced, as requested\n  # (strata) replaced because: -replace names it or lifecycle replace_on_provider_change is set, and the provider configuration changed: non-identity arguments changed (hash ") ||
		strings.Contains(r.stdout, "# stratalegacy_thing.k") || !strings.Contains(r.stdout, "Plan: 1 to add, 0 to change, 1 to destroy.") {
		t.Errorf("plan:\n%s", r.stdout)
	}
	// The region replaces r and lists k, which fails the plan.
	writeFile(t, filepath.Join(dir, "main.tf"), config("eu-west-1", "1", "t1"))
	r = run(1, "plan", "-no-color")
	if !strings.Contains(r.stdout, "  # (strata) replaced because: -replace names it or lifecycle replace_on_provider_change is set, and the provider configuration changed: region \"us-east-1\" → \"eu-west-1\"") {
		t.Errorf("r is not replaced:\n%s", r.stdout)
	}
	if !strings.Contains(flat(r.stderr), `- stratalegacy_thing.k: provider configuration changed`) || strings.Contains(flat(r.stderr), `- stratalegacy_thing.r:`) {
		t.Errorf("errors:\n%s", r.stderr)
	}
}

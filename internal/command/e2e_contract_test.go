package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	legacyOnce sync.Once
	legacyTfrc string
	legacyErr  error
)

// legacyProviderConfig builds the stratalegacy test provider (which
// breaks the provider contract on purpose) into a filesystem mirror and
// returns a CLI configuration file installing from it.
func legacyProviderConfig(t *testing.T) string {
	t.Helper()
	legacyOnce.Do(func() {
		dir, err := buildTestProviderMirror("stratalegacy")
		if err != nil {
			legacyErr = err
			return
		}
		legacyTfrc = filepath.Join(dir, "cli.tfrc")
		legacyErr = writeFileAtomic(legacyTfrc, []byte(fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", dir)))
	})
	if legacyErr != nil {
		t.Fatal(legacyErr)
	}
	return legacyTfrc
}

const legacyRequired = `terraform {
  required_providers {
    stratalegacy = { source = "strata/stratalegacy" }
  }
}
`

// contractConfig breaks every rule a legacy provider is forgiven, one
// resource with a value from a sensitive variable.
const contractConfig = legacyRequired + `
variable "pw" {
  default   = "hunter2"
  sensitive = true
}
resource "stratalegacy_thing" "a" {
  name = "alpha"
  mode = "plan_config,plan_noncomputed,apply_result"
}
resource "stratalegacy_thing" "s" {
  name   = "Secret"
  secret = "abc"
  mode   = "plan_secret"
}
resource "stratalegacy_thing" "v" {
  name = var.pw
  mode = "plan_config"
}
resource "stratalegacy_thing" "ok" {
  name = "fine"
}
`

// The report's lines for contractConfig, by phase.
var (
	contractPlanLines = []string{
		"strata/stratalegacy: 2 tolerated contract violations in stratalegacy_thing.a:",
		`  - .name: planned value cty.StringVal("ALPHA") does not match config value cty.StringVal("alpha") (the planned value must keep the configured value)`,
		`  - .note: planned value cty.StringVal("chosen by the provider") for a non-computed attribute (the planned value must keep the configured value)`,
		"strata/stratalegacy: 1 tolerated contract violation in stratalegacy_thing.s:",
		"  - .secret: planned value (sensitive value) does not match config value (sensitive value) (the planned value must keep the configured value)",
		"strata/stratalegacy: 1 tolerated contract violation in stratalegacy_thing.v:",
		"  - .name: the value differs (sensitive value) (the planned value must keep the configured value)",
	}
	contractApplyLine = `  - .name: was cty.StringVal("ALPHA"), but now cty.StringVal("ALPHA-applied") (the new state must keep every value the final plan knew)`
)

// withoutContractWarning removes the contract warning from human output,
// which must otherwise be Terraform's.
func withoutContractWarning(t *testing.T, s string) string {
	t.Helper()
	start := strings.Index(s, "Warning: Provider contract violations tolerated\n")
	if start < 0 {
		t.Fatalf("no contract warning in:\n%s", s)
	}
	end := strings.Index(s[start:], "make them errors.\n")
	if end < 0 {
		t.Fatalf("the contract warning does not end as it should:\n%s", s[start:])
	}
	end += start + len("make them errors.\n")
	// A warning starts with a blank line of its own.
	if strings.HasSuffix(s[:start], "\n\n") {
		start--
	}
	return s[:start] + s[end:]
}

// TestE2EContractReport: violations a legacy provider commits are
// tolerated, as in Terraform, and summarised once in one warning with
// the path, the rule and both values (sensitive ones hidden); apart from
// that warning the plan is Terraform's.
func TestE2EContractReport(t *testing.T) {
	t.Parallel() // its own directories
	env := []string{"TF_CLI_CONFIG_FILE=" + legacyProviderConfig(t)}
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": contractConfig})
	if r := runEnv(t, sdir, env, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	plan := runEnv(t, sdir, env, strataBin, "plan", "-no-color")
	if plan.code != 0 {
		t.Fatalf("plan: %+v", plan)
	}
	for _, l := range contractPlanLines {
		if !strings.Contains(plan.stdout, l+"\n") {
			t.Errorf("plan output lacks %q:\n%s", l, plan.stdout)
		}
	}
	if n := strings.Count(plan.stdout, "Provider contract violations tolerated"); n != 1 {
		t.Errorf("%d contract warnings, want 1", n)
	}
	if strings.Contains(plan.stdout+plan.stderr, "hunter2") {
		t.Errorf("the sensitive value is shown:\n%s", plan.stdout)
	}
	if tf, err := referenceTerraform(); err == nil {
		if r := runEnv(t, tdir, env, tf, "init", "-no-color"); r.code != 0 {
			t.Fatalf("terraform init: %+v", r)
		}
		want := runEnv(t, tdir, env, tf, "plan", "-no-color")
		if want.code != 0 {
			t.Fatalf("terraform plan: %+v", want)
		}
		w, g := paragraphs(normalize(want.stdout)), paragraphs(normalize(withoutContractWarning(t, plan.stdout)))
		if w != g {
			t.Errorf("plan differs from Terraform's beyond the contract warning\nterraform:\n%s\nstrata:\n%s", w, g)
		}
	}

	apply := runEnv(t, sdir, env, strataBin, "apply", "-no-color", "-auto-approve")
	if apply.code != 0 {
		t.Fatalf("apply: %+v", apply)
	}
	if n := strings.Count(apply.stdout, "Provider contract violations tolerated"); n != 1 {
		t.Errorf("%d contract warnings in apply, want 1:\n%s", n, apply.stdout)
	}
	for _, l := range append(contractPlanLines[1:], contractApplyLine, "strata/stratalegacy: 3 tolerated contract violations in stratalegacy_thing.a:") {
		if !strings.Contains(apply.stdout, l+"\n") {
			t.Errorf("apply output lacks %q:\n%s", l, apply.stdout)
		}
	}
	if i, j := strings.Index(apply.stdout, "Apply complete!"), strings.Index(apply.stdout, "Provider contract violations"); i < 0 || j < i {
		t.Errorf("the warning does not follow the apply summary:\n%s", apply.stdout)
	}

	// The run record has them with the instances.
	found := false
	for _, e := range runsShow(t, sdir).Entries {
		if e.Address == "stratalegacy_thing.a" {
			found = true
			if want := "tolerated contract violation: " + strings.TrimPrefix(contractApplyLine, "  - "); !strings.Contains(e.Diagnostics, want) {
				t.Errorf("the run record's entry lacks %q: %q", want, e.Diagnostics)
			}
		}
	}
	if !found {
		t.Error("no run record entry for stratalegacy_thing.a")
	}

	// With nothing wrong, nothing is said.
	writeFile(t, filepath.Join(sdir, "main.tf"), legacyRequired+"resource \"stratalegacy_thing\" \"ok\" {\n  name = \"fine\"\n}\n")
	clean := runEnv(t, sdir, env, strataBin, "apply", "-no-color", "-auto-approve", "-strict")
	if clean.code != 0 || strings.Contains(clean.stdout+clean.stderr, "contract") {
		t.Errorf("a provider that keeps the contract is reported:\n%+v", clean)
	}
}

// TestE2EContractJSON: -json reports the violations in one message of
// their own, with the fields website/docs/json.md documents.
func TestE2EContractJSON(t *testing.T) {
	t.Parallel()
	env := []string{"TF_CLI_CONFIG_FILE=" + legacyProviderConfig(t)}
	dir := writeFiles(t, map[string]string{"main.tf": contractConfig})
	if r := runEnv(t, dir, env, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	r := runEnv(t, dir, env, strataBin, "plan", "-json")
	if r.code != 0 {
		t.Fatalf("plan -json: %+v", r)
	}
	type violation struct {
		Provider, Address, Path, Detail string
		Type                            string `json:"resource_type"`
		Rule                            string
		Legacy                          bool
	}
	var got [][]violation
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var m struct {
			Type       string `json:"type"`
			Message    string `json:"@message"`
			Violations []violation
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if m.Type == "contract_violations" {
			if m.Message != "Provider contract violations tolerated: 4" {
				t.Errorf("message %q", m.Message)
			}
			got = append(got, m.Violations)
		}
	}
	if len(got) != 1 || len(got[0]) != 4 {
		t.Fatalf("contract_violations messages: %+v", got)
	}
	want := violation{
		Provider: "registry.terraform.io/strata/stratalegacy", Address: "stratalegacy_thing.a", Type: "stratalegacy_thing",
		Rule: "plan_valid", Path: ".name", Detail: `planned value cty.StringVal("ALPHA") does not match config value cty.StringVal("alpha")`, Legacy: true,
	}
	if got[0][0] != want {
		t.Errorf("first violation\n got %+v\nwant %+v", got[0][0], want)
	}
	if strings.Contains(r.stdout, "hunter2") {
		t.Errorf("the sensitive value is in the stream")
	}
}

// TestE2EStrictMode: -strict (or STRATA_STRICT=1) makes each violation
// an error naming the path and both values; the verification read after
// apply catches a provider whose read returns other values than it
// applied, and is only a tolerated violation with STRATA_VERIFY_READ.
func TestE2EStrictMode(t *testing.T) {
	t.Parallel()
	cfg := legacyProviderConfig(t)
	env := []string{"TF_CLI_CONFIG_FILE=" + cfg}
	dir := writeFiles(t, map[string]string{"main.tf": contractConfig})
	if r := runEnv(t, dir, env, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	for name, run := range map[string]func() result{
		"flag": func() result { return runEnv(t, dir, env, strataBin, "plan", "-no-color", "-strict") },
		"env":  func() result { return runEnv(t, dir, append(env, "STRATA_STRICT=1"), strataBin, "plan", "-no-color") },
	} {
		t.Run(name, func(t *testing.T) {
			r := run()
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
			}
			errs := flat(r.stderr)
			for _, want := range []string{
				`for stratalegacy_thing.a: .name: planned value cty.StringVal("ALPHA") does not match config value cty.StringVal("alpha").`,
				`for stratalegacy_thing.a: .note: planned value cty.StringVal("chosen by the provider") for a non-computed attribute.`,
				`for stratalegacy_thing.s: .secret: planned value (sensitive value) does not match config value (sensitive value).`,
				`for stratalegacy_thing.v: .name: the value differs (sensitive value).`,
				"strict mode (-strict or STRATA_STRICT=1) is on",
			} {
				if !strings.Contains(errs, want) {
					t.Errorf("errors lack %q:\n%s", want, r.stderr)
				}
			}
			if strings.Count(r.stderr, "Error: Provider produced invalid plan") != 3 || strings.Contains(r.stdout+r.stderr, "hunter2") {
				t.Errorf("errors:\n%s", r.stderr)
			}
			if strings.Contains(r.stdout, "contract violations tolerated") {
				t.Errorf("strict mode tolerates:\n%s", r.stdout)
			}
		})
	}

	// The verification read.
	writeFile(t, filepath.Join(dir, "main.tf"), legacyRequired+"resource \"stratalegacy_thing\" \"r\" {\n  name = \"Mixed\"\n  mode = \"read_noncanonical\"\n}\n")
	r := runEnv(t, dir, env, strataBin, "apply", "-no-color", "-auto-approve")
	if r.code != 0 || strings.Contains(r.stdout, "contract") {
		t.Fatalf("without strict mode or STRATA_VERIFY_READ there is no read after apply: %+v", r)
	}
	r = runEnv(t, dir, env, strataBin, "apply", "-no-color", "-auto-approve", "-replace=stratalegacy_thing.r", "-strict")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	if want := `Reading stratalegacy_thing.r right after applying it, provider "registry.terraform.io/strata/stratalegacy" returned a different value, which the next plan would show as a change made outside strata: .name: was cty.StringVal("Mixed"), but now cty.StringVal("mixed").`; !strings.Contains(flat(r.stderr), want) {
		t.Errorf("errors lack %q:\n%s", want, r.stderr)
	}
	state := string(readFile(t, filepath.Join(dir, "terraform.tfstate")))
	if !strings.Contains(state, `"name": "Mixed"`) {
		t.Errorf("the applied object is not saved:\n%s", state)
	}
	r = runEnv(t, dir, append(env, "STRATA_VERIFY_READ=1"), strataBin, "apply", "-no-color", "-auto-approve", "-replace=stratalegacy_thing.r")
	if r.code != 0 {
		t.Fatalf("STRATA_VERIFY_READ alone: %+v", r)
	}
	if want := `  - .name: was cty.StringVal("Mixed"), but now cty.StringVal("mixed") (reading the object after apply must return the applied object)` + "\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("output lacks %q:\n%s", want, r.stdout)
	}
}

// TestE2EFinalPlanInconsistentLegacy: a final plan that changes a value
// the initial plan knew is an error even from a legacy provider, as in
// Terraform.
func TestE2EFinalPlanInconsistentLegacy(t *testing.T) {
	t.Parallel()
	env := []string{"TF_CLI_CONFIG_FILE=" + legacyProviderConfig(t)}
	config := legacyRequired + "resource \"stratalegacy_thing\" \"f\" {\n  name = \"f\"\n  mode = \"final_plan\"\n}\n"
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": config})
	check := func(bin, dir string) {
		t.Helper()
		if r := runEnv(t, dir, env, bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("init: %+v", r)
		}
		r := runEnv(t, dir, env, bin, "apply", "-no-color", "-auto-approve")
		if r.code != 1 || !strings.Contains(flat(r.stderr), "Error: Provider produced inconsistent final plan") ||
			!strings.Contains(flat(r.stderr), "produced an invalid new value for .stamp: was cty.NumberIntVal(") {
			t.Errorf("%s: %+v", filepath.Base(bin), r)
		}
	}
	check(strataBin, sdir)
	if tf, err := referenceTerraform(); err == nil {
		check(tf, tdir)
	}
}

// TestE2EFinalPlanNullValues: a final plan whose value became null, or
// was null and became set, is reported with "null" for the null side,
// as Terraform words it ("was null, but now cty.StringVal(...)", seen in
// its equivalence test data_read). Compared with terraform when
// installed.
func TestE2EFinalPlanNullValues(t *testing.T) {
	t.Parallel()
	env := []string{"TF_CLI_CONFIG_FILE=" + legacyProviderConfig(t)}
	tests := map[string]string{
		"final_note_null": `.note: was cty.StringVal("chosen by the provider"), but now null.`,
		"final_note_set":  `.note: was null, but now cty.StringVal("chosen by the provider").`,
	}
	for mode, want := range tests {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			config := legacyRequired + "resource \"terraform_data\" \"n\" {\n  input = \"n\"\n}\n" +
				"resource \"stratalegacy_thing\" \"f\" {\n  name = terraform_data.n.output\n  mode = \"" + mode + "\"\n}\n"
			sdir, tdir := twinDirs(t, map[string]string{"main.tf": config})
			check := func(bin, dir string) {
				t.Helper()
				if r := runEnv(t, dir, env, bin, "init", "-no-color"); r.code != 0 {
					t.Fatalf("init: %+v", r)
				}
				r := runEnv(t, dir, env, bin, "apply", "-no-color", "-auto-approve")
				if r.code != 1 || !strings.Contains(flat(r.stderr), "Error: Provider produced inconsistent final plan") || !strings.Contains(flat(r.stderr), want) {
					t.Errorf("%s: want %q in\n%s", filepath.Base(bin), want, r.stderr)
				}
			}
			check(strataBin, sdir)
			if tf, err := referenceTerraform(); err == nil {
				check(tf, tdir)
			}
		})
	}
}

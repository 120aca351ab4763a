package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ephemeralConfig = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

ephemeral "stratafw_token" "t" {
  name = "a"
}

resource "stratafw_thing" "a" {
  name     = "a"
  password_wo = ephemeral.stratafw_token.t.value
}
`

// ephemeralRun runs a tool in dir with the test provider mirror and the
// ephemeral call log of the stratafw provider in logDir.
func ephemeralRun(t *testing.T, bin, dir, logDir string, args ...string) result {
	t.Helper()
	cliConfig := filepath.Join(dir, "cli.tfrc")
	return runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "TF_IN_AUTOMATION=", "STRATAFW_EPHEMERAL_LOG=" + logDir}, args...)
}

func ephemeralDir(t *testing.T, config string) (dir, logDir string) {
	t.Helper()
	mirror := testProviderMirror(t)
	dir, logDir = t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	writeFile(t, filepath.Join(dir, "cli.tfrc"), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	return dir, logDir
}

func readLog(t *testing.T, logDir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(logDir, "log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(logDir, "log"))
	return string(b)
}

// TestE2EEphemeralResource runs plan and apply of an ephemeral resource
// on the stratafw plugin: it is opened and closed in both, its value
// reaches the write-only argument and nothing of it is stored; the
// progress lines and the -json messages are Terraform's. When terraform
// is installed, the output and the provider calls are compared with it.
func TestE2EEphemeralResource(t *testing.T) {
	t.Parallel()
	type run struct{ plan, apply, planJSON result }
	do := func(bin string) (run, string, string) {
		dir, logDir := ephemeralDir(t, ephemeralConfig)
		if r := ephemeralRun(t, bin, dir, logDir, "init", "-no-color", "-input=false"); r.code != 0 {
			t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
		}
		var got run
		got.plan = ephemeralRun(t, bin, dir, logDir, "plan", "-no-color", "-input=false")
		got.apply = ephemeralRun(t, bin, dir, logDir, "apply", "-auto-approve", "-no-color", "-input=false")
		calls := readLog(t, logDir)
		got.planJSON = ephemeralRun(t, bin, dir, logDir, "plan", "-json", "-input=false")
		state, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
		if err != nil {
			t.Fatal(err)
		}
		return got, calls, string(state)
	}
	got, calls, state := do(strataBin)
	for _, r := range []result{got.plan, got.apply} {
		if r.code != 0 {
			t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
		}
		for _, want := range []string{
			"ephemeral.stratafw_token.t: Opening...\n",
			"ephemeral.stratafw_token.t: Opening complete after 0s\n",
			"ephemeral.stratafw_token.t: Closing...\n",
			"ephemeral.stratafw_token.t: Closing complete after 0s\n",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("output lacks %q:\n%s", want, r.stdout)
			}
		}
	}
	// plan, then apply: its own plan and the apply.
	if want := "open a\nclose a\nopen a\nclose a\nopen a\nclose a\n"; calls != want {
		t.Errorf("provider calls %q, want %q", calls, want)
	}
	if strings.Contains(state, "token-a") || strings.Contains(state, `"stratafw_token"`) {
		t.Errorf("the ephemeral value or resource reached the state:\n%s", state)
	}
	types := jsonTypes(t, got.planJSON.stdout, "ephemeral_op_")
	if want := "ephemeral_op_start open,ephemeral_op_complete open,ephemeral_op_start close,ephemeral_op_complete close"; types != want {
		t.Errorf("-json ephemeral messages %q, want %q", types, want)
	}

	tf, err := referenceTerraform()
	if err != nil {
		t.Log("terraform is not installed: not compared")
		return
	}
	want, wantCalls, _ := do(tf)
	rename := strings.NewReplacer("Terraform", "strata", "terraform apply", "strata apply")
	for name, pair := range map[string][2]result{"plan": {want.plan, got.plan}, "apply": {want.apply, got.apply}} {
		w, g := normalize(rename.Replace(pair[0].stdout)), normalize(pair[1].stdout)
		if w != g {
			t.Errorf("%s output differs from terraform's\n--- terraform\n%s\n--- strata\n%s", name, w, g)
		}
	}
	if calls != wantCalls {
		t.Errorf("provider calls %q, terraform's %q", calls, wantCalls)
	}
	if w := jsonTypes(t, want.planJSON.stdout, "ephemeral_op_"); w != types {
		t.Errorf("-json ephemeral messages %q, terraform's %q", types, w)
	}
}

// jsonTypes lists the type and hook action of the -json messages whose
// type starts with prefix.
func jsonTypes(t *testing.T, stream, prefix string) string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(stream), "\n") {
		var msg struct {
			Type string `json:"type"`
			Hook struct {
				Action string `json:"action"`
			} `json:"hook"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("bad -json line %q: %v", line, err)
		}
		if strings.HasPrefix(msg.Type, prefix) {
			out = append(out, msg.Type+" "+msg.Hook.Action)
		}
	}
	return strings.Join(out, ",")
}

// TestE2EEphemeralValueNotAllowed: an ephemeral value in an argument that
// is stored, and in a root output, is refused with Terraform's errors.
func TestE2EEphemeralValueNotAllowed(t *testing.T) {
	t.Parallel()
	config := strings.Replace(ephemeralConfig, "password_wo = ephemeral.stratafw_token.t.value", "description = ephemeral.stratafw_token.t.value", 1) + `
output "o" {
  value = ephemeral.stratafw_token.t.value
}
`
	check := func(bin string) string {
		dir, logDir := ephemeralDir(t, config)
		if r := ephemeralRun(t, bin, dir, logDir, "init", "-no-color", "-input=false"); r.code != 0 {
			t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
		}
		r := ephemeralRun(t, bin, dir, logDir, "plan", "-no-color", "-input=false")
		if r.code != 1 {
			t.Fatalf("%s plan: exit %d, want 1\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		return r.stderr
	}
	got := check(strataBin)
	for _, want := range []string{
		"Error: Invalid use of ephemeral value",
		`Ephemeral values are not valid for "description", because it is not a
write-only attribute and must be persisted to state.`,
		"Error: Ephemeral value not allowed",
		"This output value is not declared as returning an ephemeral value, so it\ncannot be set to a result derived from an ephemeral value.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
	if tf, err := referenceTerraform(); err == nil {
		if want := check(tf); normalize(want) != normalize(got) {
			t.Errorf("errors differ from terraform's\n--- terraform\n%s\n--- strata\n%s", want, got)
		}
	}
}

// TestE2EEphemeralVariablesSavedPlan: an ephemeral variable set during
// plan -out is not in the plan file and must be given again to apply it;
// one that was not set must stay unset. Compared with terraform when it
// is installed.
func TestE2EEphemeralVariablesSavedPlan(t *testing.T) {
	t.Parallel()
	const config = `
variable "x" {
  ephemeral = true
}
variable "y" {
  ephemeral = true
  default   = "d"
}
resource "terraform_data" "d" {
  input = ephemeralasnull(var.x)
}
`
	type outcome struct {
		inPlan                bool
		missing, unset, given result
	}
	check := func(bin string) outcome {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
		}
		if r := runIn(t, dir, "", bin, "plan", "-no-color", "-var", "x=secret-value", "-out", "p.bin"); r.code != 0 {
			t.Fatalf("%s plan: %s%s", bin, r.stdout, r.stderr)
		}
		show := runIn(t, dir, "", bin, "show", "-json", "p.bin")
		var o outcome
		o.inPlan = strings.Contains(show.stdout, "secret-value")
		o.missing = runIn(t, dir, "", bin, "apply", "-no-color", "p.bin")
		o.unset = runIn(t, dir, "", bin, "apply", "-no-color", "-var", "x=secret-value", "-var", "y=3", "p.bin")
		o.given = runIn(t, dir, "", bin, "apply", "-no-color", "-var", "x=secret-value", "p.bin")
		return o
	}
	got := check(strataBin)
	if got.inPlan {
		t.Error("the ephemeral variable's value is in the saved plan")
	}
	if got.missing.code != 1 || !strings.Contains(got.missing.stderr, `The ephemeral input variable "x" was set during the plan phase, and so must
also be set during the apply phase.`) {
		t.Errorf("apply without x: exit %d\n%s", got.missing.code, got.missing.stderr)
	}
	if got.unset.code != 1 || !strings.Contains(got.unset.stderr, "Error: Ephemeral variable was not set during planning") {
		t.Errorf("apply with y: exit %d\n%s", got.unset.code, got.unset.stderr)
	}
	if got.given.code != 0 {
		t.Errorf("apply with x: exit %d\n%s%s", got.given.code, got.given.stdout, got.given.stderr)
	}
	// Without a saved plan, the value given once serves plan and apply.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-var", "x=secret-value")
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	want := check(tf)
	if want.inPlan != got.inPlan {
		t.Errorf("value in plan: terraform %v, strata %v", want.inPlan, got.inPlan)
	}
	for name, pair := range map[string][2]result{"missing": {want.missing, got.missing}, "unset": {want.unset, got.unset}} {
		if normalize(pair[0].stderr) != normalize(pair[1].stderr) || pair[0].code != pair[1].code {
			t.Errorf("%s: terraform exit %d\n%s\nstrata exit %d\n%s", name, pair[0].code, pair[0].stderr, pair[1].code, pair[1].stderr)
		}
	}
	if want.given.code != got.given.code {
		t.Errorf("apply with x: terraform exit %d, strata %d", want.given.code, got.given.code)
	}
}

// TestE2EEphemeralRenewed: an ephemeral resource whose provider asks to
// be renewed every second is renewed while a resource that depends on it
// takes three seconds to create, and closed after it, as with terraform.
func TestE2EEphemeralRenewed(t *testing.T) {
	t.Parallel()
	config := strings.Replace(ephemeralConfig, `  name = "a"
}`, `  name          = "a"
  renew_seconds = 1
}`, 1) + `
resource "terraform_data" "slow" {
  depends_on = [ephemeral.stratafw_token.t]
  provisioner "local-exec" {
    command = "sleep 3"
  }
}
`
	check := func(bin string) (result, string) {
		dir, logDir := ephemeralDir(t, config)
		if r := ephemeralRun(t, bin, dir, logDir, "init", "-no-color", "-input=false"); r.code != 0 {
			t.Fatalf("%s init: %s%s", bin, r.stdout, r.stderr)
		}
		r := ephemeralRun(t, bin, dir, logDir, "apply", "-auto-approve", "-no-color", "-input=false")
		if r.code != 0 {
			t.Fatalf("%s apply: exit %d\n%s%s", bin, r.code, r.stdout, r.stderr)
		}
		return r, readLog(t, logDir)
	}
	bins := []string{strataBin}
	if tf, err := referenceTerraform(); err == nil {
		bins = append(bins, tf)
	}
	for _, bin := range bins {
		r, calls := check(bin)
		if n := strings.Count(calls, "renew a"); n < 2 {
			t.Errorf("%s: renewed %d times during a 3s apply with renew_seconds = 1:\n%s", bin, n, calls)
		}
		if !strings.HasSuffix(calls, "renew a\nclose a\n") {
			t.Errorf("%s: not closed after its last renewal:\n%s", bin, calls)
		}
		for _, want := range []string{"ephemeral.stratafw_token.t: Renewing...\n", "ephemeral.stratafw_token.t: Renewal complete after 0s\n"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: output lacks %q:\n%s", bin, want, r.stdout)
			}
		}
		created := strings.Index(r.stdout, "terraform_data.slow: Creation complete")
		closing := strings.LastIndex(r.stdout, "ephemeral.stratafw_token.t: Closing...")
		if created < 0 || closing < created {
			t.Errorf("%s: closed before the resource that needs it was created:\n%s", bin, r.stdout)
		}
	}
}

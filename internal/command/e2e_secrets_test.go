package command

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The e2e tests of where sensitive values must not be printed: TF_LOG
// logs, provisioner output, error messages, console and output.

const secretsLogConfig = `
terraform {
  required_providers {
    random = {
      source  = "hashicorp/random"
      version = "3.9.0"
    }
    test = {
      source  = "hashicorp/test"
      version = "1.0.0"
    }
  }
}

variable "secret" {
  type      = string
  sensitive = true
}

variable "wo" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "random_password" "p" {
  length  = 40
  special = false
}

resource "test_resource" "w" {
  value      = "not secret"
  write_only = var.wo
}

resource "terraform_data" "s" {
  input = var.secret
  provisioner "local-exec" {
    command = "echo ${var.secret}"
  }
}

output "pw" {
  value     = random_password.p.result
  sensitive = true
}
`

// TestE2ESecretsNotLogged: at TF_LOG=trace, the log of init, plan, apply,
// output and destroy holds no sensitive value — a sensitive variable
// given with -var, a write-only argument, a random_password result —
// and the providers' log lines (passed through) do not either. (Terraform
// logs the command line with the values of -var, and terraform_data's
// input at DEBUG: strata does neither; see differences.md.)
func TestE2ESecretsNotLogged(t *testing.T) {
	t.Parallel()
	randomMirror := randomProviderMirror(t)
	testMirror := tftestProviderMirror(t)
	secret, wo := "sv-"+randomHex(t, 12), "wo-"+randomHex(t, 12)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), secretsLogConfig)
	logPath := filepath.Join(t.TempDir(), "trace.log")
	env := []string{"TF_LOG=trace", "TF_LOG_PATH=" + logPath, "TF_VAR_wo=" + wo, "TFTEST_STORE_DIR=" + t.TempDir(), "TF_IN_AUTOMATION=1"}
	steps := [][]string{
		{"init", "-no-color", "-plugin-dir=" + randomMirror, "-plugin-dir=" + testMirror},
		{"plan", "-no-color", "-var", "secret=" + secret},
		{"apply", "-auto-approve", "-no-color", "-var", "secret=" + secret},
		{"output", "-no-color"},
		{"output", "-raw", "pw"},
		{"destroy", "-auto-approve", "-no-color", "-var", "secret=" + secret},
	}
	var pw string
	for _, args := range steps {
		r := runEnv(t, dir, env, strataBin, args...)
		if r.code != 0 {
			t.Fatalf("strata %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		if args[0] == "output" && len(args) == 3 {
			pw = strings.TrimSpace(r.stdout)
		}
	}
	if len(pw) != 40 {
		t.Fatalf("random_password result %q", pw)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(log, []byte("[TRACE] provider.terraform-provider-test_v1.0.0: Received request")) {
		t.Fatalf("the providers' TRACE lines are not in the log:\n%.2000s", log)
	}
	if !bytes.Contains(log, []byte(`"-var", "secret=(redacted)"`)) {
		t.Errorf("the log does not show the command line with -var redacted:\n%.2000s", log)
	}
	secrets := map[string]string{"sensitive variable": secret, "write-only value": wo, "random_password result": pw}
	for _, line := range strings.Split(string(log), "\n") {
		for _, name := range secretsInData([]byte(line), secrets) {
			t.Errorf("the %s is in the log: %.300s", name, line)
		}
	}
}

// sensitiveDiagCases are configurations whose errors refer to sensitive
// or ephemeral values; want is what the errors say (their summaries and
// the values listed under their snippets), as Terraform 1.11 says it:
// a sensitive or ephemeral value is named only when it is what the error
// is about (for_each), and never shown.
var sensitiveDiagCases = map[string]struct {
	body    string // the resource block's body
	command string
	want    []string
}{
	"precondition": {
		body: `lifecycle {
    precondition {
      condition     = var.s == "x" && var.p == "plainv" && var.e == "e"
      error_message = "bad value ${var.s}"
    }
  }`,
		command: "plan",
		want:    []string{"Warning: Error message refers to sensitive values", "Error: Resource precondition failed", `│ var.p is "plainv"`},
	},
	"function argument": {body: "input = tonumber(var.s)", command: "plan", want: []string{"Error: Invalid function argument", "│ while calling tonumber(v)"}},
	"index":             {body: "input = {a = 1}[var.s]", command: "plan", want: []string{"Error: Invalid index"}},
	"operand":           {body: "input = var.s + 1", command: "plan", want: []string{"Error: Invalid operand"}},
	"for_each sensitive": {body: "for_each = toset([var.s])", command: "plan",
		want: []string{"Error: Invalid for_each argument", "│ var.s has a sensitive value"}},
	"for_each ephemeral": {body: "for_each = { for k in [var.e] : k => k }", command: "plan",
		want: []string{"Error: Invalid for_each argument", "│ var.e has an ephemeral value"}},
	"sensitive count": {body: "count = var.n", command: "plan", want: nil},
	"output of a file of an unknown sensitive path": {body: "input = 1\n}\noutput \"o\" {\n  value = file(var.p == \"x\" ? var.s : \"\")", command: "validate",
		want: []string{"Error: Output refers to sensitive values"}},
}

// TestE2ESensitiveDiagnostics: errors about expressions that refer to
// sensitive values do not show them, and name them only where Terraform
// does; compared with terraform where it is installed.
func TestE2ESensitiveDiagnostics(t *testing.T) {
	t.Parallel()
	const vars = `
variable "s" {
  sensitive = true
  default   = "SEKRIT42"
}
variable "e" {
  ephemeral = true
  default   = "EPHEM42"
}
variable "n" {
  sensitive = true
  default   = 2
}
variable "p" {
  default = "plainv"
}
`
	said := func(out string) []string {
		var lines []string
		for _, l := range strings.Split(out, "\n") {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, "Error: ") || strings.HasPrefix(l, "Warning: ") || strings.HasPrefix(l, "│ ") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	for name, tc := range sensitiveDiagCases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), vars+"resource \"terraform_data\" \"x\" {\n  "+tc.body+"\n}\n")
			r := strata(t, dir, tc.command, "-no-color")
			out := r.stdout + r.stderr
			if strings.Contains(out, "SEKRIT42") || strings.Contains(out, "EPHEM42") {
				t.Errorf("a secret is shown:\n%s", out)
			}
			if diff := cmp.Diff(tc.want, said(out)); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s\n%s", diff, out)
			}
			if tf, ok := terraformEnv(t, dir, nil, tc.command, "-no-color"); ok {
				if diff := cmp.Diff(said(tf.stdout), said(out)); diff != "" {
					t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
				}
			}
		})
	}
}

// TestE2ELocalExecSensitiveError: a local-exec command whose command or
// environment holds a sensitive value has its output suppressed while it
// runs, as in Terraform, and its error shows neither the command nor the
// output (Terraform's error shows both: see differences.md).
func TestE2ELocalExecSensitiveError(t *testing.T) {
	t.Parallel()
	for name, prov := range map[string]string{
		"command":     `command = "echo out-${var.s}; exit 3"`,
		"environment": "command = \"echo env-$X; exit 4\"\n    environment = { X = var.s }",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "variable \"s\" {\n  sensitive = true\n  default   = \"SEKRIT42\"\n}\n"+
				"resource \"terraform_data\" \"x\" {\n  provisioner \"local-exec\" {\n    "+prov+"\n  }\n}\n")
			r := strata(t, dir, "apply", "-auto-approve", "-no-color")
			out := r.stdout + r.stderr
			if r.code != 1 || strings.Contains(out, "SEKRIT42") || !strings.Contains(flat(out), "Error running command '(sensitive value)'") {
				t.Fatalf("exit %d:\n%s", r.code, out)
			}
			progress := func(s string) []string {
				var lines []string
				for _, l := range strings.Split(s, "\n") {
					if strings.Contains(l, "(local-exec):") {
						lines = append(lines, l)
					}
				}
				return lines
			}
			want := []string{"terraform_data.x (local-exec): (output suppressed due to sensitive value in config)", "terraform_data.x (local-exec): (output suppressed due to sensitive value in config)"}
			if diff := cmp.Diff(want, progress(out)); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
			tdir := t.TempDir()
			writeFile(t, filepath.Join(tdir, "main.tf"), string(readFile(t, filepath.Join(dir, "main.tf"))))
			if tf, ok := terraformEnv(t, tdir, nil, "apply", "-auto-approve", "-no-color"); ok {
				if diff := cmp.Diff(progress(tf.stdout), progress(out)); diff != "" {
					t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
				}
			}
		})
	}
}

// TestE2EOutputConsoleSensitive: output and console show sensitive
// values as Terraform does — hidden in the list of outputs and in console
// expressions, printed when one output is asked for by name — compared
// with terraform where it is installed.
func TestE2EOutputConsoleSensitive(t *testing.T) {
	t.Parallel()
	config := `
variable "s" {
  sensitive = true
  default   = "SEKRIT42"
}
output "whole" {
  value     = var.s
  sensitive = true
}
output "nested" {
  value     = { a = var.s, b = "plain" }
  sensitive = true
}
output "plain" {
  value = "p"
}
resource "terraform_data" "d" {
  input = { a = var.s, b = "plain" }
}
`
	type step struct {
		args  []string
		stdin string
	}
	steps := []step{
		{args: []string{"output"}},
		{args: []string{"output", "whole"}},
		{args: []string{"output", "nested"}},
		{args: []string{"output", "-raw", "whole"}},
		{args: []string{"output", "-json"}},
		{args: []string{"console"}, stdin: "var.s\n"},
		{args: []string{"console"}, stdin: "terraform_data.d.input\n"},
		{args: []string{"console"}, stdin: "{ x = upper(var.s), y = nonsensitive(var.s) }\n"},
	}
	run := func(bin, dir string) []string {
		var outs []string
		for _, st := range steps {
			r := runIn(t, dir, st.stdin, bin, append(st.args, "-no-color")...)
			if r.code != 0 {
				t.Fatalf("%s %v: exit %d\n%s%s", filepath.Base(bin), st.args, r.code, r.stdout, r.stderr)
			}
			outs = append(outs, r.stdout)
		}
		return outs
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	got := run(strataBin, dir)
	want := map[int]func(string) bool{
		0: func(s string) bool {
			return strings.Contains(s, "whole = <sensitive>") && !strings.Contains(s, "SEKRIT42")
		},
		1: func(s string) bool { return s == "\"SEKRIT42\"\n" },
		3: func(s string) bool { return s == "SEKRIT42" },
		5: func(s string) bool { return s == "(sensitive value)\n" },
		6: func(s string) bool {
			return strings.Contains(s, "(sensitive value)") && !strings.Contains(s, "SEKRIT42")
		},
		7: func(s string) bool {
			return strings.Contains(s, `"x" = (sensitive value)`) && strings.Contains(s, `"y" = "SEKRIT42"`)
		},
	}
	for i, ok := range want {
		if !ok(got[i]) {
			t.Errorf("%v:\n%s", steps[i].args, got[i])
		}
	}
	tf, err := referenceTerraform()
	if err != nil {
		return
	}
	tdir := t.TempDir()
	writeFile(t, filepath.Join(tdir, "main.tf"), config)
	if r := runIn(t, tdir, "", tf, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("terraform apply: %s%s", r.stdout, r.stderr)
	}
	for i, out := range run(tf, tdir) {
		if diff := cmp.Diff(out, got[i]); diff != "" {
			t.Errorf("%v differs from terraform (-terraform +strata)\n%s", steps[i].args, diff)
		}
	}
}

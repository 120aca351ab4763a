package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	v5MirrorOnce sync.Once
	v5MirrorDir  string
	v5MirrorErr  error
)

// testProviderMirrorV5 builds the protocol 5 test provider (stratav5, on
// terraform-plugin-go) into a filesystem mirror of its own.
func testProviderMirrorV5(t *testing.T) string {
	t.Helper()
	v5MirrorOnce.Do(func() {
		v5MirrorDir, v5MirrorErr = buildTestProviderMirror("stratav5")
	})
	if v5MirrorErr != nil {
		t.Fatal(v5MirrorErr)
	}
	return v5MirrorDir
}

type functionCase struct {
	name    string
	mirror  func(*testing.T) string
	config  string
	plan    []string          // lines the plan must show
	outputs map[string]string // output name to its JSON value after apply
	errors  map[string]string // expression to a line of its error
}

var functionCases = []functionCase{{
	name:   "protocol 6",
	mirror: testProviderMirror,
	config: `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}
provider "stratafw" {
  prefix = "${provider::stratafw::upper("x")}-"
}
variable "name" {
  default = "one"
}
resource "stratafw_thing" "a" {
  name   = provider::stratafw::upper(var.name)
  labels = { joined = provider::stratafw::join("-", "a", var.name, "c") }
}
output "upper" {
  value = provider::stratafw::upper(var.name)
}
output "id_upper" {
  value = provider::stratafw::upper(stratafw_thing.a.id)
}
`,
	plan: []string{
		`+ "joined" = "a-one-c"`,
		`+ name         = "ONE"`,
		`+ id_upper = (known after apply)`,
		`+ upper    = "ONE"`,
	},
	outputs: map[string]string{"upper": `"ONE"`, "id_upper": `"X-ONE"`},
	errors: map[string]string{
		`provider::stratafw::upper([1])`:         `Invalid value for "input" parameter: string required`,
		`provider::stratafw::upper("")`:          `Invalid value for "input" parameter: input must not be empty.`,
		`provider::stratafw::fail("boom")`:       `boom`,
		`provider::stratafw::join("-", "a", [])`: `Invalid value for "parts" parameter: string required`,
		`provider::stratafw::nope("a")`:          `The function "nope" is not available from the provider "stratafw".`,
		`provider::nope::upper("a")`:             `Ensure that provider name`,
	},
}, {
	name:   "protocol 5",
	mirror: testProviderMirrorV5,
	config: `terraform {
  required_providers {
    v5 = { source = "strata/stratav5" }
  }
}
resource "stratav5_thing" "a" {
  provider = v5
  name     = provider::v5::upper("thing")
}
output "repeat" {
  value = provider::v5::repeat("ab", 2, 1)
}
`,
	plan: []string{
		`+ name = "THING"`,
		`+ repeat = "ababab"`,
	},
	outputs: map[string]string{"repeat": `"ababab"`},
	errors: map[string]string{
		`provider::v5::upper("")`:        `Invalid value for "input" parameter: input must not be empty.`,
		`provider::v5::upper()`:          `Not enough function arguments`,
		`provider::stratav5::upper("a")`: `Ensure that provider name "stratav5" is declared`,
	},
}}

// TestE2EProviderFunctions plans and applies configurations calling the
// functions of real provider plugins, through protocols 6 and 5, checks
// the errors of bad calls, and, where terraform is installed, that
// Terraform plans the same configuration the same way.
func TestE2EProviderFunctions(t *testing.T) {
	t.Parallel()
	for _, tc := range functionCases {
		t.Run(tc.name, func(t *testing.T) {
			mirror := tc.mirror(t)
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), tc.config)
			mustInProcess(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
			plan := mustInProcess(t, dir, 2, "plan", "-no-color", "-detailed-exitcode")
			for _, line := range tc.plan {
				if !strings.Contains(plan.stdout, line) {
					t.Errorf("plan lacks %q:\n%s", line, plan.stdout)
				}
			}
			comparePlanWithTerraform(t, tc.config, mirror, plan.stdout)

			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
			r := mustInProcess(t, dir, 0, "output", "-json")
			var outs map[string]struct{ Value json.RawMessage }
			if err := json.Unmarshal([]byte(r.stdout), &outs); err != nil {
				t.Fatalf("output -json: %v\n%s", err, r.stdout)
			}
			for name, want := range tc.outputs {
				if got := string(outs[name].Value); got != want {
					t.Errorf("output %s = %s, want %s", name, got, want)
				}
			}
			mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

			for expr, want := range tc.errors {
				writeFile(t, filepath.Join(dir, "err.tf"), fmt.Sprintf("output \"e\" {\n  value = %s\n}\n", expr))
				r := mustInProcess(t, dir, 1, "validate", "-no-color")
				text := strings.Join(strings.Fields(r.stdout+r.stderr), " ")
				if !strings.Contains(text, want) || !strings.Contains(text, "on err.tf line 2") {
					t.Errorf("validate %s: want %q in\n%s%s", expr, want, r.stdout, r.stderr)
				}
			}
			os.Remove(filepath.Join(dir, "err.tf"))
			mustInProcess(t, dir, 0, "destroy", "-auto-approve", "-no-color")
		})
	}
}

// comparePlanWithTerraform plans config with Terraform, installing from
// the same mirror, and compares its human plan with strata's.
func comparePlanWithTerraform(t *testing.T, config, mirror, strataPlan string) {
	t.Helper()
	tf, err := referenceTerraform()
	if err != nil {
		t.Log("terraform is not installed: plan not compared")
		return
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	cliConfig := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	run := func(args ...string) string {
		r := runWith(t, dir, "", tf, []string{"TF_CLI_CONFIG_FILE=" + cliConfig}, args...)
		if r.code != 0 && r.code != 2 {
			t.Fatalf("terraform %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		return r.stdout + r.stderr
	}
	run("init", "-no-color")
	tfPlan := run("plan", "-no-color", "-detailed-exitcode")
	norm := func(s string) string {
		var keep []string
		for _, line := range strings.Split(s, "\n") {
			// strata does not show write-only attributes in plans yet,
			// which is not about functions.
			if strings.Contains(line, "(write-only attribute)") {
				continue
			}
			line = strings.ReplaceAll(line, "Terraform", "strata")
			line = strings.ReplaceAll(line, "terraform apply", "strata apply")
			keep = append(keep, line)
		}
		return strings.TrimSpace(strings.Join(keep, "\n"))
	}
	if got, want := norm(strataPlan), norm(tfPlan); got != want {
		t.Errorf("strata and Terraform plan differently\nstrata:\n%s\nterraform:\n%s", got, want)
	}
}

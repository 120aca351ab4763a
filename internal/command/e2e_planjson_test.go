package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// providerPlanCase is a plan of a configuration using a test provider
// plugin, compared with Terraform's: step1 is applied by Terraform, then
// step2 is planned by both tools from that state.
type providerPlanCase struct {
	name         string
	mirror       func(*testing.T) string
	step1, step2 string
	// want are strings strata's plan document must contain, so that the
	// case is known to exercise what it is about.
	want []string
}

const v5Required = `terraform {
  required_providers {
    stratav5 = { source = "strata/stratav5" }
  }
}
`

var providerPlanCases = []providerPlanCase{{
	// Adding two elements to a set block: the provider names the set's
	// path once per new element; the plan lists it once.
	name:   "replace paths of a set block",
	mirror: testProviderMirrorV5,
	step1: v5Required + `resource "stratav5_thing" "a" {
  name = "n"
  set { s = "one" }
}
`,
	step2: v5Required + `resource "stratav5_thing" "a" {
  name = "n"
  set { s = "two" }
  set { s = "three" }
}
`,
	want: []string{`"replace_paths":[["set"]]`},
}, {
	// The planned object of a replacement keeps the sensitivity of its
	// configuration but not that of the schema ("secret"); an update and
	// a create keep both.
	name:   "sensitivity of replaced objects",
	mirror: testProviderMirrorV5,
	step1: v5Required + `resource "stratav5_thing" "replace" {
  name   = "a"
  secret = "x"
}
resource "stratav5_thing" "cbd" {
  name   = "a"
  secret = "x"
  lifecycle {
    create_before_destroy = true
  }
}
resource "stratav5_thing" "update" {
  name   = "a"
  secret = "x"
}
`,
	step2: v5Required + `variable "s" {
  default   = "y"
  sensitive = true
}
resource "stratav5_thing" "replace" {
  name   = "b"
  secret = "x"
  size   = sensitive(4)
}
resource "stratav5_thing" "cbd" {
  name   = "b"
  secret = var.s
  lifecycle {
    create_before_destroy = true
  }
}
resource "stratav5_thing" "update" {
  name   = "a"
  secret = "x"
  size   = 2
}
resource "stratav5_thing" "create" {
  name   = "a"
  secret = "x"
}
`,
	want: []string{`"replace_paths":[["name"]]`, `"actions":["create","delete"]`},
}}

// TestE2EProviderPlanJSONMatchesTerraform plans each providerPlanCase with
// Terraform and with strata and compares their show -json documents.
func TestE2EProviderPlanJSONMatchesTerraform(t *testing.T) {
	tf := terraformBin(t)
	for _, c := range providerPlanCases {
		t.Run(c.name, func(t *testing.T) {
			mirror := c.mirror(t)
			dir, logDir := t.TempDir(), t.TempDir()
			writeFile(t, filepath.Join(dir, "cli.tfrc"), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
			run := func(bin string, want int, args ...string) string {
				t.Helper()
				r := ephemeralRun(t, bin, dir, logDir, args...)
				if r.code != want {
					t.Fatalf("%s %s: exit %d, want %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
				}
				return r.stdout
			}
			writeFile(t, filepath.Join(dir, "main.tf"), c.step1)
			run(tf, 0, "init", "-no-color", "-input=false")
			run(tf, 0, "apply", "-auto-approve", "-no-color", "-input=false")
			writeFile(t, filepath.Join(dir, "main.tf"), c.step2)
			run(tf, 0, "plan", "-no-color", "-input=false", "-out=tf.tfplan")
			run(strataBin, 0, "plan", "-no-color", "-input=false", "-out=strata.tfplan")
			want := run(tf, 0, "show", "-json", "tf.tfplan")
			got := run(strataBin, 0, "show", "-json", "strata.tfplan")
			parsePlanJSON(t, got)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("strata's plan lacks %s", w)
				}
			}
			compareShowJSON(t, "plan", want, got)
		})
	}
}

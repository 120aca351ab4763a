package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	t.Parallel()
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

// TestE2ECheckDataFailureMatchesTerraform: a data source nested in a check
// block that fails to read is recorded in the state all the same (its
// configuration, the attributes the provider sets null), and its errors
// make the check's failure message. Each tool applies in its own
// directory and the states are compared; then both plan from Terraform's
// state, the data source failing again, and the plans are compared.
func TestE2ECheckDataFailureMatchesTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	mirror := testProviderMirrorV5(t)
	config := v5Required + `check "one" {
  data "stratav5_echo" "e" {
    input = "fail"
  }
  assert {
    condition     = data.stratav5_echo.e.result != ""
    error_message = "no result"
  }
}
check "two" {
  data "stratav5_echo" "f" {
    input = "fail twice"
  }
  assert {
    condition     = data.stratav5_echo.f.result != ""
    error_message = "no result"
  }
}
`
	type recorded struct {
		Resources    []any `json:"resources"`
		CheckResults []any `json:"check_results"`
	}
	dirs := map[string]string{}
	states := map[string]recorded{}
	for _, bin := range []string{tf, strataBin} {
		dir, logDir := t.TempDir(), t.TempDir()
		dirs[bin] = dir
		writeFile(t, filepath.Join(dir, "cli.tfrc"), fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		for _, args := range [][]string{{"init", "-no-color", "-input=false"}, {"apply", "-auto-approve", "-no-color", "-input=false"}} {
			if r := ephemeralRun(t, bin, dir, logDir, args...); r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), args[0], r.code, r.stdout, r.stderr)
			}
		}
		var st recorded
		if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &st); err != nil {
			t.Fatal(err)
		}
		for _, list := range [][]any{st.Resources, st.CheckResults} {
			sort.Slice(list, func(i, j int) bool { return fmt.Sprint(list[i]) < fmt.Sprint(list[j]) })
		}
		states[bin] = st
	}
	if len(states[tf].Resources) != 2 {
		t.Errorf("terraform recorded %d resources, want the 2 data sources", len(states[tf].Resources))
	}
	if diff := cmp.Diff(states[tf], states[strataBin]); diff != "" {
		t.Errorf("recorded state differs (-terraform +strata)\n%s", diff)
	}

	dir, logDir := dirs[tf], t.TempDir()
	if r := ephemeralRun(t, tf, dir, logDir, "plan", "-no-color", "-input=false", "-out=tf.tfplan"); r.code != 0 {
		t.Fatalf("terraform plan: %s%s", r.stdout, r.stderr)
	}
	if r := ephemeralRun(t, strataBin, dir, logDir, "plan", "-no-color", "-input=false", "-out=strata.tfplan"); r.code != 0 {
		t.Fatalf("strata plan: %s%s", r.stdout, r.stderr)
	}
	want := ephemeralRun(t, tf, dir, logDir, "show", "-json", "tf.tfplan").stdout
	got := ephemeralRun(t, strataBin, dir, logDir, "show", "-json", "strata.tfplan").stdout
	compareShowJSON(t, "plan", want, got)
}

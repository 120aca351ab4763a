package command

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestE2EShowJSONVersionConstraintsMatchTerraform: the version_constraint
// of each provider configuration in a plan's "configuration" is
// Terraform's normalized form (full versions, duplicates removed, sorted
// by version and then operator), in the root module and in child modules,
// with the plan's other fields compared as TestE2EShowJSONMatchesTerraform
// compares them.
func TestE2EShowJSONVersionConstraintsMatchTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	cli := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	env := []string{"TF_CLI_CONFIG_FILE=" + cli, "TF_PLUGIN_CACHE_DIR="}
	writeTree(t, dir, map[string]string{
		"main.tf": `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw", version = "~>0.1,>=0.0.1, != 0.0.5, <= 1, >= 0.0.1" }
  }
}
provider "stratafw" {
  prefix = "x-"
}
provider "stratafw" {
  alias  = "b"
  prefix = "y-"
}
module "m" {
  source = "./m"
}
resource "stratafw_thing" "a" {
  provider = stratafw.b
  name     = "a"
}
`,
		"m/main.tf": `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw", version = "0.1.0, >= 0.1, ~> 0.1.0" }
  }
}
provider "stratafw" {
  prefix = "m-"
}
module "n" {
  source = "./n"
}
`,
		"m/n/main.tf": `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw", version = "< 2, != 2.0.0, <=2" }
  }
}
resource "stratafw_thing" "n" {
  name = "n"
}
`,
	})
	run := func(bin string, args ...string) string {
		t.Helper()
		r := runWith(t, dir, "", bin, env, args...)
		if r.code != 0 {
			t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		return r.stdout
	}
	run(tf, "init", "-no-color", "-input=false")
	run(tf, "plan", "-no-color", "-input=false", "-out=tf.tfplan")
	want := run(tf, "show", "-json", "tf.tfplan")
	run(strataBin, "plan", "-no-color", "-input=false", "-out=strata.tfplan")
	got := run(strataBin, "show", "-json", "strata.tfplan")
	for _, c := range []string{`">= 0.0.1, != 0.0.5, ~> 0.1, <= 1.0.0"`, `">= 0.1.0, 0.1.0, ~> 0.1.0"`} {
		// Both tools escape < and > in JSON strings.
		if !strings.Contains(strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(got), c) {
			t.Errorf("strata's plan lacks the constraint %s", c)
		}
	}
	compareShowJSON(t, "plan", want, got)
}

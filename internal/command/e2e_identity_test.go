package command

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// identityCases are the test providers' resource types with a resource
// identity (Terraform 1.12, protocol 5.9 / 6.9): {name, region}, name
// required to import, region optional (default "eu").
var identityCases = []struct {
	name, provider, source string
	mirror                 func(*testing.T) string
	version                float64 // identity schema version
}{
	{name: "protocol 6", provider: "stratafw", source: "strata/stratafw", mirror: testProviderMirror, version: 0},
	{name: "protocol 5", provider: "stratav5", source: "strata/stratav5", mirror: testProviderMirrorV5, version: 1},
}

// identityInstances returns the instances of the state file in dir by
// resource address (type.name), as raw JSON objects.
func identityInstances(t *testing.T, dir string) map[string]map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Type, Name string
			Instances  []map[string]any
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, r := range st.Resources {
		out[r.Type+"."+r.Name] = r.Instances[0]
	}
	return out
}

func identityOf(name, region string) map[string]any {
	return map[string]any{"name": name, "region": region}
}

// TestE2EResourceIdentity: with a provider that serves resource
// identities, over protocol 5 and 6, apply stores each object's identity
// and identity schema version in the state as Terraform 1.12 does, a plan
// sends them back (the v5 provider checks them) and plans no change, show
// -json shows them in the state and in a plan's changes, and import
// blocks adopt objects by identity, also generating their configuration.
// Resources without identity store none, as before.
func TestE2EResourceIdentity(t *testing.T) {
	t.Parallel()
	for _, tc := range identityCases {
		t.Run(tc.name, func(t *testing.T) {
			mirror := tc.mirror(t)
			dir := t.TempDir()
			cfg := requireProvider(tc.provider, tc.source, "") + `
resource "` + tc.provider + `_keyed" "a" {
  name = "one"
  note = "first"
}
resource "terraform_data" "plain" {
  input = ` + tc.provider + `_keyed.a.id
}
`
			writeFile(t, filepath.Join(dir, "main.tf"), cfg)
			mustInProcess(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")

			insts := identityInstances(t, dir)
			a := insts[tc.provider+"_keyed.a"]
			if diff := cmp.Diff(identityOf("one", "eu"), a["identity"]); diff != "" {
				t.Errorf("stored identity (-want +got):\n%s", diff)
			}
			if a["identity_schema_version"] != tc.version {
				t.Errorf("identity_schema_version %v, want %v", a["identity_schema_version"], tc.version)
			}
			plain := insts["terraform_data.plain"]
			if _, ok := plain["identity"]; ok {
				t.Errorf("terraform_data has an identity: %v", plain)
			}
			if _, ok := plain["identity_schema_version"]; ok {
				t.Errorf("terraform_data has an identity_schema_version: %v", plain)
			}

			// The refresh sends the identity back; nothing changes.
			mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

			show := mustInProcess(t, dir, 0, "show", "-json")
			var sdoc struct {
				Values struct {
					RootModule struct {
						Resources []map[string]any `json:"resources"`
					} `json:"root_module"`
				} `json:"values"`
			}
			if err := json.Unmarshal([]byte(show.stdout), &sdoc); err != nil {
				t.Fatal(err)
			}
			for _, r := range sdoc.Values.RootModule.Resources {
				switch r["address"] {
				case tc.provider + "_keyed.a":
					if diff := cmp.Diff(identityOf("one", "eu"), r["identity"]); diff != "" || r["identity_schema_version"] != tc.version {
						t.Errorf("show -json: identity (-want +got):\n%s\nversion %v", diff, r["identity_schema_version"])
					}
				default:
					if _, ok := r["identity"]; ok {
						t.Errorf("show -json: %v has an identity", r["address"])
					}
				}
			}

			// An update: the plan's change carries both identities.
			writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(cfg, `"first"`, `"second"`, 1))
			mustInProcess(t, dir, 2, "plan", "-no-color", "-detailed-exitcode", "-out=p.plan")
			pshow := mustInProcess(t, dir, 0, "show", "-json", "p.plan")
			var pdoc struct {
				ResourceChanges []struct {
					Address string
					Change  map[string]any
				} `json:"resource_changes"`
				PlannedValues struct {
					RootModule struct {
						Resources []map[string]any `json:"resources"`
					} `json:"root_module"`
				} `json:"planned_values"`
			}
			if err := json.Unmarshal([]byte(pshow.stdout), &pdoc); err != nil {
				t.Fatal(err)
			}
			for _, rc := range pdoc.ResourceChanges {
				if rc.Address != tc.provider+"_keyed.a" {
					continue
				}
				if diff := cmp.Diff(identityOf("one", "eu"), rc.Change["before_identity"]); diff != "" {
					t.Errorf("before_identity (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(identityOf("one", "eu"), rc.Change["after_identity"]); diff != "" {
					t.Errorf("after_identity (-want +got):\n%s", diff)
				}
			}
			for _, r := range pdoc.PlannedValues.RootModule.Resources {
				if r["address"] == tc.provider+"_keyed.a" && (r["identity_schema_version"] != tc.version || r["identity"] == nil) {
					t.Errorf("planned values: %v", r)
				}
			}
			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color", "p.plan")
			if got := identityInstances(t, dir)[tc.provider+"_keyed.a"]["identity"]; !cmp.Equal(identityOf("one", "eu"), got) {
				t.Errorf("identity after the update: %v", got)
			}

			// Import by identity, one block with a configured target and
			// one whose configuration is generated.
			importCfg := `
import {
  to       = ` + tc.provider + `_keyed.b
  identity = { name = "two", region = "us" }
}
resource "` + tc.provider + `_keyed" "b" {
  name   = "two"
  region = "us"
}
import {
  to       = ` + tc.provider + `_keyed.c
  identity = { name = "three" }
}
`
			writeFile(t, filepath.Join(dir, "import.tf"), importCfg)
			plan := mustInProcess(t, dir, 0, "plan", "-no-color", "-generate-config-out=generated.tf", "-out=i.plan")
			for _, want := range []string{
				tc.provider + `_keyed.b: Preparing import... [identity=name=two,region=us]`,
				tc.provider + `_keyed.c: Preparing import... [identity=name=three,region=<null>]`,
				`# ` + tc.provider + `_keyed.b will be imported`,
				`Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.`,
			} {
				if !strings.Contains(plan.stdout, want) {
					t.Errorf("plan lacks %q:\n%s", want, plan.stdout)
				}
			}
			gen, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"# __generated__ by strata\nresource \"" + tc.provider + `_keyed" "c" {`, `name   = "three"`, `region = "eu"`} {
				if !strings.Contains(string(gen), want) {
					t.Errorf("generated configuration lacks %q:\n%s", want, gen)
				}
			}
			ishow := mustInProcess(t, dir, 0, "show", "-json", "i.plan")
			if err := json.Unmarshal([]byte(ishow.stdout), &pdoc); err != nil {
				t.Fatal(err)
			}
			imported := 0
			for _, rc := range pdoc.ResourceChanges {
				im, ok := rc.Change["importing"].(map[string]any)
				if !ok {
					continue
				}
				imported++
				want := map[string]any{"identity": identityOf("two", "us")}
				if rc.Address == tc.provider+"_keyed.c" {
					// The provider completes the identity the block gave.
					want = map[string]any{"identity": identityOf("three", "eu")}
				}
				if diff := cmp.Diff(want, im); diff != "" {
					t.Errorf("%s importing (-want +got):\n%s", rc.Address, diff)
				}
			}
			if imported != 2 {
				t.Errorf("%d changes import, want 2", imported)
			}
			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color", "i.plan")
			insts = identityInstances(t, dir)
			for addr, want := range map[string]map[string]any{"b": identityOf("two", "us"), "c": identityOf("three", "eu")} {
				if diff := cmp.Diff(want, insts[tc.provider+"_keyed."+addr]["identity"]); diff != "" {
					t.Errorf("imported %s's identity (-want +got):\n%s", addr, diff)
				}
			}
			mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
		})
	}
}

// TestE2EResourceIdentityContract: strata refuses what Terraform refuses
// of identities, and upgrades identities stored by an older identity
// schema version through the provider.
func TestE2EResourceIdentityContract(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirrorV5(t)
	dir := t.TempDir()
	cfg := requireProvider("stratav5", "strata/stratav5", "") + `
resource "stratav5_keyed" "a" {
  name = "one"
  note = "first"
}
`
	writeFile(t, filepath.Join(dir, "main.tf"), cfg)
	mustInProcess(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
	mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")

	t.Run("upgrade", func(t *testing.T) {
		// A state written when the identity schema was at version 0.
		path := filepath.Join(dir, "terraform.tfstate")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		old := strings.Replace(string(raw), `"identity_schema_version": 1`, `"identity_schema_version": 0`, 1)
		old = strings.Replace(old, `"identity": {
            "name": "one",
            "region": "eu"
          }`, `"identity": {"key": "eu/one"}`, 1)
		if old == string(raw) || !strings.Contains(old, `"key": "eu/one"`) {
			t.Fatalf("could not rewrite the identity in:\n%s", raw)
		}
		writeFile(t, path, old)
		mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
		mustInProcess(t, dir, 0, "apply", "-refresh-only", "-auto-approve", "-no-color")
		a := identityInstances(t, dir)["stratav5_keyed.a"]
		if a["identity_schema_version"] != 1.0 || !cmp.Equal(identityOf("one", "eu"), a["identity"]) {
			t.Errorf("after the refresh: version %v, identity %v", a["identity_schema_version"], a["identity"])
		}
	})

	t.Run("unknown planned identity", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(cfg, `"first"`, `"unknown-identity"`, 1))
		r := mustInProcess(t, dir, 1, "plan", "-no-color")
		flat := strings.Join(strings.Fields(r.stderr), " ")
		if !strings.Contains(flat, "Provider produced invalid identity") || !strings.Contains(flat, "returned an identity with unknown values for stratav5_keyed.a.") {
			t.Errorf("plan with an unknown identity for an update:\n%s", r.stderr)
		}
	})

	t.Run("for_each", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "main.tf"), cfg+`
locals {
  regions = { b = "us", c = "ap" }
}
import {
  for_each = local.regions
  to       = stratav5_keyed.m[each.key]
  identity = { name = each.key, region = each.value }
}
resource "stratav5_keyed" "m" {
  for_each = local.regions
  name     = each.key
  region   = each.value
}
`)
		r := mustInProcess(t, dir, 0, "plan", "-no-color")
		for _, want := range []string{
			`stratav5_keyed.m["b"]: Preparing import... [identity=name=b,region=us]`,
			`stratav5_keyed.m["c"]: Preparing import... [identity=name=c,region=ap]`,
			`Plan: 2 to import, 0 to add, 0 to change, 0 to destroy.`,
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("plan lacks %q:\n%s", want, r.stdout)
			}
		}
	})

	t.Run("import command", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "main.tf"), cfg+`
resource "stratav5_keyed" "z" {
  name   = "z"
  region = "ap"
}
`)
		mustInProcess(t, dir, 0, "import", "-no-color", "stratav5_keyed.z", "ap/z")
		z := identityInstances(t, dir)["stratav5_keyed.z"]
		if !cmp.Equal(identityOf("z", "ap"), z["identity"]) || z["identity_schema_version"] != 1.0 {
			t.Errorf("imported: identity %v, version %v", z["identity"], z["identity_schema_version"])
		}
		mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	})

	t.Run("identity of a type without one", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "main.tf"), cfg+`
import {
  to       = stratav5_thing.t
  identity = { id = "x" }
}
resource "stratav5_thing" "t" {
  name = "t"
}
`)
		r := mustInProcess(t, dir, 1, "plan", "-no-color")
		if !strings.Contains(r.stderr, "Invalid import identity argument") {
			t.Errorf("import by identity of a type without one:\n%s", r.stderr)
		}
	})

	t.Run("identity missing a required attribute", func(t *testing.T) {
		writeFile(t, filepath.Join(dir, "main.tf"), cfg+`
import {
  to       = stratav5_keyed.b
  identity = { region = "us" }
}
resource "stratav5_keyed" "b" {
  name = "b"
}
`)
		r := mustInProcess(t, dir, 1, "plan", "-no-color")
		if !strings.Contains(r.stderr, `attribute "name" is required`) {
			t.Errorf("import by an incomplete identity:\n%s", r.stderr)
		}
	})
}

// TestE2EResourceIdentityWithTerraform: Terraform 1.11, which predates
// resource identity, works on a state in which strata stored identities
// (it ignores the fields) and plans no change; its refresh drops them,
// and strata's next refresh stores them again.
func TestE2EResourceIdentityWithTerraform(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	mirror := testProviderMirror(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), requireProvider("stratafw", "strata/stratafw", "")+`
resource "stratafw_keyed" "a" {
  name = "one"
}
`)
	cliConfig := filepath.Join(dir, "cli.tfrc")
	writeFile(t, cliConfig, "provider_installation {\n  filesystem_mirror {\n    path = \""+mirror+"\"\n  }\n}\n")
	tfrun := func(args ...string) result {
		t.Helper()
		r := runWith(t, dir, "", tf, []string{"TF_CLI_CONFIG_FILE=" + cliConfig}, args...)
		return result{stdout: r.stdout + r.stderr, code: r.code}
	}
	if r := tfrun("init", "-no-color"); r.code != 0 {
		t.Fatalf("terraform init: %s", r.stdout)
	}
	mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if got := identityInstances(t, dir)["stratafw_keyed.a"]["identity"]; !cmp.Equal(identityOf("one", "eu"), got) {
		t.Fatalf("strata stored identity %v", got)
	}
	if r := tfrun("plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("terraform plans changes on strata's state (exit %d):\n%s", r.code, r.stdout)
	}
	if r := tfrun("apply", "-refresh-only", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("terraform refresh: %s", r.stdout)
	}
	a := identityInstances(t, dir)["stratafw_keyed.a"]
	if _, ok := a["identity"]; ok {
		t.Logf("terraform kept the identity: %v", a)
	}
	mustInProcess(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	mustInProcess(t, dir, 0, "apply", "-refresh-only", "-auto-approve", "-no-color")
	a = identityInstances(t, dir)["stratafw_keyed.a"]
	if !cmp.Equal(identityOf("one", "eu"), a["identity"]) || a["identity_schema_version"] != 0.0 {
		t.Errorf("after strata's refresh: identity %v, version %v", a["identity"], a["identity_schema_version"])
	}
}

// TestE2EResourceIdentityChange: an update whose provider returns another
// identity for the object breaks the identity_stable rule, which
// Terraform does not check: strata saves the object and reports the
// violation after the apply, and refuses it in strict mode.
func TestE2EResourceIdentityChange(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirrorV5(t)
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			dir := t.TempDir()
			cfg := requireProvider("stratav5", "strata/stratav5", "") + `
resource "stratav5_keyed" "a" {
  name = "one"
  note = "first"
}
`
			writeFile(t, filepath.Join(dir, "main.tf"), cfg)
			mustInProcess(t, dir, 0, "init", "-no-color", "-plugin-dir="+mirror)
			mustInProcess(t, dir, 0, "apply", "-auto-approve", "-no-color")
			writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(cfg, `"first"`, `"change-identity"`, 1))
			args := []string{"apply", "-auto-approve", "-no-color"}
			want := 0
			if strict {
				args, want = append(args, "-strict"), 1
			}
			r := mustInProcess(t, dir, want, args...)
			out := strings.Join(strings.Fields(r.stdout+r.stderr), " ")
			line := "the identity changed when it was updated, from name=one,region=eu to name=one,region=eu-moved"
			if !strings.Contains(out, line) {
				t.Errorf("output lacks %q:\n%s%s", line, r.stdout, r.stderr)
			}
			summary := "Provider contract violations tolerated"
			if strict {
				summary = "Provider changed the identity of an existing object"
			}
			if !strings.Contains(out, summary) {
				t.Errorf("output lacks %q:\n%s%s", summary, r.stdout, r.stderr)
			}
			// The object is saved with what the provider returned.
			if got := identityInstances(t, dir)["stratav5_keyed.a"]["identity"]; !cmp.Equal(identityOf("one", "eu-moved"), got) {
				t.Errorf("saved identity %v", got)
			}
		})
	}
}

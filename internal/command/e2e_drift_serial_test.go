package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const driftSerialConfig = `terraform {
  required_providers {
    stratafw = { source = "strata/stratafw" }
  }
}

# d's description may change outside, and is never planned back.
resource "stratafw_thing" "d" {
  name        = "d"
  description = "orig"
  lifecycle {
    ignore_changes = [description]
  }
}

variable "o" {
  default = "one"
}
output "o" {
  value = var.o
}
`

// driftSerialStep is one command of TestE2EDriftSerial, run with the
// stratafw provider seeing d's description as drift (none when "").
type driftSerialStep struct {
	args  []string
	drift string
	// edit changes the state file before the step, keeping its content.
	edit string
}

// driftSerialEdits are the ways a state is edited by hand without
// changing its content.
var driftSerialEdits = map[string]func(t *testing.T, data []byte) []byte{
	// Another layout: four spaces, no final newline.
	"relayout": func(t *testing.T, data []byte) []byte {
		var b bytes.Buffer
		if err := json.Indent(&b, bytes.TrimSpace(data), "", "    "); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	},
	// Written by an older Terraform.
	"older version": func(t *testing.T, data []byte) []byte {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		m["terraform_version"] = "1.5.0"
		out, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return out
	},
}

// driftSerialResult is what a step leaves in the state: how far the
// serial moved, d's description and the output.
type driftSerialResult struct {
	Step        string
	SerialDelta int64
	Description string
	Output      string
	Version     string
}

// TestE2EDriftSerial: an apply whose only effect is what refresh found
// (an object changed outside, in an attribute that is never planned
// back), or a new output value, writes the state with the next serial,
// and one that changes nothing leaves the serial alone, exactly when
// Terraform does; likewise -refresh-only, -refresh=false, refresh, and
// plan (which never writes). Each step's serial delta, and what the
// state then records, is compared with terraform's on the same steps.
func TestE2EDriftSerial(t *testing.T) {
	t.Parallel() // its own directories
	mirror := testProviderMirror(t)
	steps := []driftSerialStep{
		{args: []string{"apply", "-auto-approve"}},
		{args: []string{"apply", "-auto-approve"}, drift: "x1"},
		{args: []string{"apply", "-auto-approve"}, drift: "x1"},
		{args: []string{"apply", "-auto-approve", "-refresh=false"}, drift: "x2"},
		{args: []string{"apply", "-auto-approve", "-refresh-only"}, drift: "x2"},
		{args: []string{"apply", "-auto-approve", "-refresh-only"}, drift: "x2"},
		{args: []string{"apply", "-auto-approve", "-var=o=two"}, drift: "x2"},
		{args: []string{"apply", "-auto-approve", "-var=o=two"}, drift: "x2"},
		{args: []string{"plan"}, drift: "x3"},
		{args: []string{"refresh"}, drift: "x3"},
		{args: []string{"refresh"}, drift: "x3"},
		{args: []string{"apply", "-auto-approve", "-refresh-only", "-var=o=three"}, drift: "x3"},
		// The same state laid out otherwise, or recorded by an older
		// version, is the same snapshot.
		{args: []string{"apply", "-auto-approve", "-var=o=three"}, drift: "x3", edit: "relayout"},
		{args: []string{"apply", "-auto-approve", "-var=o=three"}, drift: "x3", edit: "older version"},
		{args: []string{"apply", "-auto-approve", "-var=o=three"}, drift: "x4", edit: "relayout"},
		{args: []string{"refresh", "-var=o=three"}, drift: "x4", edit: "older version"},
	}
	run := func(bin string) []driftSerialResult {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), driftSerialConfig)
		cliConfig := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		driftDir := t.TempDir()
		exe := func(args ...string) {
			t.Helper()
			r := runWith(t, dir, "", bin, []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "TF_IN_AUTOMATION=", "STRATAFW_DRIFT_DIR=" + driftDir}, append(args, "-no-color", "-input=false")...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
		}
		type stateDoc struct {
			Serial           int64
			TerraformVersion string `json:"terraform_version"`
			Outputs          map[string]struct{ Value string }
			// d is the only resource.
			Resources []struct {
				Instances []struct {
					Attributes struct{ ID, Description string }
				}
			}
		}
		read := func() stateDoc {
			t.Helper()
			var s stateDoc
			if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		exe("init")
		exe("apply", "-auto-approve")
		var out []driftSerialResult
		for _, st := range steps {
			if st.edit != "" {
				path := filepath.Join(dir, "terraform.tfstate")
				writeFile(t, path, string(driftSerialEdits[st.edit](t, readFile(t, path))))
			}
			before := read()
			id := before.Resources[0].Instances[0].Attributes.ID
			os.RemoveAll(driftDir)
			if err := os.MkdirAll(driftDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if st.drift != "" {
				writeFile(t, filepath.Join(driftDir, id+".json"), fmt.Sprintf(`{"description": %q}`, st.drift))
			}
			exe(st.args...)
			after := read()
			out = append(out, driftSerialResult{
				Step:        strings.Join(st.args, " ") + " (drift " + st.drift + ", edit " + st.edit + ")",
				SerialDelta: after.Serial - before.Serial,
				Description: after.Resources[0].Instances[0].Attributes.Description,
				Output:      after.Outputs["o"].Value,
				Version:     after.TerraformVersion,
			})
		}
		return out
	}
	got := run(strataBin)
	// Terraform's serial deltas on these steps (checked below when it is
	// installed): the next serial exactly when the content changed.
	wantDeltas := []int64{0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0}
	var deltas []int64
	for _, r := range got {
		deltas = append(deltas, r.SerialDelta)
	}
	if diff := cmp.Diff(wantDeltas, deltas); diff != "" {
		t.Errorf("serial deltas (-want +got):\n%s", diff)
	}
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed: nothing to compare with")
	}
	want := run(tf)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
	}
}

// TestE2ERefreshDataSources: refresh, apply -refresh-only and a plain
// apply record a data source's new result (with the next serial), as
// Terraform does; a refresh forgets a data source no longer configured,
// reads a check's data source without planning anything, and leaves one
// whose configuration is not known yet unread. The states, serial deltas
// and refresh-only plans are compared with terraform's.
func TestE2ERefreshDataSources(t *testing.T) {
	t.Parallel()
	type stepResult struct {
		Step        string
		SerialDelta int64
		Resources   string
		Plan        string
	}
	remote := func(name, path string) string {
		return fmt.Sprintf("data \"terraform_remote_state\" %q {\n  backend = \"local\"\n  config = { path = %s }\n}\n", name, path)
	}
	reads := "resource \"terraform_data\" \"a\" {}\n" + remote("up", `"../up/terraform.tfstate"`)
	later := "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"x\" {\n  input = \"../up/terraform.tfstate\"\n}\n" +
		remote("unknown", "terraform_data.x.output") +
		"check \"c\" {\n" + remote("in_check", `"../up/terraform.tfstate"`) +
		"  assert {\n    condition     = data.terraform_remote_state.in_check.outputs.v == \"0\"\n    error_message = \"v is not 0\"\n  }\n}\n"
	steps := []struct {
		name, config, upValue string
		args                  []string
	}{
		{"apply, nothing changed", reads, "1", []string{"apply", "-auto-approve"}},
		{"apply, the data source's result changed", reads, "2", []string{"apply", "-auto-approve"}},
		{"refresh, changed", reads, "3", []string{"refresh"}},
		{"refresh, unchanged", reads, "3", []string{"refresh"}},
		{"apply -refresh-only, changed", reads, "4", []string{"apply", "-refresh-only", "-auto-approve"}},
		{"refresh-only, no longer configured, unknown, in a check", later, "4", []string{"apply", "-refresh-only", "-auto-approve"}},
	}
	run := func(bin string) []stepResult {
		root := t.TempDir()
		up, down := filepath.Join(root, "up"), filepath.Join(root, "down")
		for _, d := range []string{up, down} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		exe := func(dir string, args ...string) string {
			t.Helper()
			r := runIn(t, dir, "", bin, append(args, "-no-color", "-input=false")...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r.stdout
		}
		writeFile(t, filepath.Join(up, "main.tf"), "variable \"v\" {}\noutput \"v\" {\n  value = var.v\n}\n")
		exe(up, "apply", "-auto-approve", "-var=v=1")
		writeFile(t, filepath.Join(down, "main.tf"), reads)
		exe(down, "init")
		exe(down, "apply", "-auto-approve")
		type stateDoc struct {
			Serial    int64
			Resources []struct {
				Mode, Name string
				Instances  []struct {
					Attributes struct {
						Outputs struct{ Value map[string]string }
					}
				}
			}
		}
		read := func() stateDoc {
			var s stateDoc
			if err := json.Unmarshal(readFile(t, filepath.Join(down, "terraform.tfstate")), &s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		var out []stepResult
		for _, st := range steps {
			exe(up, "apply", "-auto-approve", "-var=v="+st.upValue)
			writeFile(t, filepath.Join(down, "main.tf"), st.config)
			before := read()
			plan := exe(down, "plan", "-refresh-only")
			exe(down, st.args...)
			after := read()
			var res []string
			for _, r := range after.Resources {
				res = append(res, fmt.Sprintf("%s.%s %v", r.Mode, r.Name, r.Instances[0].Attributes.Outputs.Value))
			}
			out = append(out, stepResult{
				Step:        st.name,
				SerialDelta: after.Serial - before.Serial,
				Resources:   strings.Join(res, " "),
				Plan:        normalize(strings.NewReplacer("Terraform", "strata").Replace(plan)),
			})
		}
		return out
	}
	got := run(strataBin)
	// The serial moves exactly when a data source's result changes, or
	// one leaves the state.
	var deltas []int64
	for _, r := range got {
		deltas = append(deltas, r.SerialDelta)
	}
	if diff := cmp.Diff([]int64{0, 1, 1, 0, 1, 1}, deltas); diff != "" {
		t.Errorf("serial deltas (-want +got):\n%s", diff)
	}
	if last := got[len(got)-1].Resources; last != "data.in_check map[v:4] managed.a map[]" {
		t.Errorf("state after the last refresh: %s", last)
	}
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed: nothing to compare with")
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
	}
}

// TestE2ERefreshCheckResults: apply -refresh-only checks the assertions
// and records their results; the refresh command reports failures but
// records no check results, as Terraform's does. The serial moves with
// that, and the output, check results and serial deltas are compared
// with terraform's.
func TestE2ERefreshCheckResults(t *testing.T) {
	t.Parallel()
	config := `variable "v" {
  default = "1"
}
resource "terraform_data" "a" {}
check "c" {
  assert {
    condition     = var.v == "1"
    error_message = "v is not 1"
  }
}
output "o" {
  value = "x"
}
`
	type stepResult struct {
		Step         string
		SerialDelta  int64
		CheckResults string
		Output       string
	}
	steps := [][]string{
		{"refresh", "-var=v=1"},
		{"refresh", "-var=v=1"},
		{"apply", "-refresh-only", "-auto-approve", "-var=v=2"},
		{"apply", "-refresh-only", "-auto-approve", "-var=v=2"},
		{"refresh", "-var=v=2"},
		{"apply", "-auto-approve", "-var=v=1"},
		{"apply", "-refresh-only", "-auto-approve", "-var=v=1"},
	}
	run := func(bin string) []stepResult {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), config)
		exe := func(args ...string) result {
			t.Helper()
			r := runIn(t, dir, "", bin, append(args, "-no-color", "-input=false")...)
			if r.code != 0 {
				t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(bin), strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
			return r
		}
		type stateDoc struct {
			Serial       int64
			CheckResults json.RawMessage `json:"check_results"`
		}
		read := func() stateDoc {
			var s stateDoc
			if err := json.Unmarshal(readFile(t, filepath.Join(dir, "terraform.tfstate")), &s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		exe("init")
		exe("apply", "-auto-approve")
		var out []stepResult
		for _, args := range steps {
			before := read()
			r := exe(args...)
			after := read()
			var compact bytes.Buffer
			if err := json.Compact(&compact, after.CheckResults); err != nil {
				t.Fatal(err)
			}
			out = append(out, stepResult{
				Step:         strings.Join(args, " "),
				SerialDelta:  after.Serial - before.Serial,
				CheckResults: compact.String(),
				Output:       normalize(strings.NewReplacer("Terraform", "strata").Replace(r.stdout + r.stderr)),
			})
		}
		return out
	}
	got := run(strataBin)
	var deltas []int64
	var results []string
	for _, r := range got {
		deltas = append(deltas, r.SerialDelta)
		results = append(results, r.CheckResults)
	}
	if diff := cmp.Diff([]int64{1, 0, 1, 0, 1, 1, 0}, deltas); diff != "" {
		t.Errorf("serial deltas (-want +got):\n%s", diff)
	}
	pass := `[{"object_kind":"check","config_addr":"check.c","status":"pass","objects":[{"object_addr":"check.c","status":"pass"}]}]`
	fail := `[{"object_kind":"check","config_addr":"check.c","status":"fail","objects":[{"object_addr":"check.c","status":"fail","failure_messages":["v is not 1"]}]}]`
	if diff := cmp.Diff([]string{"null", "null", fail, fail, "null", pass, pass}, results); diff != "" {
		t.Errorf("check results (-want +got):\n%s", diff)
	}
	tf, err := referenceTerraform()
	if err != nil {
		t.Skip("terraform is not installed: nothing to compare with")
	}
	if diff := cmp.Diff(run(tf), got); diff != "" {
		t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
	}
}

// TestE2ERefreshOnlyPrompt: apply -refresh-only that found drift asks
// Terraform's question for writing it to the state, and "no" leaves the
// state alone; the prompt and what follows are compared with terraform's
// when installed.
func TestE2ERefreshOnlyPrompt(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	run := func(bin string) (string, int) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), driftSerialConfig)
		cliConfig := filepath.Join(dir, "cli.tfrc")
		writeFile(t, cliConfig, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
		driftDir := t.TempDir()
		env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "STRATAFW_DRIFT_DIR=" + driftDir, "TF_IN_AUTOMATION="}
		exe := func(stdin string, args ...string) result {
			return runWith(t, dir, stdin, bin, env, append(args, "-no-color")...)
		}
		for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
			if r := exe("", args...); r.code != 0 {
				t.Fatalf("%s %v: %s", bin, args, r.stderr)
			}
		}
		var s struct {
			Resources []struct {
				Instances []struct{ Attributes struct{ ID string } }
			}
		}
		state := readFile(t, filepath.Join(dir, "terraform.tfstate"))
		if err := json.Unmarshal(state, &s); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(driftDir, s.Resources[0].Instances[0].Attributes.ID+".json"), `{"description": "changed"}`)
		r := exe("no\n", "apply", "-refresh-only")
		if after := readFile(t, filepath.Join(dir, "terraform.tfstate")); !bytes.Equal(after, state) {
			t.Errorf("%s: answering no changed the state", bin)
		}
		out := r.stdout
		if i := strings.Index(out, "Would you like"); i >= 0 {
			out = out[i:]
		}
		return out, r.code
	}
	got, code := run(strataBin)
	want := "Would you like to update the strata state to reflect these detected changes?\n  strata will write these changes to the state without modifying any real infrastructure.\n  There is no undo. Only 'yes' will be accepted to confirm.\n\n  Enter a value: \nApply cancelled.\n"
	if got != want || code != 1 {
		t.Errorf("exit %d, after the plan:\n%s\nwant exit 1 and\n%s", code, got, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfOut, tfCode := run(tf)
		tfOut = strings.ReplaceAll(tfOut, "Terraform", "strata")
		if tfOut != got || tfCode != code {
			t.Errorf("differs from terraform: exit %d\n%s", tfCode, tfOut)
		}
	}
}

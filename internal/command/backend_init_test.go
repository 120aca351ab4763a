package command

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// The tests of init's backend step: -backend-config, the backend state
// file .terraform/terraform.tfstate, the changed-backend errors,
// -reconfigure and -migrate-state, against a real PostgreSQL server (see
// package pgtest).

// backendStateFile is .terraform/terraform.tfstate as Terraform writes it.
type backendStateFile struct {
	Version          int    `json:"version"`
	TerraformVersion string `json:"terraform_version"`
	Backend          *struct {
		Type   string          `json:"type"`
		Config json.RawMessage `json:"config"`
		Hash   uint64          `json:"hash"`
	} `json:"backend,omitempty"`
}

// readBackendFile decodes .terraform/terraform.tfstate in dir.
func readBackendFile(t *testing.T, dir string) backendStateFile {
	t.Helper()
	var f backendStateFile
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, ".terraform", "terraform.tfstate")), &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// stateHead is a state file's lineage and serial.
type stateHead struct {
	Lineage string
	Serial  uint64
}

func readStateHead(t *testing.T, path string) stateHead {
	t.Helper()
	var h stateHead
	data := readFile(t, path)
	if len(data) == 0 {
		return h
	}
	if err := json.Unmarshal(data, &h); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return h
}

func mustStrataIn(t *testing.T, dir, stdin string, want int, args ...string) result {
	t.Helper()
	r := runIn(t, dir, stdin, strataBin, args...)
	if r.code != want {
		t.Fatalf("strata %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
	}
	return r
}

// TestE2EBackendConfigPartial: -backend-config files and KEY=VALUE pairs
// complete the backend block; init records the result, later commands
// use it without the options, and a changed block is an error until init
// runs again.
func TestE2EBackendConfigPartial(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  backend "pg" {
    schema_name = "partial"
  }
}
resource "terraform_data" "a" {
  input = "x"
}
`)
	writeFile(t, filepath.Join(dir, "pg.tfbackend"), "conn_str = \""+conn+"\"\nschema_name = \"overridden\"\n")
	r := mustStrata(t, dir, 1, "init", "-no-color", "-backend-config=bucket=b")
	if !strings.Contains(flat(r.stderr), `The backend configuration argument "bucket" given on the command line is not expected for the selected backend type.`) {
		t.Errorf("unknown -backend-config key:\n%s", r.stderr)
	}
	r = mustStrata(t, dir, 1, "init", "-no-color", "-backend-config=skip_table_creation=perhaps")
	if !strings.Contains(flat(r.stderr), "Invalid backend configuration value") {
		t.Errorf("bad -backend-config value:\n%s", r.stderr)
	}
	r = mustStrata(t, dir, 0, "init", "-no-color", "-backend-config=pg.tfbackend", "-backend-config=schema_name=partial", "-backend-config=skip_index_creation=true")
	if !strings.Contains(flat(r.stdout), `Successfully configured the backend "pg"!`) {
		t.Errorf("init:\n%s", r.stdout)
	}
	f := readBackendFile(t, dir)
	var cfg map[string]any
	if err := json.Unmarshal(f.Backend.Config, &cfg); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"conn_str": conn, "schema_name": "partial", "skip_index_creation": true, "skip_schema_creation": nil, "skip_table_creation": nil}
	if f.Version != 3 || f.Backend.Type != "pg" || f.Backend.Hash == 0 || !jsonEqual(cfg, want) {
		t.Fatalf("backend state file: %+v\nconfig %v", f, cfg)
	}

	// Later commands use the recorded configuration.
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if doc, ok := readPGState(t, conn, "partial", "default"); !ok || len(doc.Resources) != 1 {
		t.Fatalf("state in schema partial: %+v (found %v)", doc, ok)
	}
	// Running init again, with or without the options, changes nothing.
	mustStrata(t, dir, 0, "init", "-no-color", "-backend-config=pg.tfbackend", "-backend-config=schema_name=partial", "-backend-config=skip_index_creation=true")
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")

	// A changed block.
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(string(readFile(t, filepath.Join(dir, "main.tf"))), `"partial"`, `"moved"`, 1))
	for _, cmd := range [][]string{{"plan"}, {"apply", "-auto-approve"}, {"state", "list"}, {"output"}} {
		r := mustStrata(t, dir, 1, append(cmd, "-no-color")...)
		if !strings.Contains(r.stderr, `Error: Backend initialization required: please run "strata init"`) || !strings.Contains(r.stderr, "Reason: Backend configuration block has changed") {
			t.Errorf("%s with a changed backend block:\n%s", cmd[0], r.stderr)
		}
	}
	r = mustStrata(t, dir, 1, "init", "-no-color", "-backend-config=pg.tfbackend")
	if !strings.Contains(flat(r.stderr), `Error: Backend configuration changed`) || !strings.Contains(flat(r.stderr), `use "strata init -migrate-state"`) {
		t.Errorf("init after the change:\n%s", r.stderr)
	}
	// -reconfigure takes the new configuration and leaves the state where
	// it was.
	mustStrata(t, dir, 0, "init", "-no-color", "-reconfigure", "-backend-config=conn_str="+conn)
	r = mustStrata(t, dir, 2, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(r.stdout, "1 to add") {
		t.Errorf("plan on the new schema:\n%s", r.stdout)
	}
	if doc, _ := readPGState(t, conn, "partial", "default"); len(doc.Resources) != 1 {
		t.Errorf("the old schema's state changed: %+v", doc)
	}
	// Back to the old block: the recorded configuration no longer matches.
	writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(string(readFile(t, filepath.Join(dir, "main.tf"))), `"moved"`, `"partial"`, 1))
	mustStrata(t, dir, 1, "plan", "-no-color")
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestE2EMigrateStateLocalPGLocal: local state of two workspaces moves to
// pg and back with init, keeping lineage and serial, with Terraform's
// questions.
func TestE2EMigrateStateLocalPGLocal(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	body := `resource "terraform_data" "a" {
  input = terraform.workspace
}
output "ws" {
  value = terraform_data.a.output
}
`
	writeFile(t, filepath.Join(dir, "main.tf"), body)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "workspace", "new", "-no-color", "w2")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-replace=terraform_data.a")
	mustStrata(t, dir, 0, "workspace", "select", "-no-color", "default")
	local := map[string]string{"default": filepath.Join(dir, "terraform.tfstate"), "w2": filepath.Join(dir, "terraform.tfstate.d", "w2", "terraform.tfstate")}
	before := map[string]stateHead{}
	for ws, p := range local {
		before[ws] = readStateHead(t, p)
	}

	writeFile(t, filepath.Join(dir, "backend.tf"), pgBackendConfig(conn, ""))
	// Local state exists, so the new backend needs init first.
	r := mustStrata(t, dir, 1, "plan", "-no-color")
	if !strings.Contains(r.stderr, `Error: Backend initialization required, please run "strata init"`) || !strings.Contains(r.stderr, `Reason: Initial configuration of the requested backend "pg"`) {
		t.Fatalf("plan before init:\n%s", r.stderr)
	}
	// "no" aborts, and nothing moves.
	r = mustStrataIn(t, dir, "no\n", 1, "init", "-no-color")
	if !strings.Contains(r.stdout, `Do you want to migrate all workspaces to "pg"?`) || !strings.Contains(r.stderr, "Migration aborted by user.") {
		t.Fatalf("init answered no:\n%s\n%s", r.stdout, r.stderr)
	}
	if _, ok := readPGState(t, conn, "terraform_remote_state", "default"); ok {
		t.Fatal("state copied although the user said no")
	}
	// -input=false cannot ask.
	r = mustStrata(t, dir, 1, "init", "-no-color", "-input=false")
	if !strings.Contains(r.stderr, "Can't ask approval for state migration when interactive input is disabled") {
		t.Fatalf("init -input=false:\n%s", r.stderr)
	}
	mustStrataIn(t, dir, "yes\n", 0, "init", "-no-color")
	for ws, p := range local {
		doc, ok := readPGState(t, conn, "terraform_remote_state", ws)
		if !ok || doc.Lineage != before[ws].Lineage || doc.Serial != before[ws].Serial || len(doc.Resources) != 1 {
			t.Errorf("workspace %s in pg: %+v, want lineage %s serial %d", ws, doc, before[ws].Lineage, before[ws].Serial)
		}
		if st, err := os.Stat(p); err != nil || st.Size() != 0 {
			t.Errorf("the local state %s was not emptied", p)
		}
		if h := readStateHead(t, p+".backup"); h != before[ws] {
			t.Errorf("backup of %s: %+v", p, h)
		}
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if r := runEnv(t, dir, []string{"TF_WORKSPACE=w2"}, strataBin, "plan", "-no-color", "-detailed-exitcode"); r.code != 0 {
		t.Fatalf("plan in w2 after the migration: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// A change made in pg, then back to local.
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-replace=terraform_data.a")
	inPG, _ := readPGState(t, conn, "terraform_remote_state", "default")

	os.Remove(filepath.Join(dir, "backend.tf"))
	r = mustStrata(t, dir, 1, "plan", "-no-color")
	if !strings.Contains(r.stderr, `Reason: Unsetting the previously set backend "pg"`) {
		t.Fatalf("plan after removing the backend:\n%s", r.stderr)
	}
	mustStrata(t, dir, 1, "init", "-no-color")
	r = mustStrata(t, dir, 0, "init", "-no-color", "-migrate-state", "-force-copy")
	if !strings.Contains(flat(r.stdout), `Successfully unset the backend "pg". strata will now operate locally.`) {
		t.Errorf("init -migrate-state:\n%s", r.stdout)
	}
	if f := readBackendFile(t, dir); f.Backend != nil || f.Version != 3 {
		t.Errorf("backend state file after unsetting: %+v", f)
	}
	if h := readStateHead(t, local["default"]); h.Lineage != inPG.Lineage || h.Serial != inPG.Serial {
		t.Errorf("default back in local: %+v, want %s %d", h, inPG.Lineage, inPG.Serial)
	}
	if h := readStateHead(t, local["w2"]); h != before["w2"] {
		t.Errorf("w2 back in local: %+v, want %+v", h, before["w2"])
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2EMigrateStateSingleAndConflict: one workspace gets Terraform's
// single-state question; a destination that already holds a different
// state is kept unless the user confirms.
func TestE2EMigrateStateSingleAndConflict(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	body := "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n"

	// Someone else's state already in pg.
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "main.tf"), pgBackendConfig(conn, body+"resource \"terraform_data\" \"b\" {}\n"))
	mustStrata(t, other, 0, "init", "-no-color")
	mustStrata(t, other, 0, "apply", "-auto-approve", "-no-color")
	theirs, _ := readPGState(t, conn, "terraform_remote_state", "default")

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), body)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	writeFile(t, filepath.Join(dir, "backend.tf"), pgBackendConfig(conn, ""))
	r := mustStrataIn(t, dir, "no\n", 0, "init", "-no-color")
	for _, want := range []string{"Do you want to copy existing state to the new backend?", `An existing non-empty state already exists in the new backend.`, `Previous (type "local"):`, `New (type "pg"):`} {
		if !strings.Contains(flat(r.stdout), want) {
			t.Errorf("the question lacks %q:\n%s", want, r.stdout)
		}
	}
	if doc, _ := readPGState(t, conn, "terraform_remote_state", "default"); doc.Lineage != theirs.Lineage || doc.Serial != theirs.Serial {
		t.Fatalf("the destination changed after no: %+v", doc)
	}
	if st, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err != nil || st.Size() == 0 {
		t.Fatal("the local state not copied was emptied")
	}

	// Into an empty schema, the single-state question.
	writeFile(t, filepath.Join(dir, "backend.tf"), "terraform {\n  backend \"pg\" {\n    conn_str = \""+conn+"\"\n    schema_name = \"fresh\"\n  }\n}\n")
	mustStrata(t, dir, 1, "init", "-no-color")
	// -reconfigure forgets the pg backend, so the local state is offered
	// again.
	r = mustStrataIn(t, dir, "yes\n", 0, "init", "-no-color", "-reconfigure")
	if !strings.Contains(flat(r.stdout), `No existing state was found in the newly configured "pg" backend. Do you want to copy this state to the new "pg" backend?`) {
		t.Errorf("single-state question:\n%s", r.stdout)
	}
	if doc, ok := readPGState(t, conn, "fresh", "default"); !ok || len(doc.Resources) != 1 {
		t.Errorf("not copied: %+v", doc)
	}
}

// TestE2EBackendTerraformInterop: with the same -backend-config options,
// terraform and strata write the same .terraform/terraform.tfstate, and
// each works in a directory the other initialised; a state either one
// migrated (local to pg, pg to local) is read by the other, which plans no
// changes.
func TestE2EBackendTerraformInterop(t *testing.T) {
	t.Parallel()
	tf := terraformBin(t)
	conn := pgtest.ConnString(t)
	terraform := func(dir string, want int, args ...string) result {
		t.Helper()
		r := runIn(t, dir, "", tf, append(args, "-no-color", "-input=false")...)
		if r.code != want {
			t.Fatalf("terraform %s: exit %d, want %d\n%s%s", strings.Join(args, " "), r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	body := `resource "terraform_data" "a" {
  input = "one"
}
output "a" {
  value = terraform_data.a.output
}
`
	backend := "terraform {\n  backend \"pg\" {\n    schema_name = \"agree\"\n  }\n}\n"
	tfDir, stDir := t.TempDir(), t.TempDir()
	for _, dir := range []string{tfDir, stDir} {
		writeFile(t, filepath.Join(dir, "main.tf"), backend+body)
		writeFile(t, filepath.Join(dir, "pg.hcl"), "conn_str = \""+conn+"\"\n")
	}
	args := []string{"init", "-backend-config=pg.hcl", "-backend-config=skip_index_creation=true"}
	terraform(tfDir, 0, args...)
	mustStrata(t, stDir, 0, append(args, "-no-color")...)
	tfFile := readFile(t, filepath.Join(tfDir, ".terraform", "terraform.tfstate"))
	stFile := readFile(t, filepath.Join(stDir, ".terraform", "terraform.tfstate"))
	if string(tfFile) != string(stFile) {
		t.Fatalf("backend state files differ:\n--- terraform\n%s\n--- strata\n%s", tfFile, stFile)
	}
	// Each uses the file the other wrote.
	mustStrata(t, tfDir, 0, "apply", "-auto-approve", "-no-color")
	terraform(stDir, 0, "plan", "-detailed-exitcode")
	// Each sees the other's changed block.
	writeFile(t, filepath.Join(stDir, "main.tf"), strings.Replace(backend, "agree", "other", 1)+body)
	r := terraform(stDir, 1, "plan")
	if !strings.Contains(flat(r.stderr), "Backend initialization required") {
		t.Errorf("terraform on a changed block:\n%s", r.stderr)
	}

	// terraform migrates local state to pg; strata reads it.
	a := t.TempDir()
	writeFile(t, filepath.Join(a, "main.tf"), body)
	terraform(a, 0, "init")
	terraform(a, 0, "apply", "-auto-approve")
	writeFile(t, filepath.Join(a, "backend.tf"), "terraform {\n  backend \"pg\" {\n    conn_str = \""+conn+"\"\n    schema_name = \"by_terraform\"\n  }\n}\n")
	terraform(a, 0, "init", "-force-copy")
	mustStrata(t, a, 0, "plan", "-no-color", "-detailed-exitcode")
	inPG, _ := readPGState(t, conn, "by_terraform", "default")
	// strata migrates it back to local; terraform reads that.
	os.Remove(filepath.Join(a, "backend.tf"))
	mustStrata(t, a, 0, "init", "-no-color", "-migrate-state", "-force-copy")
	if h := readStateHead(t, filepath.Join(a, "terraform.tfstate")); h.Lineage != inPG.Lineage || h.Serial != inPG.Serial {
		t.Errorf("strata's copy: %+v, want %s %d", h, inPG.Lineage, inPG.Serial)
	}
	terraform(a, 0, "plan", "-detailed-exitcode")

	// strata migrates local state to pg; terraform reads it, and
	// migrates it back.
	writeFile(t, filepath.Join(a, "backend.tf"), "terraform {\n  backend \"pg\" {\n    conn_str = \""+conn+"\"\n    schema_name = \"by_strata\"\n  }\n}\n")
	mustStrata(t, a, 0, "init", "-no-color", "-force-copy")
	terraform(a, 0, "plan", "-detailed-exitcode")
	os.Remove(filepath.Join(a, "backend.tf"))
	terraform(a, 0, "init", "-migrate-state", "-force-copy")
	mustStrata(t, a, 0, "plan", "-no-color", "-detailed-exitcode")
	if r := mustStrata(t, a, 0, "output", "-raw", "a"); r.stdout != "one" {
		t.Errorf("output a = %q", r.stdout)
	}
}

// TestE2EInitBackendFalse: init -backend=false installs modules and
// providers but leaves the backend alone, as terraform init -backend=false
// does: no header, no check of the backend block (even of a type strata
// does not have), and .terraform/terraform.tfstate unchanged, so a changed
// block is still reported by the commands that use the backend.
func TestE2EInitBackendFalse(t *testing.T) {
	t.Parallel()
	tf, hasTF := referenceTerraform()
	run := func(bin, dir string, want int, args ...string) result {
		t.Helper()
		r := runIn(t, dir, "", bin, args...)
		if r.code != want {
			t.Fatalf("%s %v: exit code %d\n%s\n%s", filepath.Base(bin), args, r.code, r.stdout, r.stderr)
		}
		return r
	}
	withBackend := "terraform {\n  backend \"local\" {\n    path = \"x.tfstate\"\n  }\n}\nresource \"terraform_data\" \"a\" {}\nmodule \"m\" {\n  source = \"./m\"\n}\n"
	setup := func() string {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), withBackend)
		if err := os.Mkdir(filepath.Join(dir, "m"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "m", "main.tf"), "output \"o\" { value = 1 }\n")
		return dir
	}
	bins := []string{strataBin}
	if hasTF == nil {
		bins = append(bins, tf)
	}
	var outs []string
	for _, bin := range bins {
		dir := setup()
		r := run(bin, dir, 0, "init", "-backend=false", "-no-color")
		// TF_IN_AUTOMATION shortens Terraform's closing text.
		out, _, _ := strings.Cut(strings.ReplaceAll(r.stdout, "Terraform", "strata"), "initialized!")
		outs = append(outs, out)
		if strings.Contains(r.stdout, "Initializing the backend") {
			t.Errorf("%s printed the backend header:\n%s", bin, r.stdout)
		}
		if _, err := os.Stat(filepath.Join(dir, ".terraform", "terraform.tfstate")); err == nil {
			t.Errorf("%s recorded a backend", bin)
		}
		if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "modules.json")); err != nil {
			t.Errorf("%s installed no modules: %v", bin, err)
		}

		// A recorded backend stays as it was when the block changes.
		run(bin, dir, 0, "init", "-no-color")
		before := readFile(t, filepath.Join(dir, ".terraform", "terraform.tfstate"))
		writeFile(t, filepath.Join(dir, "main.tf"), strings.Replace(withBackend, "x.tfstate", "y.tfstate", 1))
		run(bin, dir, 0, "init", "-backend=false", "-no-color")
		if after := readFile(t, filepath.Join(dir, ".terraform", "terraform.tfstate")); !bytes.Equal(before, after) {
			t.Errorf("%s changed %s:\n%s", bin, ".terraform/terraform.tfstate", after)
		}
		if r := run(bin, dir, 1, "plan", "-no-color"); !strings.Contains(flat(r.stderr), "Backend configuration block has changed") {
			t.Errorf("%s plan after -backend=false: %s", bin, r.stderr)
		}

		// A backend strata does not support is not even looked at.
		dir = t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "terraform {\n  backend \"gcs\" {}\n}\n")
		run(bin, dir, 0, "init", "-backend=false", "-no-color")
	}
	if len(outs) == 2 && outs[0] != outs[1] {
		t.Errorf("output differs from Terraform's:\nstrata:\n%s\nterraform:\n%s", outs[0], outs[1])
	}
}

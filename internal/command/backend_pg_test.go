package command

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/states/statemgr"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// The pg backend's end-to-end tests run strata (and terraform, when
// installed) against a real PostgreSQL server: see package pgtest for
// where it comes from.

// pgBackendConfig is a configuration using the pg backend at conn, plus
// body.
func pgBackendConfig(conn, body string) string {
	return fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str = %q\n  }\n}\n\n", conn) + body
}

// runEnv runs bin in dir with extra environment variables.
func runEnv(t *testing.T, dir string, env []string, bin string, args ...string) result {
	t.Helper()
	return runWith(t, dir, "", bin, env, args...)
}

// pgStateDoc reads a workspace's row: its serial, lineage and number of
// resources. ok is false when there is no row.
type pgStateDoc struct {
	Serial    uint64
	Lineage   string
	Resources []json.RawMessage
}

func readPGState(t *testing.T, conn, schema, workspace string) (pgStateDoc, bool) {
	t.Helper()
	ctx := context.Background()
	c := pgtest.Conn(t, conn)
	var data string
	err := c.QueryRow(ctx, "SELECT data FROM "+pgx.Identifier{schema}.Sanitize()+".states WHERE name = $1", workspace).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return pgStateDoc{}, false
	}
	if err != nil {
		t.Fatal(err)
	}
	var doc pgStateDoc
	if err := json.Unmarshal([]byte(data), &doc); err != nil {
		t.Fatalf("the row's data is not a state: %v\n%s", err, data)
	}
	return doc, true
}

// TestE2EPGBackend: init, apply, a plan with no changes, the state
// commands and destroy, with the state in Postgres and none on disk.
func TestE2EPGBackend(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, `
resource "terraform_data" "a" {
  input = "hello"
}
resource "terraform_data" "b" {
  input = terraform_data.a.output
}
output "b" {
  value = terraform_data.b.output
}
`))
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	doc, ok := readPGState(t, conn, statemgr.DefaultPGSchema, "default")
	if !ok || len(doc.Resources) != 2 || doc.Serial != 1 {
		t.Fatalf("the default workspace's row: %+v (found %v)", doc, ok)
	}
	if _, err := os.Stat(filepath.Join(dir, "terraform.tfstate")); err == nil {
		t.Error("a local state file was written")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".terraform", "*.journal")); len(m) != 0 {
		t.Errorf("journal left behind: %v", m)
	}
	r := mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(flat(r.stdout), "No changes.") {
		t.Fatalf("plan after apply:\n%s", r.stdout)
	}
	if r := mustStrata(t, dir, 0, "output", "-raw", "b"); r.stdout != "hello" {
		t.Errorf("output b = %q", r.stdout)
	}
	if r := mustStrata(t, dir, 0, "state", "list"); r.stdout != "terraform_data.a\nterraform_data.b\n" {
		t.Errorf("state list:\n%s", r.stdout)
	}
	pulled := mustStrata(t, dir, 0, "state", "pull").stdout
	if !strings.Contains(pulled, doc.Lineage) {
		t.Fatalf("state pull:\n%s", pulled)
	}
	mustStrata(t, dir, 0, "state", "rm", "terraform_data.b")
	if doc, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default"); len(doc.Resources) != 1 || doc.Serial != 2 {
		t.Errorf("after state rm: %+v", doc)
	}
	// Pushing back the pulled (older) state is refused, and forced works.
	writeFile(t, filepath.Join(dir, "pulled.tfstate"), pulled)
	mustStrata(t, dir, 1, "state", "push", "pulled.tfstate")
	mustStrata(t, dir, 0, "state", "push", "-force", "pulled.tfstate")
	if doc, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default"); len(doc.Resources) != 2 || doc.Serial != 3 || !strings.Contains(pulled, doc.Lineage) {
		t.Errorf("after state push -force: %+v", doc)
	}
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
	mustStrata(t, dir, 0, "destroy", "-auto-approve", "-no-color")
	if doc, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default"); len(doc.Resources) != 0 {
		t.Errorf("after destroy: %+v", doc)
	}
}

// TestE2EPGEnvAndWorkspaces: the PG_* environment variables configure what
// the block leaves out; each workspace is its own row.
func TestE2EPGEnvAndWorkspaces(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  backend "pg" {}
}
resource "terraform_data" "a" {
  input = terraform.workspace
}
`)
	env := []string{"PG_CONN_STR=" + conn, "PG_SCHEMA_NAME=from_env"}
	if r := runEnv(t, dir, env, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %s%s", r.stdout, r.stderr)
	}
	if r := runEnv(t, dir, env, strataBin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply: %s%s", r.stdout, r.stderr)
	}
	if r := runEnv(t, dir, append(env, "TF_WORKSPACE=staging"), strataBin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("apply in staging: %s%s", r.stdout, r.stderr)
	}
	for _, ws := range []string{"default", "staging"} {
		doc, ok := readPGState(t, conn, "from_env", ws)
		if !ok || len(doc.Resources) != 1 || !bytes.Contains(doc.Resources[0], []byte(`"value":"`+ws+`"`)) && !bytes.Contains(doc.Resources[0], []byte(`"value": "`+ws+`"`)) {
			t.Errorf("workspace %s: %+v (found %v)", ws, doc, ok)
		}
	}
	// A bad boolean in the environment is reported.
	r := runEnv(t, dir, append(env, "PG_SKIP_TABLE_CREATION=perhaps"), strataBin, "plan", "-no-color")
	if r.code != 1 || !strings.Contains(flat(r.stderr), "PG_SKIP_TABLE_CREATION must be true or false") {
		t.Errorf("bad PG_SKIP_TABLE_CREATION: exit %d\n%s", r.code, r.stderr)
	}
}

// TestE2EPGBadConfig: the backend block accepts literal values of the
// right type for its known arguments, and a server that cannot be reached
// is an error naming the backend.
func TestE2EPGBadConfig(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		block string
		want  []string
	}{
		"unknown argument": {
			block: "conn_str = \"postgres://127.0.0.1:1/x\"\n    bucket = \"b\"",
			want:  []string{"Error: Unsupported argument", `An argument named "bucket" is not expected here.`, "main.tf line 4"},
		},
		"wrong type": {
			block: "skip_table_creation = \"maybe\"",
			want:  []string{"Error: Incorrect attribute value type", `Inappropriate value for attribute "skip_table_creation": a bool is required.`},
		},
		"reference": {
			// A variable is allowed (OpenTofu's early evaluation), not
			// what is known only while planning.
			block: "schema_name = terraform_data.x.id",
			want:  []string{"Error: Dynamic value in static context", "main.tf line 3"},
		},
		"unreachable": {
			block: "conn_str = \"postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=5\"",
			want:  []string{`Error: Failed to configure the backend "pg"`, "connecting to the pg backend"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "terraform {\n  backend \"pg\" {\n    "+tc.block+"\n  }\n}\nvariable \"schema\" {\n  default = \"x\"\n}\n")
			cmds := [][]string{{"init", "-no-color"}, {"plan", "-no-color"}}
			if name == "unreachable" {
				// init fails, so plan asks for init rather than connecting.
				cmds = cmds[:1]
			}
			for _, cmd := range cmds {
				r := strata(t, dir, cmd...)
				if r.code != 1 {
					t.Fatalf("%s: exit %d\n%s%s", cmd[0], r.code, r.stdout, r.stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(flat(r.stderr), w) {
						t.Errorf("%s: output lacks %q:\n%s", cmd[0], w, r.stderr)
					}
				}
			}
		})
	}
}

// TestE2EPGLock: a second writer fails fast with a lock error naming the
// holder; -lock-timeout waits for it; -lock=false ignores it.
func TestE2EPGLock(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, `resource "terraform_data" "a" { input = 1 }`))
	mustStrata(t, dir, 0, "init", "-no-color")
	holder := statemgr.NewPG(statemgr.PGConfig{ConnStr: conn}, "default", filepath.Join(t.TempDir(), "j"), "test")
	info := statemgr.NewLockInfo("OperationTypeApply", "test")
	if err := holder.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}
	defer holder.Unlock()
	start := time.Now()
	r := mustStrata(t, dir, 1, "apply", "-auto-approve", "-no-color")
	if time.Since(start) > 10*time.Second {
		t.Fatal("the lock error was not immediate")
	}
	for _, want := range []string{"Error acquiring the state lock", `workspace "default" is already locked`, info.ID, "OperationTypeApply", "postgres@"} {
		if !strings.Contains(flat(r.stderr), want) {
			t.Errorf("lock error lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, ok := readPGState(t, conn, statemgr.DefaultPGSchema, "default"); ok {
		t.Fatal("apply wrote state without the lock")
	}
	// -lock=false ignores the lock.
	mustStrata(t, dir, 0, "plan", "-no-color", "-lock=false")
	// -lock-timeout waits for the holder.
	go func() {
		time.Sleep(500 * time.Millisecond)
		_ = holder.Unlock()
	}()
	start = time.Now()
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color", "-lock-timeout=30s")
	if time.Since(start) < 400*time.Millisecond {
		t.Error("apply did not wait for the lock")
	}
	if doc, ok := readPGState(t, conn, statemgr.DefaultPGSchema, "default"); !ok || len(doc.Resources) != 1 {
		t.Errorf("after the waiting apply: %+v", doc)
	}
}

// startApply starts strata apply on dir and waits until it is creating.
func startApply(t *testing.T, dir string, out *syncBuffer) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(strataBin, "apply", "-auto-approve", "-no-color")
	cmd.Dir = dir
	if env := testEnvFor(t); len(env) > 0 {
		cmd.Env = append(os.Environ(), env...)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "Creating...") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	return cmd
}

// TestE2EPGConcurrentApplies: while one apply runs, another fails on the
// lock, naming the running one; the first completes.
func TestE2EPGConcurrentApplies(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	// The first apply holds the lock until the test lets its provisioner
	// finish (a file appears), however loaded the machine.
	release := filepath.Join(t.TempDir(), "release")
	config := pgBackendConfig(conn, chainConfig(3)+fmt.Sprintf(`resource "terraform_data" "wait" {
  depends_on = [terraform_data.r2]
  provisioner "local-exec" {
    command = "while [ ! -e %s ]; do sleep 0.05; done"
  }
}
`, release))
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), config)
	mustStrata(t, dir, 0, "init", "-no-color")
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "main.tf"), config)
	mustStrata(t, other, 0, "init", "-no-color")
	var out syncBuffer
	first := startApply(t, dir, &out)
	for deadline := time.Now().Add(60 * time.Second); !strings.Contains(out.String(), "terraform_data.wait: Provisioning with 'local-exec'..."); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the first apply did not reach its provisioner:\n%s", out.String())
		}
	}
	r := strata(t, other, "apply", "-auto-approve", "-no-color")
	writeFile(t, release, "")
	if err := first.Wait(); err != nil {
		t.Fatalf("the first apply: %v\n%s", err, out.String())
	}
	if r.code != 1 || !strings.Contains(flat(r.stderr), "Error acquiring the state lock") || !strings.Contains(flat(r.stderr), "OperationTypeApply") {
		t.Fatalf("the concurrent apply: exit %d\n%s", r.code, r.stderr)
	}
	if doc, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default"); len(doc.Resources) != 4 {
		t.Fatalf("%d resources stored, want 4", len(doc.Resources))
	}
	mustStrata(t, other, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2EPGKillMidApply: kill -9 of the lock holder mid-apply: the
// database releases its lock, and the next command replays its local
// journal into the database, so that nothing a provider finished is lost.
func TestE2EPGKillMidApply(t *testing.T) {
	t.Parallel()
	const n = 400
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, chainConfig(n)))
	mustStrata(t, dir, 0, "init", "-no-color")
	var out syncBuffer
	cmd := startApply(t, dir, &out)
	time.Sleep(200 * time.Millisecond)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()

	journal := filepath.Join(dir, ".terraform", "pg-default.tfstate.journal")
	_, jerr := os.Stat(journal)
	if jerr != nil {
		t.Logf("no journal after the kill (%v): the apply had finished or not started", jerr)
	}
	// The killed holder's session is gone, so its lock is free at once.
	r := strata(t, dir, "plan", "-no-color", "-detailed-exitcode")
	if r.code != 0 && r.code != 2 {
		t.Fatalf("plan after kill: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(journal); err == nil {
		t.Fatal("the journal was not consumed")
	}
	doc, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default")
	if jerr == nil && len(doc.Resources) == 0 {
		t.Fatal("a journal existed but nothing was recovered into the database")
	}
	toAdd := strings.Count(r.stdout, "will be created")
	if len(doc.Resources)+toAdd != n {
		t.Fatalf("%d in state + %d to create != %d resources", len(doc.Resources), toAdd, n)
	}
	t.Logf("killed after %d of %d creates", len(doc.Resources), n)
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, dir, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2EPGTerraformInterop: terraform and strata share a pg backend: a
// state either writes, the other reads and plans no changes from; and
// each respects the other's lock.
func TestE2EPGTerraformInterop(t *testing.T) {
	t.Parallel()
	tf := liveTerraform(t)
	conn := pgtest.ConnString(t)
	body := `
resource "terraform_data" "a" {
  input = "one"
}
resource "terraform_data" "b" {
  input = { name = terraform_data.a.output, n = 2 }
}
output "b" {
  value = terraform_data.b.output
}
`
	tfDir, stDir := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(tfDir, "main.tf"), pgBackendConfig(conn, body))
	writeFile(t, filepath.Join(stDir, "main.tf"), pgBackendConfig(conn, body))
	terraform := func(want int, args ...string) result {
		t.Helper()
		r := runIn(t, tfDir, "", tf, append(args, "-no-color", "-input=false")...)
		if r.code != want {
			t.Fatalf("terraform %s: exit %d, want %d\n%s%s", args[0], r.code, want, r.stdout, r.stderr)
		}
		return r
	}
	terraform(0, "init")
	terraform(0, "apply", "-auto-approve")
	before, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default")

	// terraform to strata.
	mustStrata(t, stDir, 0, "init", "-no-color")
	r := mustStrata(t, stDir, 0, "plan", "-no-color", "-detailed-exitcode")
	if !strings.Contains(flat(r.stdout), "No changes.") {
		t.Fatalf("strata plans changes on a state terraform wrote:\n%s", r.stdout)
	}

	// strata to terraform: a change applied by strata, then no changes
	// planned by terraform.
	changed := strings.Replace(body, `"one"`, `"two"`, 1) + "resource \"terraform_data\" \"c\" {}\n"
	writeFile(t, filepath.Join(stDir, "main.tf"), pgBackendConfig(conn, changed))
	writeFile(t, filepath.Join(tfDir, "main.tf"), pgBackendConfig(conn, changed))
	mustStrata(t, stDir, 0, "apply", "-auto-approve", "-no-color")
	after, _ := readPGState(t, conn, statemgr.DefaultPGSchema, "default")
	if after.Lineage != before.Lineage || after.Serial <= before.Serial || len(after.Resources) != 3 {
		t.Fatalf("strata's write: lineage %s serial %d (%d resources), terraform's: %s %d", after.Lineage, after.Serial, len(after.Resources), before.Lineage, before.Serial)
	}
	terraform(0, "plan", "-detailed-exitcode")
	if r := runIn(t, tfDir, "", tf, "output", "-json", "b"); r.code != 0 || !strings.Contains(r.stdout, `"two"`) {
		t.Errorf("terraform reads output b = %s", r.stdout)
	}

	// strata's lock stops terraform...
	holder := statemgr.NewPG(statemgr.PGConfig{ConnStr: conn}, "default", filepath.Join(t.TempDir(), "j"), "test")
	if err := holder.Lock(context.Background(), statemgr.NewLockInfo("OperationTypeApply", "test"), 0); err != nil {
		t.Fatal(err)
	}
	r = terraform(1, "plan")
	if !strings.Contains(flat(r.stderr), "Error acquiring the state lock") {
		t.Errorf("terraform under strata's lock:\n%s", r.stderr)
	}
	_ = holder.Unlock()

	// ...and terraform's stops strata, which names terraform's session.
	writeFile(t, filepath.Join(tfDir, "main.tf"), pgBackendConfig(conn, changed+`
resource "terraform_data" "slow" {
  provisioner "local-exec" {
    command = "sleep 5"
  }
}
`))
	slow := exec.Command(tf, "apply", "-auto-approve", "-no-color", "-input=false")
	slow.Dir = tfDir
	slow.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
	var out syncBuffer
	slow.Stdout, slow.Stderr = &out, &out
	if err := slow.Start(); err != nil {
		t.Fatal(err)
	}
	defer slow.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), "Provisioning with 'local-exec'") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	r = mustStrata(t, stDir, 1, "plan", "-no-color")
	if !strings.Contains(flat(r.stderr), "Error acquiring the state lock") || !strings.Contains(flat(r.stderr), "not strata's") {
		t.Errorf("strata under terraform's lock:\n%s", r.stderr)
	}
	if err := slow.Wait(); err != nil {
		t.Fatalf("terraform apply: %v\n%s", err, out.String())
	}
	writeFile(t, filepath.Join(stDir, "main.tf"), pgBackendConfig(conn, changed+"resource \"terraform_data\" \"slow\" {}\n"))
	mustStrata(t, stDir, 0, "plan", "-no-color", "-detailed-exitcode")
}

// TestE2EPGForceUnlock: force-unlock with the ID a lock error shows ends
// the holder's session, which frees the lock.
func TestE2EPGForceUnlock(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, `resource "terraform_data" "a" { input = 1 }`))
	mustStrata(t, dir, 0, "init", "-no-color")
	holder := statemgr.NewPG(statemgr.PGConfig{ConnStr: conn}, "default", filepath.Join(t.TempDir(), "j"), "test")
	info := statemgr.NewLockInfo("OperationTypeApply", "test")
	if err := holder.Lock(context.Background(), info, 0); err != nil {
		t.Fatal(err)
	}
	defer holder.Unlock()
	r := mustStrata(t, dir, 1, "force-unlock", "-no-color", "-force", "not-the-id")
	if !strings.Contains(flat(r.stderr), "does not match existing lock ID") {
		t.Errorf("force-unlock with a wrong ID:\n%s", r.stderr)
	}
	r = mustStrata(t, dir, 0, "force-unlock", "-no-color", "-force", info.ID)
	if !strings.Contains(r.stdout, "successfully unlocked") {
		t.Errorf("force-unlock:\n%s", r.stdout)
	}
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	r = mustStrata(t, dir, 1, "force-unlock", "-no-color", "-force", info.ID)
	if !strings.Contains(flat(r.stderr), "is not locked") {
		t.Errorf("force-unlock of a free workspace:\n%s", r.stderr)
	}
}

// TestE2EPGOneSessionPerCommand: a command opens one database session,
// whatever it does with the state (read, lock, write, list or delete
// workspaces, share its run log), and ends it before it returns.
// Terraform 1.11's pg backend opens one for each of these commands too;
// strata opened two or three, and a session costs the server a process
// and the client several round trips.
func TestE2EPGOneSessionPerCommand(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	ctx := context.Background()
	c := pgtest.Conn(t, conn)
	// sessions is the number of sessions ever opened on the database,
	// once every session but the test's own has ended (a backend's end
	// is reported as it exits, after the client left).
	sessions := func(after string) int64 {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			var n, open int64
			err := c.QueryRow(ctx, "SELECT sessions, numbackends FROM pg_stat_database WHERE datname = current_database()").Scan(&n, &open)
			if err != nil {
				t.Skipf("no session statistics on this server (PostgreSQL 14 or later has them): %v", err)
			}
			if open == 1 {
				return n
			}
			if time.Now().After(deadline) {
				t.Fatalf("after %s, %d sessions besides the test's are still open", after, open-1)
			}
		}
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, `resource "terraform_data" "a" { input = 1 }
output "a" { value = terraform_data.a.output }
`))
	before := sessions("connecting")
	for _, args := range [][]string{
		{"init"}, {"plan"}, {"apply", "-auto-approve"}, {"state", "list"}, {"output"}, {"show"},
		{"workspace", "new", "x"}, {"workspace", "select", "default"}, {"workspace", "list"}, {"workspace", "delete", "x"},
		{"runs", "list"}, {"destroy", "-auto-approve"},
	} {
		mustStrata(t, dir, 0, append(args, "-no-color")...)
		now := sessions(strings.Join(args, " "))
		if now-before != 1 {
			t.Errorf("%s opened %d sessions, want 1", strings.Join(args, " "), now-before)
		}
		before = now
	}
}

// TestE2EPGWorkspaceCommands: workspaces live as rows of the states table.
func TestE2EPGWorkspaceCommands(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, "")+`
resource "terraform_data" "a" {
  input = terraform.workspace
}
`)
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "workspace", "new", "-no-color", "blue")
	mustStrata(t, dir, 0, "apply", "-auto-approve", "-no-color")
	if _, ok := readPGState(t, conn, "terraform_remote_state", "blue"); !ok {
		t.Fatal("no row for workspace blue")
	}
	if r := mustStrata(t, dir, 0, "workspace", "list"); r.stdout != "  default\n* blue\n\n" {
		t.Fatalf("list: %q", r.stdout)
	}
	mustStrata(t, dir, 0, "workspace", "select", "-no-color", "default")
	mustStrata(t, dir, 0, "workspace", "delete", "-force", "-no-color", "blue")
	if _, ok := readPGState(t, conn, "terraform_remote_state", "blue"); ok {
		t.Fatal("the row of the deleted workspace is still there")
	}
}

// TestE2EWorkspaceLockFlags: workspace new honours -lock-timeout (it waits
// for the pg backend's workspace-creation lock another session holds)
// and -lock=false (it does not take it); without either it reports the
// holder at once, as Terraform does.
func TestE2EWorkspaceLockFlags(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), pgBackendConfig(conn, ""))
	mustStrata(t, dir, 0, "init", "-no-color")
	mustStrata(t, dir, 0, "workspace", "list") // creates the table
	ctx := context.Background()
	holder, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	const createKey = -1 // the pg backend's workspace-creation lock
	if _, err := holder.Exec(ctx, "SELECT pg_advisory_lock($1)", createKey); err != nil {
		t.Fatal(err)
	}
	r := strata(t, dir, "workspace", "new", "refused", "-no-color")
	if r.code != 1 || !strings.Contains(flat(r.stderr), "another process holds the pg backend's lock for workspace creation") {
		t.Errorf("workspace new under the creation lock: exit %d\n%s", r.code, r.stderr)
	}
	mustStrata(t, dir, 0, "workspace", "new", "unlocked", "-lock=false", "-no-color")
	release := time.AfterFunc(300*time.Millisecond, func() {
		_, _ = holder.Exec(ctx, "SELECT pg_advisory_unlock($1)", createKey)
	})
	defer release.Stop()
	mustStrata(t, dir, 0, "workspace", "new", "waited", "-lock-timeout=30s", "-no-color")
	ws := mustStrata(t, dir, 0, "workspace", "list").stdout
	for _, name := range []string{"unlocked", "waited"} {
		if !strings.Contains(ws, name) {
			t.Errorf("workspace %s missing:\n%s", name, ws)
		}
	}
	if strings.Contains(ws, "refused") {
		t.Errorf("the refused workspace was created:\n%s", ws)
	}
}

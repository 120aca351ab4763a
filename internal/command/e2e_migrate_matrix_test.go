package command

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5"

	"github.com/strata-dev/strata/internal/backend/local"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// The migration matrix: for every pair of backends (the default local
// state, local with another path, local with another path and workspace
// directory, pg, http, and a second pg schema or http server), state
// applied in the first (in the default workspace and in w2 where the
// backend has workspaces) is moved to the second by
// "init -migrate-state -force-copy". Nothing may be lost: the
// destination holds every workspace's snapshot with its lineage, serial
// and resources, and plans no changes. Everything each backend holds
// afterwards (state files and their backups, pg rows, http documents) is
// compared with what terraform leaves on the same steps, when installed.

// migEnv is where one run's backends keep their state: the working
// directory, a pg schema of its own and two http servers.
type migEnv struct {
	dir, conn, schema string
	http, http2       *httpStateServer
}

// migBackend is one kind of backend of the matrix.
type migBackend struct {
	// block is the backend block; "" is the default local state.
	block func(e *migEnv) string
	// workspaces: the backend has named workspaces.
	workspaces bool
}

func localBlock(args string) func(*migEnv) string {
	return func(*migEnv) string { return "terraform {\n  backend \"local\" {\n" + args + "  }\n}\n" }
}

var migBackends = map[string]migBackend{
	"none":      {block: func(*migEnv) string { return "" }, workspaces: true},
	"local":     {block: localBlock("    path = \"other.tfstate\"\n"), workspaces: true},
	"local-dir": {block: localBlock("    path          = \"other.tfstate\"\n    workspace_dir = \"wsd\"\n"), workspaces: true},
	"pg": {block: func(e *migEnv) string {
		return fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str    = %q\n    schema_name = %q\n  }\n}\n", e.conn, e.schema)
	}, workspaces: true},
	"pg-schema": {block: func(e *migEnv) string {
		return fmt.Sprintf("terraform {\n  backend \"pg\" {\n    conn_str    = %q\n    schema_name = %q\n  }\n}\n", e.conn, e.schema+"_b")
	}, workspaces: true},
	"http":  {block: func(e *migEnv) string { return httpBlock(e.http.url) }},
	"http2": {block: func(e *migEnv) string { return httpBlock(e.http2.url) }},
}

func httpBlock(addr string) string {
	return fmt.Sprintf("terraform {\n  backend \"http\" {\n    address        = %q\n    lock_address   = %q\n    unlock_address = %q\n  }\n}\n", addr, addr, addr)
}

// migCase is one direction: from one backend to another, with a
// workspace selected (default unless said).
type migCase struct {
	from, to, selected string
	// preexisting: the destination's default workspace already holds
	// another configuration's state, which -force-copy overwrites.
	preexisting bool
	// emptyWorkspace: the source also has a workspace w3 that was
	// created but never applied.
	emptyWorkspace bool
}

// migCases are the directions tested: every pair of the first five
// backends, between two of the same type, and into http (one state) with
// another workspace than default selected.
func migCases() []migCase {
	main := []string{"none", "local", "local-dir", "pg", "http"}
	var cases []migCase
	for _, from := range main {
		for _, to := range main {
			if from != to {
				cases = append(cases, migCase{from: from, to: to, selected: "default"})
			}
		}
	}
	return append(cases, migCase{from: "pg", to: "pg-schema", selected: "default", preexisting: false}, migCase{from: "http", to: "http2", selected: "default", preexisting: false},
		migCase{from: "none", to: "http", selected: "w2", preexisting: false}, migCase{from: "local-dir", to: "http", selected: "w2", preexisting: false}, migCase{from: "pg", to: "http", selected: "w2", preexisting: false},
		migCase{from: "pg", to: "none", selected: "default", preexisting: true}, migCase{from: "http", to: "local", selected: "default", preexisting: true}, migCase{from: "none", to: "local-dir", selected: "default", preexisting: true},
		migCase{from: "none", to: "pg", selected: "default", preexisting: true}, migCase{from: "pg", to: "http", selected: "default", preexisting: true}, migCase{from: "http", to: "pg", selected: "default", preexisting: true},
		migCase{from: "none", to: "pg", selected: "default", emptyWorkspace: true},
		migCase{from: "pg", to: "none", selected: "default", emptyWorkspace: true},
		migCase{from: "pg", to: "local-dir", selected: "default", emptyWorkspace: true},
		migCase{from: "none", to: "local-dir", selected: "default", emptyWorkspace: true},
		migCase{from: "local-dir", to: "pg-schema", selected: "default", emptyWorkspace: true})
}

// migOutcome is what a run leaves, with lineages and serials named after
// the source workspace whose snapshot they were ("L(w2) s+0": w2's lineage
// and its serial before the move), so that terraform's and strata's runs
// compare although their lineages and serials differ.
type migOutcome struct {
	// Held maps each place a state can be (a file, a pg row, an http
	// document) to the snapshot it holds, "empty" for an empty file.
	Held map[string]string
	// Pulled is the snapshot "state pull" gives in each workspace the
	// destination has after the move.
	Pulled map[string]string
	// Selected is the workspace selected afterwards.
	Selected string
	// Workspaces is "workspace list" afterwards.
	Workspaces string
}

// stateHeadRes is as much of a state as the matrix compares.
type stateHeadRes struct {
	Lineage   string
	Serial    uint64
	Resources []struct {
		Type, Name string
		Instances  []struct {
			Attributes struct {
				Input struct {
					Value json.RawMessage `json:"value"`
				} `json:"input"`
			} `json:"attributes"`
		}
	}
}

// describe names a snapshot after the source workspace it came from.
func describe(t *testing.T, data []byte, before map[string]stateHead) string {
	t.Helper()
	if len(strings.TrimSpace(string(data))) == 0 {
		return "empty"
	}
	var s stateHeadRes
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("not a state: %v\n%s", err, data)
	}
	lineage, serial := "new", fmt.Sprintf("s=%d", s.Serial)
	for ws, h := range before {
		if h.Lineage == s.Lineage {
			lineage, serial = "L("+ws+")", fmt.Sprintf("s%+d", int64(s.Serial)-int64(h.Serial))
			if s.Serial < h.Serial {
				// A backup from before the move: terraform and strata
				// count serials differently.
				serial = "older"
			}
		}
	}
	var res []string
	for _, r := range s.Resources {
		for _, in := range r.Instances {
			res = append(res, r.Type+"."+r.Name+"="+string(in.Attributes.Input.Value))
		}
	}
	sort.Strings(res)
	return lineage + " " + serial + " [" + strings.Join(res, " ") + "]"
}

// held describes every state the run's backends hold.
func (e *migEnv) held(t *testing.T, before map[string]stateHead) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(e.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(e.dir, path)
		if d.IsDir() && rel == ".terraform" {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(rel, ".tfstate") || strings.HasSuffix(rel, ".tfstate.backup")) {
			out["file "+rel] = describe(t, readFile(t, path), before)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A backup matters where its state file was emptied: it then holds
	// the only local copy. Others keep the history of the applies before
	// the move, which terraform and strata write differently.
	for k := range out {
		if main, ok := strings.CutSuffix(k, ".backup"); ok && out[main] != "empty" {
			delete(out, k)
		}
	}
	for _, schema := range []string{e.schema, e.schema + "_b"} {
		for ws, data := range pgRows(t, e.conn, schema) {
			out["pg "+strings.TrimPrefix(schema, e.schema)+" "+ws] = describe(t, data, before)
		}
	}
	for name, srv := range map[string]*httpStateServer{"http": e.http, "http2": e.http2} {
		srv.mu.Lock()
		data := srv.data
		srv.mu.Unlock()
		if data != nil {
			out[name] = describe(t, data, before)
		}
	}
	return out
}

// foreign applies another configuration's state in the default workspace
// of the backend to, in another working directory (for local state, then
// copied to where the backend keeps it in e.dir).
func (e *migEnv) foreign(t *testing.T, bin, to string) {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"other\" {}\n")
	local := map[string]string{"none": DefaultStatePath, "local": "other.tfstate", "local-dir": "other.tfstate"}
	if _, ok := local[to]; !ok {
		writeFile(t, filepath.Join(dir, "backend.tf"), migBackends[to].block(e))
	}
	for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
		if r := runEnv(t, dir, nil, bin, append(args, "-no-color")...); r.code != 0 {
			t.Fatalf("%s %s for another configuration: exit %d\n%s%s", filepath.Base(bin), args[0], r.code, r.stdout, r.stderr)
		}
	}
	if path, ok := local[to]; ok {
		writeFile(t, filepath.Join(e.dir, path), string(readFile(t, filepath.Join(dir, DefaultStatePath))))
	}
}

// pgRows returns the states of a pg schema by workspace; none when the
// schema does not exist.
func pgRows(t *testing.T, conn, schema string) map[string][]byte {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var exists bool
	if err := c.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", pgx.Identifier{schema, "states"}.Sanitize()).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	if !exists {
		return out
	}
	rows, err := c.Query(ctx, "SELECT name, data FROM "+pgx.Identifier{schema, "states"}.Sanitize())
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, data string
		if err := rows.Scan(&name, &data); err != nil {
			t.Fatal(err)
		}
		out[name] = []byte(data)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// migRun applies state in the backend from, moves it to the backend to
// with bin, checks that nothing was lost, and returns what the backends
// hold.
func migRun(t *testing.T, bin, conn, schema string, c migCase) migOutcome {
	t.Helper()
	e := &migEnv{dir: t.TempDir(), conn: conn, schema: schema, http: newHTTPStateServer(t, "", ""), http2: newHTTPStateServer(t, "", "")}
	name := filepath.Base(bin)
	run := func(env []string, args ...string) result {
		t.Helper()
		r := runEnv(t, e.dir, env, bin, append(args, "-no-color")...)
		if r.code != 0 {
			t.Fatalf("%s %s: exit %d\n%s%s", name, strings.Join(args, " "), r.code, r.stdout, r.stderr)
		}
		return r
	}
	src, dst := migBackends[c.from], migBackends[c.to]
	writeFile(t, filepath.Join(e.dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = terraform.workspace\n}\n")
	setBackend := func(b migBackend) {
		path := filepath.Join(e.dir, "backend.tf")
		if block := b.block(e); block != "" {
			writeFile(t, path, block)
		} else {
			os.Remove(path)
		}
	}
	setBackend(src)
	run(nil, "init")
	run(nil, "apply", "-auto-approve")
	workspaces := []string{"default"}
	if src.workspaces {
		workspaces = append(workspaces, "w2")
		run(nil, "workspace", "new", "w2")
		// Two applies, so that w2's serial differs from default's.
		run(nil, "apply", "-auto-approve")
		run(nil, "apply", "-auto-approve", "-replace=terraform_data.a")
		if c.emptyWorkspace {
			run(nil, "workspace", "new", "w3")
		}
		run(nil, "workspace", "select", c.selected)
	}
	before := map[string]stateHead{}
	for _, ws := range workspaces {
		var h stateHead
		if err := json.Unmarshal([]byte(run([]string{"TF_WORKSPACE=" + ws}, "state", "pull").stdout), &h); err != nil {
			t.Fatal(err)
		}
		before[ws] = h
	}

	if c.preexisting {
		e.foreign(t, bin, c.to)
	}
	setBackend(dst)
	run(nil, "init", "-migrate-state", "-force-copy")

	o := migOutcome{Held: e.held(t, before), Pulled: map[string]string{}}
	o.Workspaces = runEnv(t, e.dir, nil, bin, "workspace", "list").stdout
	o.Selected = strings.TrimSpace(run(nil, "workspace", "show").stdout)
	// Where each source workspace went: the same name, or the one state
	// of a backend without workspaces.
	moved := map[string]string{}
	for _, ws := range workspaces {
		moved[ws] = ws
	}
	if !dst.workspaces {
		moved = map[string]string{c.selected: "default"}
	}
	for src, ws := range moved {
		env := []string{"TF_WORKSPACE=" + ws}
		o.Pulled[ws] = describe(t, []byte(run(env, "state", "pull").stdout), before)
		want := fmt.Sprintf("L(%s) s+0 [terraform_data.a=%q]", src, src)
		if c.preexisting && ws == "default" && !strings.HasPrefix(c.to, "local") && c.to != "none" {
			// Over another state in pg or http, the next serial after
			// both.
			want = strings.Replace(want, "s+0", "s+1", 1)
		}
		if bin != strataBin {
			// terraform may give the copy a new lineage or serial.
			want = want[strings.Index(want, " ["):]
		}
		if !strings.HasSuffix(o.Pulled[ws], want) {
			t.Errorf("%s: workspace %s after the move: %s, want %s", name, ws, o.Pulled[ws], want)
		}
		// The configuration depends on the workspace's name.
		if src != ws {
			continue
		}
		if r := runEnv(t, e.dir, env, bin, "plan", "-detailed-exitcode", "-no-color"); r.code != 0 {
			t.Errorf("%s: plan in %s after the move: exit %d\n%s%s", name, ws, r.code, r.stdout, r.stderr)
		}
	}
	return o
}

// migSources are the files that say what the matrix gives terraform (its
// recorded outcomes' key).
var migSources = []string{"e2e_migrate_matrix_test.go", "backend_http_test.go"}

func TestE2EMigrateStateMatrix(t *testing.T) {
	t.Parallel()
	tf, tfErr := referenceTerraform()
	for i, c := range migCases() {
		name := c.from + "_to_" + c.to
		if c.selected != "default" {
			name += "_from_" + c.selected
		}
		if c.preexisting {
			name += "_over_another"
		}
		if c.emptyWorkspace {
			name += "_with_an_empty_workspace"
		}
		t.Run(name, func(t *testing.T) {
			// Each case has its own directory, http servers and pg
			// database: terraform's pg backend takes one advisory lock
			// for workspace creation whatever the schema, and advisory
			// locks are per database.
			t.Parallel()
			conn := pgtest.ConnString(t)
			got := migRun(t, strataBin, conn, fmt.Sprintf("m%d_strata", i), c)
			if tfErr != nil {
				return
			}
			want := strataImprovements(t, c, recordedOutcome(t, tf, migSources, func() migOutcome {
				return migRun(t, tf, conn, fmt.Sprintf("m%d_terraform", i), c)
			}))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
			}
		})
	}
}

var migResourcesRe = regexp.MustCompile(`^(?:new s=\d+|L\(\w+\) s\+\d+) (\[terraform_data\.a="(\w+)"\])$`)

// strataImprovements turns what terraform leaves into what strata must
// leave, where strata deliberately differs (see differences.md):
//   - a copy keeps its source's lineage and serial exactly, where
//     terraform gives some copies a new lineage (the default workspace
//     into pg or http) or the next serial (other workspaces into pg);
//   - moving the default local state's workspaces into a backend that has
//     only one state, strata empties the local file of the workspace it
//     copied (its .backup keeps it) and leaves the others in place, where
//     terraform empties every local file, or (another workspace than
//     default selected) the default one and not the one it copied.
func strataImprovements(t *testing.T, c migCase, o migOutcome) migOutcome {
	t.Helper()
	fix := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			// Over another state, strata's copy is terraform's.
			if sm := migResourcesRe.FindStringSubmatch(v); sm != nil && !(c.preexisting && sm[2] == "default") {
				v = "L(" + sm[2] + ") s+0 " + sm[1]
			}
			out[k] = v
		}
		return out
	}
	o.Held, o.Pulled = fix(o.Held), fix(o.Pulled)
	if c.from == "none" && !migBackends[c.to].workspaces {
		for _, ws := range []string{"default", "w2"} {
			file := "file " + (&local.Backend{Path: local.DefaultStatePath, WorkspaceDir: local.DefaultWorkspaceDir}).StatePath(ws)
			snapshot := fmt.Sprintf("L(%s) s+0 [terraform_data.a=%q]", ws, ws)
			delete(o.Held, file+".backup")
			if ws == c.selected {
				o.Held[file], o.Held[file+".backup"] = "empty", snapshot
			} else {
				o.Held[file] = snapshot
			}
		}
	}
	return o
}

// TestE2EMigrateStateQuestions: init -migrate-state without -force-copy
// asks Terraform's questions, in its order, and stops with its error when
// the input ends without an answer; into the http backend (one state)
// from several workspaces it says so, asks whether to copy only the
// current workspace, then whether to copy that state. Output, exit code
// and where the state ends up are compared with terraform's.
func TestE2EMigrateStateQuestions(t *testing.T) {
	t.Parallel()
	tf, tfErr := referenceTerraform()
	type outcome struct {
		Output string
		Code   int
		HTTP   bool
		Local  []string
	}
	run := func(t *testing.T, bin string, workspaces int, to, input string) outcome {
		t.Helper()
		dir := t.TempDir()
		srv := newHTTPStateServer(t, "", "")
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = terraform.workspace\n}\n")
		steps := [][]string{{"init"}, {"apply", "-auto-approve"}}
		if workspaces == 2 {
			steps = append(steps, []string{"workspace", "new", "w2"}, []string{"apply", "-auto-approve"})
		}
		for _, args := range steps {
			if r := runIn(t, dir, "", bin, append(args, "-no-color")...); r.code != 0 {
				t.Fatalf("%s %v: %s%s", bin, args, r.stdout, r.stderr)
			}
		}
		block := httpBlock(srv.url)
		if to == "local" {
			block = "terraform {\n  backend \"local\" {\n    path          = \"o.tfstate\"\n    workspace_dir = \"wsd\"\n  }\n}\n"
		}
		writeFile(t, filepath.Join(dir, "backend.tf"), block)
		r := runIn(t, dir, input, bin, "init", "-migrate-state", "-no-color")
		// TF_IN_AUTOMATION shortens Terraform's closing text.
		out, _, _ := strings.Cut(r.stdout+r.stderr, "initialized!")
		o := outcome{Code: r.code, Output: strings.NewReplacer("Terraform", "strata", `"terraform `, `"strata `).Replace(out)}
		doc, _ := srv.state(t)
		o.HTTP = doc.Lineage != ""
		for _, p := range []string{"terraform.tfstate", "terraform.tfstate.d/w2/terraform.tfstate", "o.tfstate", "wsd/w2/terraform.tfstate"} {
			if st, err := os.Stat(filepath.Join(dir, p)); err == nil && st.Size() > 0 {
				o.Local = append(o.Local, p)
			}
		}
		return o
	}
	for _, to := range []string{"http", "local"} {
		for _, workspaces := range []int{1, 2} {
			for _, input := range []string{"", "yes\n", "no\n"} {
				if workspaces == 1 && input == "no\n" {
					// strata keeps the local state not copied, where
					// terraform empties it (see migrating-state.md).
					continue
				}
				name := fmt.Sprintf("%s_%d_workspaces_%q", to, workspaces, strings.TrimSpace(input))
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					got := run(t, strataBin, workspaces, to, input)
					if input == "" && (got.Code != 1 || !strings.Contains(got.Output, "Error asking for")) {
						t.Errorf("no answer: exit %d\n%s", got.Code, got.Output)
					}
					if tfErr != nil {
						return
					}
					if diff := cmp.Diff(run(t, tf, workspaces, to, input), got); diff != "" {
						t.Errorf("differs from terraform (-terraform +strata):\n%s", diff)
					}
				})
			}
		}
	}
}

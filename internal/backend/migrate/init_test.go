package migrate

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// fakeView records what a migration shows and answers its questions
// from answers, in order; with none left, the input has ended.
type fakeView struct {
	answers []string
	events  []string
}

func (v *fakeView) AddSource(filename string, _ []byte) {
	v.events = append(v.events, "source "+filename)
}
func (v *fakeView) BackendUnsetting(typ string)  { v.events = append(v.events, "unsetting "+typ) }
func (v *fakeView) BackendUnset(typ string)      { v.events = append(v.events, "unset "+typ) }
func (v *fakeView) BackendChanged()              { v.events = append(v.events, "changed") }
func (v *fakeView) BackendConfigured(typ string) { v.events = append(v.events, "configured "+typ) }
func (v *fakeView) NoWorkspacesAtDestination(typ string) {
	v.events = append(v.events, "single-state "+typ)
}

func (v *fakeView) Ask(query, _ string) (string, bool) {
	v.events = append(v.events, "ask "+query)
	if len(v.answers) == 0 {
		return "", false
	}
	a := v.answers[0]
	v.answers = v.answers[1:]
	return a, true
}

// stateJSON is a state file with one output, which makes it non-empty.
func stateJSON(lineage string, serial int, value string) string {
	return fmt.Sprintf(`{"version":4,"terraform_version":"1.11.0","serial":%d,"lineage":%q,"outputs":{"o":{"value":%q,"type":"string"}},"resources":[],"check_results":null}`, serial, lineage, value)
}

// block parses src as the body of a backend block of type typ.
func block(t *testing.T, typ, src string) *backend.Block {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &backend.Block{Type: typ, Body: f.Body, Range: hcl.Range{Filename: "main.tf"}}
}

// testEnv is an Env over the working directory, configuring each
// backend once as a command does.
func testEnv(t *testing.T) (*Env, *string) {
	t.Helper()
	cache := map[string]backend.Backend{}
	selected := "default"
	env := &Env{
		SavedPath:       filepath.Join(".terraform", "terraform.tfstate"),
		Workspace:       "default",
		SelectWorkspace: func(name string) error { selected = name; return nil },
		Version:         "0.0.0-test",
		StateVersion:    "1.11.0",
		Stderr:          io.Discard,
	}
	env.Backend = func(c *backend.Config) (backend.Backend, hcl.Diagnostics) {
		key := c.TypeName()
		if c != nil {
			key += c.Value.GoString()
		}
		if b, ok := cache[key]; ok {
			return b, nil
		}
		b, diags := backend.Configure(c, backend.Options{Getenv: func(string) string { return "" }, DataDir: ".terraform", Version: "1.11.0"})
		if !diags.HasErrors() {
			cache[key] = b
		}
		return b, diags
	}
	env.StateMgr = func(c *backend.Config, ws string) (statemgr.Manager, hcl.Diagnostics) {
		b, diags := env.Backend(c)
		if diags.HasErrors() {
			return nil, diags
		}
		return b.StateMgr(context.Background(), ws)
	}
	return env, &selected
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(data)
}

// outputOf returns output o of the state file at path, or what went
// wrong reading it.
func outputOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return "<missing>"
	}
	if len(data) == 0 {
		return "<empty>"
	}
	s, err := statefile.Read(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	o, ok := s.Outputs["o"]
	if !ok {
		return "<none>"
	}
	return o.Value.AsString()
}

func diagSummaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

func TestInitFirstBackend(t *testing.T) {
	tests := map[string]struct {
		answers   []string
		opts      Options
		wantDiags []string
		wantEvent []string
		// wantOld and wantNew are output o of terraform.tfstate and of
		// the new backend's other.tfstate.
		wantOld, wantNew string
		wantBackup       bool
		wantSaved        bool
	}{
		"copy on yes": {
			answers:   []string{"yes"},
			opts:      Options{Input: true, Lock: true},
			wantEvent: []string{"ask Do you want to copy existing state to the new backend?", "configured local"},
			wantOld:   "<empty>", wantNew: "before", wantBackup: true, wantSaved: true,
		},
		"keep on no": {
			answers:   []string{"no"},
			opts:      Options{Input: true, Lock: true},
			wantEvent: []string{"ask Do you want to copy existing state to the new backend?", "configured local"},
			wantOld:   "before", wantNew: "<missing>", wantSaved: true,
		},
		"force copy asks nothing": {
			opts:      Options{ForceCopy: true, Lock: true},
			wantEvent: []string{"configured local"},
			wantOld:   "<empty>", wantNew: "before", wantBackup: true, wantSaved: true,
		},
		"end of input is an error": {
			opts:      Options{Input: true, Lock: true},
			wantDiags: []string{"Error asking for confirmation: EOF"},
			wantEvent: []string{"ask Do you want to copy existing state to the new backend?"},
			wantOld:   "before", wantNew: "<missing>",
		},
		"no input": {
			opts: Options{Lock: true},
			wantDiags: []string{
				"Error migrating the workspace \"default\" from the previous \"local\" backend to the newly configured \"local\" backend",
			},
			wantOld: "before", wantNew: "<missing>",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.WriteFile("terraform.tfstate", []byte(stateJSON("l1", 3, "before")), 0o600); err != nil {
				t.Fatal(err)
			}
			env, _ := testEnv(t)
			v := &fakeView{answers: tc.answers}
			diags := Init(context.Background(), env, v, block(t, "local", `path = "other.tfstate"`), tc.opts)
			if diff := cmp.Diff(tc.wantDiags, diagSummaries(diags)); diff != "" {
				t.Errorf("wrong diagnostics (-want +got)\n%s\n%s", diff, diags)
			}
			if diff := cmp.Diff(tc.wantEvent, v.events); diff != "" {
				t.Errorf("wrong view events (-want +got)\n%s", diff)
			}
			if got := outputOf(t, "terraform.tfstate"); got != tc.wantOld {
				t.Errorf("terraform.tfstate holds %s, want %s", got, tc.wantOld)
			}
			if got := outputOf(t, "other.tfstate"); got != tc.wantNew {
				t.Errorf("other.tfstate holds %s, want %s", got, tc.wantNew)
			}
			if got := outputOf(t, "terraform.tfstate.backup") == "before"; got != tc.wantBackup {
				t.Errorf("terraform.tfstate.backup keeps the old state: %v, want %v", got, tc.wantBackup)
			}
			saved := readFile(t, env.SavedPath)
			if got := strings.Contains(saved, `"type": "local"`); got != tc.wantSaved {
				t.Errorf("backend recorded: %v, want %v\n%s", got, tc.wantSaved, saved)
			}
		})
	}
}

func TestInitChangedBackend(t *testing.T) {
	t.Chdir(t.TempDir())
	env, _ := testEnv(t)
	first := block(t, "local", `path = "a.tfstate"`)
	if diags := Init(context.Background(), env, &fakeView{}, first, Options{Lock: true}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := os.WriteFile("a.tfstate", []byte(stateJSON("l1", 1, "in a")), 0o600); err != nil {
		t.Fatal(err)
	}
	second := block(t, "local", `path = "b.tfstate"`)

	// Without -migrate-state, a changed backend is an error and nothing
	// moves.
	v := &fakeView{}
	diags := Init(context.Background(), env, v, second, Options{Lock: true})
	if diff := cmp.Diff([]string{"Backend configuration changed"}, diagSummaries(diags)); diff != "" {
		t.Errorf("wrong diagnostics (-want +got)\n%s", diff)
	}
	if got := outputOf(t, "b.tfstate"); got != "<missing>" {
		t.Errorf("b.tfstate holds %s without -migrate-state", got)
	}

	// -reconfigure records the new backend without copying anything.
	v = &fakeView{}
	if diags := Init(context.Background(), env, v, second, Options{Lock: true, Reconfigure: true}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := outputOf(t, "b.tfstate"); got != "<missing>" {
		t.Errorf("b.tfstate holds %s after -reconfigure", got)
	}
	if !strings.Contains(readFile(t, env.SavedPath), "b.tfstate") {
		t.Errorf("-reconfigure did not record the new backend:\n%s", readFile(t, env.SavedPath))
	}

	// Back to a.tfstate with -migrate-state: b.tfstate has no state, so
	// nothing is copied over a.tfstate's.
	if diags := Init(context.Background(), env, &fakeView{}, first, Options{Lock: true, MigrateState: true, ForceCopy: true}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := outputOf(t, "a.tfstate"); got != "in a" {
		t.Errorf("a.tfstate holds %s, want its own state", got)
	}

	// Then to b.tfstate with -migrate-state, answering yes.
	v = &fakeView{answers: []string{"yes"}}
	if diags := Init(context.Background(), env, v, second, Options{Lock: true, MigrateState: true, Input: true}); diags.HasErrors() {
		t.Fatal(diags)
	}
	want := []string{"changed", "ask Do you want to copy existing state to the new backend?", "configured local"}
	if diff := cmp.Diff(want, v.events); diff != "" {
		t.Errorf("wrong view events (-want +got)\n%s", diff)
	}
	if got := outputOf(t, "b.tfstate"); got != "in a" {
		t.Errorf("b.tfstate holds %s, want the migrated state", got)
	}
	if got := outputOf(t, "a.tfstate"); got != "in a" {
		t.Errorf("a.tfstate holds %s: a changed backend's source is left as it is", got)
	}
}

func TestInitUnsetBackend(t *testing.T) {
	t.Chdir(t.TempDir())
	env, _ := testEnv(t)
	cfg := block(t, "local", `path = "a.tfstate"`)
	if diags := Init(context.Background(), env, &fakeView{}, cfg, Options{Lock: true}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if err := os.WriteFile("a.tfstate", []byte(stateJSON("l1", 1, "in a")), 0o600); err != nil {
		t.Fatal(err)
	}
	diags := Init(context.Background(), env, &fakeView{}, nil, Options{Lock: true})
	if diff := cmp.Diff([]string{"Backend configuration changed"}, diagSummaries(diags)); diff != "" {
		t.Errorf("wrong diagnostics (-want +got)\n%s", diff)
	}
	v := &fakeView{}
	if diags := Init(context.Background(), env, v, nil, Options{Lock: true, MigrateState: true, ForceCopy: true}); diags.HasErrors() {
		t.Fatal(diags)
	}
	if diff := cmp.Diff([]string{"unsetting local", "unset local"}, v.events); diff != "" {
		t.Errorf("wrong view events (-want +got)\n%s", diff)
	}
	if got := outputOf(t, "terraform.tfstate"); got != "in a" {
		t.Errorf("terraform.tfstate holds %s, want the migrated state", got)
	}
	if saved := readFile(t, env.SavedPath); strings.Contains(saved, `"backend"`) && strings.Contains(saved, `"type": "local"`) {
		t.Errorf("the backend is still recorded:\n%s", saved)
	}
}

func TestInitWorkspaces(t *testing.T) {
	tests := map[string]struct {
		to        string
		answers   []string
		wantEvent []string
		wantDiags []string
		// wantDev is output o of dev in the destination's default
		// (single state) or dev workspace.
		wantDev      string
		wantSelected string
	}{
		"all workspaces": {
			to:        `workspace_dir = "other.d"`,
			answers:   []string{"yes"},
			wantEvent: []string{"ask Do you want to migrate all workspaces to \"local\"?", "configured local"},
			wantDev:   "dev", wantSelected: "default",
		},
		"refused": {
			to:        `workspace_dir = "other.d"`,
			answers:   []string{"no"},
			wantEvent: []string{"ask Do you want to migrate all workspaces to \"local\"?"},
			wantDiags: []string{"Migration aborted by user."},
			wantDev:   "<missing>", wantSelected: "default",
		},
		"end of input": {
			to:        `workspace_dir = "other.d"`,
			wantEvent: []string{"ask Do you want to migrate all workspaces to \"local\"?"},
			wantDiags: []string{"Error asking for state migration action: Error asking for confirmation: EOF"},
			wantDev:   "<missing>", wantSelected: "default",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			if err := os.MkdirAll(filepath.Join("terraform.tfstate.d", "dev"), 0o755); err != nil {
				t.Fatal(err)
			}
			for path, value := range map[string]string{"terraform.tfstate": "default", filepath.Join("terraform.tfstate.d", "dev", "terraform.tfstate"): "dev"} {
				if err := os.WriteFile(path, []byte(stateJSON("l-"+value, 1, value)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			env, selected := testEnv(t)
			v := &fakeView{answers: tc.answers}
			diags := Init(context.Background(), env, v, block(t, "local", tc.to), Options{Lock: true, Input: true})
			if diff := cmp.Diff(tc.wantDiags, diagSummaries(diags)); diff != "" {
				t.Errorf("wrong diagnostics (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantEvent, v.events); diff != "" {
				t.Errorf("wrong view events (-want +got)\n%s", diff)
			}
			if got := outputOf(t, filepath.Join("other.d", "dev", "terraform.tfstate")); got != tc.wantDev {
				t.Errorf("dev's destination holds %s, want %s", got, tc.wantDev)
			}
			if *selected != tc.wantSelected {
				t.Errorf("selected workspace %q, want %q", *selected, tc.wantSelected)
			}
		})
	}
}

package backend

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// fakeMgr is a state manager whose every step can fail; the methods
// OpenState and SaveState do not use panic (nil embedded interface).
type fakeMgr struct {
	statemgr.Manager
	lockErr, unlockErr, readErr, endErr error
	state                               *states.State
	pending                             []statemgr.Pending
	events                              []string
}

func (m *fakeMgr) Lock(_ context.Context, info *statemgr.LockInfo, timeout time.Duration) error {
	m.events = append(m.events, "lock "+info.Operation+" "+timeout.String())
	return m.lockErr
}

func (m *fakeMgr) Unlock() error {
	m.events = append(m.events, "unlock")
	return m.unlockErr
}

func (m *fakeMgr) Read() (*states.State, []statemgr.Pending, error) {
	m.events = append(m.events, "read")
	return m.state, m.pending, m.readErr
}

func (m *fakeMgr) EndJournal(*states.State) error {
	m.events = append(m.events, "end")
	return m.endErr
}

func (m *fakeMgr) String() string { return "fake" }

func TestOpenState(t *testing.T) {
	t.Parallel()
	s := states.New()
	tests := map[string]struct {
		mgr        *fakeMgr
		lock       bool
		wantEvents []string // including the release's
		wantDiags  []string // severity and summary
		wantDetail string   // in the first diagnostic's detail
		wantState  bool
		wantStderr string
	}{
		"locked": {
			mgr: &fakeMgr{state: s}, lock: true,
			wantEvents: []string{"lock apply 3s", "read", "unlock"}, wantState: true,
		},
		"unlocked": {
			mgr: &fakeMgr{state: s}, wantEvents: []string{"read"}, wantState: true,
		},
		"lock held elsewhere": {
			mgr: &fakeMgr{lockErr: errors.New("Error acquiring the state lock: held by someone")}, lock: true,
			wantEvents: []string{"lock apply 3s"},
			wantDiags:  []string{"error Error acquiring the state lock"}, wantDetail: "held by someone",
		},
		"read fails, unlocked at once": {
			mgr: &fakeMgr{readErr: errors.New("bad json")}, lock: true,
			wantEvents: []string{"lock apply 3s", "read", "unlock"},
			wantDiags:  []string{"error Failed to load state"}, wantDetail: "bad json",
		},
		"empty file": {
			mgr:        &fakeMgr{readErr: &statemgr.EmptyStateError{Path: "x.tfstate"}},
			wantEvents: []string{"read"},
			wantDiags:  []string{"error Empty state file"}, wantDetail: "The state file x.tfstate is empty",
		},
		"pending operations": {
			mgr: &fakeMgr{state: s, pending: []statemgr.Pending{
				{Addr: "null_resource.a", Action: "create"},
				{Addr: "null_resource.b", Deposed: "abcd", Action: "delete"},
			}},
			wantEvents: []string{"read"}, wantState: true,
			wantDiags: []string{
				"warning Operation interrupted: null_resource.a",
				"warning Operation interrupted: null_resource.b (deposed object abcd)",
			},
			wantDetail: "performing a create of null_resource.a, so strata does not know whether it finished. If the new object was created",
		},
		"unlock fails": {
			mgr: &fakeMgr{state: s, unlockErr: errors.New("gone")}, lock: true,
			wantEvents: []string{"lock apply 3s", "read", "unlock"}, wantState: true,
			wantStderr: "Error releasing the state lock: gone\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var stderr bytes.Buffer
			got, release, diags := OpenState(context.Background(), tc.mgr, OpenOptions{Lock: tc.lock, Timeout: 3 * time.Second, Operation: "apply", Version: "test", Stderr: &stderr})
			release()
			if diff := cmp.Diff(tc.wantEvents, tc.mgr.events); diff != "" {
				t.Errorf("wrong manager calls (-want +got)\n%s", diff)
			}
			var gotDiags []string
			for _, d := range diags {
				sev := "error"
				if d.Severity == hcl.DiagWarning {
					sev = "warning"
				}
				gotDiags = append(gotDiags, sev+" "+d.Summary)
			}
			if diff := cmp.Diff(tc.wantDiags, gotDiags); diff != "" {
				t.Errorf("wrong diagnostics (-want +got)\n%s", diff)
			}
			if tc.wantDetail != "" && (len(diags) == 0 || !strings.Contains(diags[0].Detail, tc.wantDetail)) {
				t.Errorf("first detail lacks %q: %s", tc.wantDetail, diags)
			}
			if (got != nil) != tc.wantState {
				t.Errorf("state returned: %v, want %v", got != nil, tc.wantState)
			}
			if stderr.String() != tc.wantStderr {
				t.Errorf("stderr %q, want %q", stderr.String(), tc.wantStderr)
			}
		})
	}
}

func TestSaveState(t *testing.T) {
	t.Parallel()
	s := states.New()
	s.Lineage, s.Serial = "l1", 4
	encrypt := func(b []byte) ([]byte, error) { return append([]byte("ENC:"), b...), nil }
	t.Run("saved", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "errored.tfstate")
		m := &fakeMgr{}
		if diags := SaveState(m, s, path, encrypt, nil); len(diags) != 0 {
			t.Fatal(diags)
		}
		if _, err := os.Stat(path); err == nil {
			t.Error("errored.tfstate written though the state was saved")
		}
	})
	t.Run("errored.tfstate", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "errored.tfstate")
		m := &fakeMgr{endErr: errors.New("backend down")}
		diags := SaveState(m, s, path, encrypt, nil)
		if len(diags) != 1 || diags[0].Summary != "Failed to save state" || !strings.Contains(diags[0].Detail, "Error saving state: backend down") || !strings.Contains(diags[0].Detail, `written to "errored.tfstate"`) {
			t.Fatalf("wrong diagnostics: %s", diags)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		plain, ok := bytes.CutPrefix(data, []byte("ENC:"))
		if !ok {
			t.Fatalf("errored.tfstate not encrypted: %q", data)
		}
		back, err := statefile.Read(plain)
		if err != nil || back.Lineage != "l1" || back.Serial != 4 {
			t.Errorf("errored.tfstate holds %+v (%v), want lineage l1 serial 4", back, err)
		}
	})
	t.Run("nowhere to write", func(t *testing.T) {
		t.Parallel()
		m := &fakeMgr{endErr: errors.New("backend down")}
		fail := func([]byte) ([]byte, error) { return nil, errors.New("no key") }
		diags := SaveState(m, s, filepath.Join(t.TempDir(), "errored.tfstate"), fail, nil)
		if len(diags) != 1 || !strings.Contains(diags[0].Detail, "could not be written to errored.tfstate either (no key)") {
			t.Fatalf("wrong diagnostics: %s", diags)
		}
	})
}

func TestReadableStateWarning(t *testing.T) {
	t.Parallel()
	secret := states.New()
	secret.Outputs["s"] = &states.OutputValue{Value: cty.StringVal("x"), Sensitive: true}
	plain := states.New()
	plain.Outputs["p"] = &states.OutputValue{Value: cty.StringVal("x")}
	tests := map[string]struct {
		state *states.State
		mode  os.FileMode
		local bool
		want  bool
	}{
		"secret, world-readable": {state: secret, mode: 0o644, local: true, want: true},
		"secret, owner only":     {state: secret, mode: 0o600, local: true},
		"nothing sensitive":      {state: plain, mode: 0o644, local: true},
		"not a local state":      {state: secret, mode: 0o644},
		"secret, group-readable": {state: secret, mode: 0o640, local: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			if err := os.WriteFile(path, []byte(`{"version":4}`), tc.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil { // whatever the umask
				t.Fatal(err)
			}
			var mgr statemgr.Manager = &fakeMgr{}
			if tc.local {
				mgr = statemgr.NewLocal(path, path, "", "1.11.4")
			}
			diags := ReadableStateWarning(mgr, tc.state)
			if got := len(diags) == 1 && diags[0].Summary == "State file readable by all users"; got != tc.want {
				t.Errorf("warned: %v, want %v (%s)", got, tc.want, diags)
			}
			if !tc.want && len(diags) != 0 {
				t.Errorf("unexpected diagnostics: %s", diags)
			}
		})
	}
}

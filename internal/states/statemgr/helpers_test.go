package statemgr

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

const testVersion = "1.11.4"

var builtin = addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}

func addr(t testing.TB, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(s)
	if diags.HasErrors() {
		t.Fatalf("bad address %q: %s", s, diags.Error())
	}
	return a
}

// obj returns a terraform_data object whose id is id.
func obj(id string) *states.ObjectSrc {
	return &states.ObjectSrc{
		AttrsJSON: []byte(fmt.Sprintf(`{"id":%q,"input":null,"output":null,"triggers_replace":null}`, id)),
		Status:    states.ObjectReady,
	}
}

// stateWith returns a state holding a terraform_data object for each
// address, with the address as its id.
func stateWith(t testing.TB, addrs ...string) *states.State {
	t.Helper()
	s := states.New()
	for _, a := range addrs {
		s.SetObject(addr(t, a), obj(a), builtin)
	}
	return s
}

// ids returns the ids of the state's current objects by address.
func ids(t testing.TB, s *states.State) map[string]string {
	t.Helper()
	ret := map[string]string{}
	for _, a := range s.AllInstances() {
		o := s.Object(a)
		if o == nil {
			continue
		}
		var v struct{ ID string }
		if err := json.Unmarshal(o.AttrsJSON, &v); err != nil {
			t.Fatalf("%s: %s", a, err)
		}
		ret[a.String()] = v.ID
	}
	return ret
}

// readFile reads and decodes a state file.
func readState(t testing.TB, path string) *states.State {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := statefile.Read(src)
	if err != nil {
		t.Fatalf("%s: %s", path, err)
	}
	return s
}

func mustRead(t testing.TB, m *Local) (*states.State, []Pending) {
	t.Helper()
	s, pending, err := m.Read()
	if err != nil {
		t.Fatalf("Read: %s", err)
	}
	return s, pending
}

func mustWrite(t testing.TB, m *Local, s *states.State) {
	t.Helper()
	if err := m.Write(s); err != nil {
		t.Fatalf("Write: %s", err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// ageFile sets a file's modification time an hour back, so that a later
// rewrite is visible whatever the file system's time granularity.
func ageFile(t testing.TB, path string) time.Time {
	t.Helper()
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	return old
}

func mtime(t testing.TB, path string) time.Time {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.ModTime()
}

func perm(t testing.TB, path string) os.FileMode {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Mode().Perm()
}

// dirFiles lists the names in dir.
func dirFiles(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func stringOutput(s string) *states.OutputValue {
	return &states.OutputValue{Value: cty.StringVal(s)}
}

func tempState(t testing.TB) (dir, path string) {
	dir = t.TempDir()
	return dir, filepath.Join(dir, "terraform.tfstate")
}

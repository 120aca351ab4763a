package statemgr

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

func TestLocalReadMissing(t *testing.T) {
	dir, path := tempState(t)
	m := NewLocal(path, "", "", testVersion)
	s, pending := mustRead(t, m)
	if !s.Empty() || s.Serial != 0 || s.Lineage == "" || pending != nil {
		t.Fatalf("got state %+v, pending %v", s, pending)
	}
	// A second manager invents another lineage.
	s2, _ := mustRead(t, NewLocal(path, "", "", testVersion))
	if s2.Lineage == s.Lineage {
		t.Error("two fresh states share a lineage")
	}
	if files := dirFiles(t, dir); len(files) != 0 {
		t.Errorf("Read created files: %v", files)
	}
}

func TestLocalReadErrors(t *testing.T) {
	tests := map[string]string{
		"invalid JSON": "{",
		"newer format": `{"version":5}`,
	}
	for name, content := range tests {
		t.Run(name, func(t *testing.T) {
			_, path := tempState(t)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := NewLocal(path, "", "", testVersion).Read()
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("got %v, want an error naming %s", err, path)
			}
		})
	}
	t.Run("unreadable", func(t *testing.T) {
		dir, _ := tempState(t)
		// A directory cannot be read as a file.
		if _, _, err := NewLocal(dir, "", "", testVersion).Read(); err == nil {
			t.Fatal("no error")
		}
	})
}

func TestLocalWriteReadRoundTrip(t *testing.T) {
	_, path := tempState(t)
	m := NewLocal(path, "", "", testVersion)
	s, _ := mustRead(t, m)
	lineage := s.Lineage
	s.SetObject(addr(t, "terraform_data.a[0]"), obj("a0"), builtin)
	s.SetObject(addr(t, `module.m["k"].terraform_data.b`), obj("b"), builtin)
	s.SetDeposed(addr(t, "terraform_data.a[0]"), "deadbeef", obj("old"), builtin)
	s.Outputs["o"] = stringOutput("v")
	mustWrite(t, m, s)

	got, pending := mustRead(t, NewLocal(path, "", "", testVersion))
	if pending != nil {
		t.Errorf("pending: %v", pending)
	}
	if got.Serial != 1 || got.Lineage != lineage || got.TerraformVersion != testVersion {
		t.Errorf("header: serial %d lineage %q (want %q) version %q", got.Serial, got.Lineage, lineage, got.TerraformVersion)
	}
	want, _ := statefile.Write(s)
	have, _ := statefile.Write(got)
	if diff := cmp.Diff(string(want), string(have)); diff != "" {
		t.Errorf("(-written +read):\n%s", diff)
	}
	onDisk, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(onDisk, want) {
		t.Errorf("file content differs from statefile.Write")
	}
}

// TestLocalSerial: the serial increases only when the content changes, and
// an unchanged state is not written at all.
func TestLocalSerial(t *testing.T) {
	_, path := tempState(t)
	m := NewLocal(path, "", "-", testVersion)
	s, _ := mustRead(t, m)
	s.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
	mustWrite(t, m, s)
	if s.Serial != 1 || readState(t, path).Serial != 1 {
		t.Fatalf("first write: serial %d, on disk %d", s.Serial, readState(t, path).Serial)
	}

	steps := []struct {
		name       string
		change     func(s *states.State) *states.State
		wantSerial uint64
		wantWrite  bool
	}{
		{name: "same state again", change: func(s *states.State) *states.State { return s }, wantSerial: 1},
		{name: "copy with an old serial", change: func(s *states.State) *states.State {
			c := s.DeepCopy()
			c.Serial = 0
			return c
		}, wantSerial: 1},
		{name: "new object", change: func(s *states.State) *states.State {
			s.SetObject(addr(t, "terraform_data.b"), obj("b"), builtin)
			return s
		}, wantSerial: 2, wantWrite: true},
		{name: "unchanged after a change", change: func(s *states.State) *states.State { return s }, wantSerial: 2},
		{name: "output", change: func(s *states.State) *states.State {
			s.Outputs["o"] = stringOutput("x")
			return s
		}, wantSerial: 3, wantWrite: true},
		{name: "removal", change: func(s *states.State) *states.State {
			s.SetObject(addr(t, "terraform_data.a"), nil, builtin)
			return s
		}, wantSerial: 4, wantWrite: true},
		{name: "stale copy with a change", change: func(s *states.State) *states.State {
			c := s.DeepCopy()
			c.Serial = 1
			c.Outputs["o"] = stringOutput("y")
			return c
		}, wantSerial: 5, wantWrite: true},
	}
	for _, step := range steps {
		old := ageFile(t, path)
		before, _ := os.ReadFile(path)
		s = step.change(s)
		mustWrite(t, m, s)
		if s.Serial != step.wantSerial {
			t.Errorf("%s: state serial %d, want %d", step.name, s.Serial, step.wantSerial)
		}
		if got := readState(t, path).Serial; got != step.wantSerial {
			t.Errorf("%s: serial on disk %d, want %d", step.name, got, step.wantSerial)
		}
		after, _ := os.ReadFile(path)
		rewritten := !mtime(t, path).Equal(old)
		if rewritten != step.wantWrite {
			t.Errorf("%s: file rewritten = %v, want %v", step.name, rewritten, step.wantWrite)
		}
		if !step.wantWrite && !bytes.Equal(before, after) {
			t.Errorf("%s: content changed", step.name)
		}
	}

	// A new manager reading the file and writing it back unchanged leaves it
	// alone too.
	m2 := NewLocal(path, "", "", testVersion)
	s2, _ := mustRead(t, m2)
	old := ageFile(t, path)
	mustWrite(t, m2, s2)
	if !mtime(t, path).Equal(old) || s2.Serial != 5 {
		t.Errorf("unchanged state rewritten by a new manager (serial %d)", s2.Serial)
	}
	if exists(path + ".backup") {
		t.Error("backup written although nothing was")
	}
}

// terraformState writes the state Terraform wrote in statefile's round
// trip case name to a new state file, and returns it.
func terraformState(t *testing.T, name string) (dir, path string, src []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "statefile", "testdata", "roundtrip", name+".in.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir, path = tempState(t)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path, src
}

// TestLocalTerraformStateUnchanged: a state Terraform wrote is read and
// written back without a change, so it is not rewritten.
func TestLocalTerraformStateUnchanged(t *testing.T) {
	for _, name := range []string{"terraform-count-foreach-outputs", "terraform-modules-checks-tainted"} {
		t.Run(name, func(t *testing.T) {
			dir, path, src := terraformState(t, name)
			old := ageFile(t, path)
			m := NewLocal(path, "", "", testVersion)
			s, _ := mustRead(t, m)
			serial := s.Serial
			mustWrite(t, m, s)
			if !mtime(t, path).Equal(old) || s.Serial != serial {
				t.Errorf("rewritten: serial %d -> %d", serial, s.Serial)
			}
			if diff := cmp.Diff([]string{"terraform.tfstate"}, dirFiles(t, dir)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			// A real change bumps the serial by one and keeps the rest.
			s.Outputs["added"] = stringOutput("x")
			mustWrite(t, m, s)
			got := readState(t, path)
			if got.Serial != serial+1 || got.Lineage != s.Lineage {
				t.Errorf("after a change: serial %d lineage %q", got.Serial, got.Lineage)
			}
			backup, _ := os.ReadFile(path + ".backup")
			if !bytes.Equal(backup, src) {
				t.Error("backup does not hold Terraform's file")
			}
		})
	}
}

// TestLocalForgetRead checks that a manager that dropped the snapshot it
// read still writes only real changes: an unchanged state leaves the file
// as it is, a change bumps the serial by one.
func TestLocalForgetRead(t *testing.T) {
	_, path, _ := terraformState(t, "terraform-count-foreach-outputs")
	old := ageFile(t, path)
	m := NewLocal(path, "", "", testVersion)
	s, _ := mustRead(t, m)
	serial := s.Serial
	ForgetRead(m)
	if m.read != nil {
		t.Fatal("the snapshot read is still kept")
	}
	mustWrite(t, m, s)
	if !mtime(t, path).Equal(old) || s.Serial != serial {
		t.Errorf("rewritten: serial %d -> %d", serial, s.Serial)
	}
	ForgetRead(m)
	s.Outputs["added"] = stringOutput("x")
	mustWrite(t, m, s)
	if got := readState(t, path); got.Serial != serial+1 {
		t.Errorf("after a change: serial %d, want %d", got.Serial, serial+1)
	}
}

func TestLocalBackup(t *testing.T) {
	_, path := tempState(t)
	backup := path + ".backup"

	// The first snapshot has nothing to back up.
	m1 := NewLocal(path, "", "", testVersion)
	s, _ := mustRead(t, m1)
	s.SetObject(addr(t, "terraform_data.a"), obj("v1"), builtin)
	mustWrite(t, m1, s)
	if exists(backup) {
		t.Fatal("backup written for a new state file")
	}
	v1, _ := os.ReadFile(path)

	// The next manager backs up the snapshot it replaces, once.
	m2 := NewLocal(path, "", "", testVersion)
	s, _ = mustRead(t, m2)
	s.SetObject(addr(t, "terraform_data.a"), obj("v2"), builtin)
	mustWrite(t, m2, s)
	if got, _ := os.ReadFile(backup); !bytes.Equal(got, v1) {
		t.Fatalf("backup holds:\n%s\nwant:\n%s", got, v1)
	}
	s.SetObject(addr(t, "terraform_data.a"), obj("v3"), builtin)
	mustWrite(t, m2, s)
	if got, _ := os.ReadFile(backup); !bytes.Equal(got, v1) {
		t.Fatal("backup rewritten by the same manager")
	}
	if ids(t, readState(t, path))["terraform_data.a"] != "v3" {
		t.Fatal("state not written")
	}
	v3, _ := os.ReadFile(path)

	// A third manager backs up v3.
	m3 := NewLocal(path, "", "", testVersion)
	s, _ = mustRead(t, m3)
	s.SetObject(addr(t, "terraform_data.a"), obj("v4"), builtin)
	mustWrite(t, m3, s)
	if got, _ := os.ReadFile(backup); !bytes.Equal(got, v3) {
		t.Fatal("backup does not hold the previous snapshot")
	}

	t.Run("custom path", func(t *testing.T) {
		dir, path := tempState(t)
		if err := os.WriteFile(path, v1, 0o600); err != nil {
			t.Fatal(err)
		}
		custom := filepath.Join(dir, "my.backup")
		m := NewLocal(path, "", custom, testVersion)
		s, _ := mustRead(t, m)
		s.Outputs["o"] = stringOutput("x")
		mustWrite(t, m, s)
		if got, _ := os.ReadFile(custom); !bytes.Equal(got, v1) {
			t.Fatal("custom backup not written")
		}
		if exists(path + ".backup") {
			t.Fatal("default backup written as well")
		}
	})
	t.Run("disabled", func(t *testing.T) {
		dir, path := tempState(t)
		if err := os.WriteFile(path, v1, 0o600); err != nil {
			t.Fatal(err)
		}
		m := NewLocal(path, "", "-", testVersion)
		s, _ := mustRead(t, m)
		s.Outputs["o"] = stringOutput("x")
		mustWrite(t, m, s)
		if diff := cmp.Diff([]string{"terraform.tfstate"}, dirFiles(t, dir)); diff != "" {
			t.Fatalf("files (-want +got):\n%s", diff)
		}
	})
	t.Run("backup failure stops the write", func(t *testing.T) {
		dir, path := tempState(t)
		if err := os.WriteFile(path, v1, 0o600); err != nil {
			t.Fatal(err)
		}
		m := NewLocal(path, "", filepath.Join(dir, "missing", "x.backup"), testVersion)
		s, _ := mustRead(t, m)
		s.Outputs["o"] = stringOutput("x")
		if err := m.Write(s); err == nil {
			t.Fatal("no error")
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, v1) {
			t.Fatal("state replaced although its backup failed")
		}
	})
}

func TestLocalFileModes(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)

	_, path := tempState(t)
	empty := `{"version": 4, "serial": 0, "lineage": "0a1b", "outputs": {}, "resources": []}`
	if err := os.WriteFile(path, []byte(empty), 0o666); err != nil {
		t.Fatal(err)
	}
	m := NewLocal(path, "", "-", testVersion)
	s, _ := mustRead(t, m)
	s.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
	mustWrite(t, m, s)
	// Write a second time with a new manager to get a backup.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	m = NewLocal(path, "", "", testVersion)
	s, _ = mustRead(t, m)
	s.SetObject(addr(t, "terraform_data.b"), obj("b"), builtin)
	mustWrite(t, m, s)
	for _, p := range []string{path, path + ".backup"} {
		if got := perm(t, p); got != 0o600 {
			t.Errorf("%s has mode %o, want 600", filepath.Base(p), got)
		}
	}
}

// TestLocalStateOut: -state-out writes elsewhere and leaves -state alone.
func TestLocalStateOut(t *testing.T) {
	dir, in := tempState(t)
	out := filepath.Join(dir, "out.tfstate")
	seed := stateWith(t, "terraform_data.a")
	seed.Lineage, seed.Serial, seed.TerraformVersion = "seed-lineage", 5, testVersion
	src, err := statefile.Write(seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, src, 0o600); err != nil {
		t.Fatal(err)
	}

	m := NewLocal(in, out, "", testVersion)
	s, _ := mustRead(t, m)
	if s.Serial != 5 || s.Lineage != "seed-lineage" {
		t.Fatalf("read serial %d lineage %q", s.Serial, s.Lineage)
	}
	// Even an unchanged state is written to the new path.
	mustWrite(t, m, s)
	got := readState(t, out)
	if got.Serial != 6 || got.Lineage != "seed-lineage" || ids(t, got)["terraform_data.a"] != "terraform_data.a" {
		t.Fatalf("out: serial %d lineage %q ids %v", got.Serial, got.Lineage, ids(t, got))
	}
	s.SetObject(addr(t, "terraform_data.b"), obj("b"), builtin)
	mustWrite(t, m, s)
	if got := readState(t, out); got.Serial != 7 || len(ids(t, got)) != 2 {
		t.Fatalf("out after change: serial %d ids %v", got.Serial, ids(t, got))
	}
	if now, _ := os.ReadFile(in); !bytes.Equal(now, src) {
		t.Fatal("-state file modified")
	}
	if diff := cmp.Diff([]string{"out.tfstate", "terraform.tfstate"}, dirFiles(t, dir)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if perm(t, out) != 0o600 {
		t.Errorf("out has mode %o", perm(t, out))
	}

	t.Run("existing out is backed up", func(t *testing.T) {
		other := stateWith(t, "terraform_data.other")
		other.Lineage, other.Serial = "other", 1
		osrc, _ := statefile.Write(other)
		if err := os.WriteFile(out, osrc, 0o600); err != nil {
			t.Fatal(err)
		}
		m := NewLocal(in, out, "", testVersion)
		s, _ := mustRead(t, m)
		mustWrite(t, m, s)
		if b, _ := os.ReadFile(out + ".backup"); !bytes.Equal(b, osrc) {
			t.Fatal("out's previous content not backed up")
		}
		if got := readState(t, out); got.Lineage != "seed-lineage" || got.Serial != 6 {
			t.Fatalf("out: %q %d", got.Lineage, got.Serial)
		}
	})
}

// TestLocalEmpty: no file is created for a state that was and stays
// empty, but a state that becomes empty is written.
func TestLocalEmpty(t *testing.T) {
	dir, path := tempState(t)
	m := NewLocal(path, "", "", testVersion)
	s, _ := mustRead(t, m)
	mustWrite(t, m, s)
	mustWrite(t, m, states.New())
	if files := dirFiles(t, dir); len(files) != 0 {
		t.Fatalf("files created: %v", files)
	}

	s.SetObject(addr(t, "terraform_data.a"), obj("a"), builtin)
	mustWrite(t, m, s)
	s.SetObject(addr(t, "terraform_data.a"), nil, builtin)
	mustWrite(t, m, s)
	got := readState(t, path)
	if !got.Empty() || got.Serial != 2 {
		t.Fatalf("destroyed state: serial %d, %d resources", got.Serial, len(got.Resources))
	}
	// Writing the now empty state again changes nothing.
	old := ageFile(t, path)
	mustWrite(t, m, s)
	if !mtime(t, path).Equal(old) {
		t.Error("empty state rewritten")
	}
}

func TestLocalWriteSetsVersionAndLineage(t *testing.T) {
	_, path := tempState(t)
	m := NewLocal(path, "", "", "9.9.9")
	s := stateWith(t, "terraform_data.a")
	s.TerraformVersion = "0.0.1"
	mustWrite(t, m, s)
	got := readState(t, path)
	if got.TerraformVersion != "9.9.9" || got.Lineage == "" || got.Lineage != s.Lineage {
		t.Fatalf("version %q lineage %q (state's %q)", got.TerraformVersion, got.Lineage, s.Lineage)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	for i, content := range []string{"one", "two, longer", ""} {
		if err := WriteFileAtomic(path, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != content {
			t.Errorf("write %d: got %q", i, got)
		}
		if perm(t, path) != 0o640 {
			t.Errorf("write %d: mode %o", i, perm(t, path))
		}
	}
	if diff := cmp.Diff([]string{"f"}, dirFiles(t, dir)); diff != "" {
		t.Errorf("temporary files left (-want +got):\n%s", diff)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "no", "such"), []byte("x"), 0o600); err == nil {
		t.Error("no error for a missing directory")
	}
}

// TestLocalEmptyFile: a state file that is empty or holds only whitespace
// is refused and left as it is, never read as "no state".
func TestLocalEmptyFile(t *testing.T) {
	for name, content := range map[string]string{"empty": "", "whitespace": " \n\t\n"} {
		t.Run(name, func(t *testing.T) {
			_, path := tempState(t)
			if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := NewLocal(path, "", "", testVersion).Read()
			var empty *EmptyStateError
			if !errors.As(err, &empty) || empty.Path != path {
				t.Fatalf("Read: %v, want an *EmptyStateError for %s", err, path)
			}
			if got, _ := os.ReadFile(path); string(got) != content {
				t.Errorf("the file was changed to %q", got)
			}
		})
	}
}

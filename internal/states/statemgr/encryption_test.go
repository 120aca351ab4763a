package statemgr

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// stateTarget returns the state target of an encryption configuration
// (the body of an encryption block, which may use var.pass).
func stateTarget(t *testing.T, src, pass string) *encryption.Target {
	t.Helper()
	cfg, diags := encryption.DecodeEnv(src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e, diags := encryption.New(cfg, func(expr hcl.Expression, _ string) (cty.Value, hcl.Diagnostics) {
		return expr.Value(&hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"pass": cty.StringVal(pass)})}})
	})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return e.State()
}

const (
	encKP = `
key_provider "pbkdf2" "k" {
  passphrase = var.pass
  iterations = 200000
  hash_function = "sha256"
}
method "aes_gcm" "m" { keys = key_provider.pbkdf2.k }
`
	encOnly    = encKP + `state { method = method.aes_gcm.m }`
	encMigrate = encKP + `
method "unencrypted" "u" {}
state {
  method = method.aes_gcm.m
  fallback { method = method.unencrypted.u }
}`
	secretID = "terraform_data.secret-id-9f8e7d"
)

// noSecret fails if any file under dir holds the secret.
func noSecret(t *testing.T, dir, secret string) {
	t.Helper()
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the secret in clear", p)
		}
		return nil
	})
}

func TestLocalEncrypted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	tgt := stateTarget(t, encOnly, "the right passphrase, long")

	m := NewLocal(path, "", "", testVersion)
	m.SetEncryption(tgt)
	if _, _, err := m.Read(); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(stateWith(t, secretID)); err != nil {
		t.Fatal(err)
	}
	// The next command's write makes a backup of the first.
	mb := NewLocal(path, "", "", testVersion)
	mb.SetEncryption(tgt)
	if _, _, err := mb.Read(); err != nil {
		t.Fatal(err)
	}
	if err := mb.Write(stateWith(t, secretID, "terraform_data.b")); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !encryption.IsEncrypted(raw) {
		t.Fatalf("the state file is not encrypted: %s", raw)
	}
	if b, _ := os.ReadFile(path + ".backup"); !encryption.IsEncrypted(b) {
		t.Fatal("the backup is not encrypted")
	}
	noSecret(t, dir, "secret-id-9f8e7d")

	m2 := NewLocal(path, "", "", testVersion)
	m2.SetEncryption(tgt)
	s, _, err := m2.Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, s); got[secretID] != secretID || len(got) != 2 {
		t.Fatalf("read back %v", got)
	}
	// Writing the same state again writes nothing.
	st, _ := os.Stat(path)
	if err := m2.Write(s); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(path); !st2.ModTime().Equal(st.ModTime()) {
		t.Fatal("an unchanged state was written again")
	}

	// Wrong key, and no encryption at all: clear errors, file untouched.
	for name, tg := range map[string]*encryption.Target{"wrong key": stateTarget(t, encOnly, "not the right passphrase"), "none": nil} {
		m3 := NewLocal(path, "", "", testVersion)
		m3.SetEncryption(tg)
		_, _, err := m3.Read()
		if err == nil {
			t.Fatalf("%s: read succeeded", name)
		}
		if name == "wrong key" && !strings.Contains(err.Error(), "wrong key") || name == "none" && !strings.Contains(err.Error(), "is encrypted") {
			t.Fatalf("%s: unclear error %q", name, err)
		}
		if again, _ := os.ReadFile(path); !bytes.Equal(again, raw) {
			t.Fatalf("%s: the state file changed", name)
		}
	}
}

func TestLocalMigrationToEncryption(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	plain := NewLocal(path, "", "", testVersion)
	if err := plain.Write(stateWith(t, secretID)); err != nil {
		t.Fatal(err)
	}
	before := readState(t, path)

	// Without a fallback, an unencrypted state is refused.
	m := NewLocal(path, "", "", testVersion)
	m.SetEncryption(stateTarget(t, encOnly, "the right passphrase, long"))
	if _, _, err := m.Read(); err == nil || !strings.Contains(err.Error(), "fallback") {
		t.Fatalf("unencrypted state read without a fallback: %v", err)
	}

	// With one, it is read, and the next write encrypts it even though
	// nothing changed, keeping the serial.
	m = NewLocal(path, "", "", testVersion)
	m.SetEncryption(stateTarget(t, encMigrate, "the right passphrase, long"))
	s, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Write(s); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !encryption.IsEncrypted(raw) {
		t.Fatal("not encrypted by the migration")
	}
	m = NewLocal(path, "", "", testVersion)
	m.SetEncryption(stateTarget(t, encOnly, "the right passphrase, long"))
	after, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	if after.Serial != before.Serial || after.Lineage != before.Lineage {
		t.Fatalf("serial %d lineage %s after migration, want %d %s", after.Serial, after.Lineage, before.Serial, before.Lineage)
	}
}

// TestJournalEncrypted: each journal record is encrypted, and a journal
// left by a crash is recovered with the key.
func TestJournalEncrypted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "terraform.tfstate")
	tgt := stateTarget(t, encOnly, "the right passphrase, long")
	m := NewLocal(path, "", "", testVersion)
	m.SetEncryption(tgt)
	if err := m.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
		t.Fatal(err)
	}
	base, _, err := m.Read()
	if err != nil {
		t.Fatal(err)
	}
	j, err := m.BeginJournal(base)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Intent(addr(t, secretID), "", "create"); err != nil {
		t.Fatal(err)
	}
	if err := j.Set(addr(t, secretID), "", obj(secretID), builtin); err != nil {
		t.Fatal(err)
	}
	if err := j.Intent(addr(t, "terraform_data.pending"), "", "create"); err != nil {
		t.Fatal(err)
	}
	// The process dies here: no EndJournal, no unlock.
	j.f.Close()
	_ = m.lock.release()
	noSecret(t, dir, "secret-id-9f8e7d")
	jb, _ := os.ReadFile(journalPath(path))
	if lines := strings.Split(strings.TrimSpace(string(jb)), "\n"); len(lines) != 4 || !encryption.IsEncrypted([]byte(lines[1])) {
		t.Fatalf("journal lines: %q", lines)
	}

	// Without the key, the journal is not lost: an error, and it stays.
	wrong := NewLocal(path, "", "", testVersion)
	wrong.SetEncryption(stateTarget(t, encOnly, "not the right passphrase"))
	if _, _, err := wrong.Read(); err == nil {
		t.Fatal("journal replayed with the wrong key")
	}
	if !fileExists(journalPath(path)) {
		t.Fatal("the journal was removed by a failed recovery")
	}

	m2 := NewLocal(path, "", "", testVersion)
	m2.SetEncryption(tgt)
	s, pending, err := m2.Read()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(t, s); got[secretID] != secretID {
		t.Fatalf("recovered %v", got)
	}
	if len(pending) != 1 || pending[0].Addr != "terraform_data.pending" {
		t.Fatalf("pending %v", pending)
	}
	raw, _ := os.ReadFile(path)
	if !encryption.IsEncrypted(raw) {
		t.Fatal("the recovered state was written in clear")
	}
	noSecret(t, dir, "secret-id-9f8e7d")
}

// TestRemoteEncrypted: the pg and http managers store encrypted
// snapshots, their local journal holds encrypted records, and a crash's
// journal is recovered into the store with the key.
func TestRemoteEncrypted(t *testing.T) {
	tgt := stateTarget(t, encOnly, "the right passphrase, long")
	type store struct {
		mgr    func() Manager
		stored func() []byte
	}
	stores := map[string]func(t *testing.T, dir string) store{
		"http": func(t *testing.T, dir string) store {
			srv, ts := newStateServer(t)
			return store{
				mgr: func() Manager { return newHTTPMgr(t, ts.URL, dir, nil) },
				stored: func() []byte {
					srv.mu.Lock()
					defer srv.mu.Unlock()
					return srv.data["/state"]
				},
			}
		},
		"pg": func(t *testing.T, dir string) store {
			conn := pgtest.ConnString(t)
			return store{
				mgr:    func() Manager { return newPG(conn, "blue", dir) },
				stored: func() []byte { return []byte(rowData(t, conn, DefaultPGSchema, "blue")) },
			}
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			st := mk(t, dir)
			m := st.mgr()
			SetEncryption(m, tgt)
			if err := m.Lock(context.Background(), NewLockInfo("OperationTypeApply", testVersion), 0); err != nil {
				t.Fatal(err)
			}
			base, _, err := m.Read()
			if err != nil {
				t.Fatal(err)
			}
			if name == "pg" && !encryption.IsEncrypted(st.stored()) {
				t.Fatal("the new workspace's empty state is stored in clear")
			}
			j, err := m.BeginJournal(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Set(addr(t, secretID), "", obj(secretID), builtin); err != nil {
				t.Fatal(err)
			}
			noSecret(t, dir, "secret-id-9f8e7d")
			// Crash: the journal is left, the lock released by the test.
			j.f.Close()
			_ = m.Unlock()

			m2 := st.mgr()
			SetEncryption(m2, tgt)
			s, _, err := m2.Read()
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(t, s); got[secretID] != secretID {
				t.Fatalf("recovered %v", got)
			}
			stored := st.stored()
			if !encryption.IsEncrypted(stored) || bytes.Contains(stored, []byte("secret-id-9f8e7d")) {
				t.Fatalf("the store holds %.200s", stored)
			}
			noSecret(t, dir, "secret-id-9f8e7d")

			// A second write through the same manager (the pg manager
			// checks the row still holds what it read).
			s.SetObject(addr(t, "terraform_data.more"), obj("more"), builtin)
			if err := m2.Write(s); err != nil {
				t.Fatal(err)
			}
			wrong := st.mgr()
			SetEncryption(wrong, stateTarget(t, encOnly, "not the right passphrase"))
			if _, _, err := wrong.Read(); err == nil || !strings.Contains(err.Error(), "wrong key") {
				t.Fatalf("wrong key: %v", err)
			}
		})
	}
}

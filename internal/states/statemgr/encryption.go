package statemgr

import (
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
)

// Encryptable is a Manager whose stored snapshots and journal can be
// encrypted: every manager of this package. A new remote manager embeds
// SnapshotCrypt, decodes what it reads with Open and encodes what it
// writes with Seal, and gives its journal the target (RemoteJournal does
// when SetEncryption sets it).
type Encryptable interface {
	SetEncryption(*encryption.Target)
}

// SetEncryption makes m encrypt what it stores with t (nil: nothing is
// encrypted, and encrypted state is refused with a clear error). It
// reports whether m can.
func SetEncryption(m Manager, t *encryption.Target) bool {
	e, ok := m.(Encryptable)
	if ok {
		e.SetEncryption(t)
	}
	return ok
}

// SnapshotCrypt encrypts and decrypts a manager's snapshots.
type SnapshotCrypt struct {
	Target *encryption.Target
	// migrate is set when the snapshot last read was read with a
	// fallback method (or unencrypted while the state is now
	// encrypted): the next write stores it again even if it did not
	// change, so that the migration is done by the next apply.
	migrate bool
}

// Open returns the state file JSON held by stored, as read from the
// store.
func (c *SnapshotCrypt) Open(stored []byte) ([]byte, error) {
	plain, st, err := c.Target.DecryptState(stored)
	if err != nil {
		return nil, err
	}
	c.migrate = st == encryption.StatusMigrate
	return plain, nil
}

// Seal is EncodeSnapshot followed by encryption: it returns the plain
// snapshot (to compare the next write with) and the bytes to store, both
// nil when nothing needs storing. A snapshot read through a fallback is
// stored again even when it did not change.
func (c *SnapshotCrypt) Seal(s *states.State, version string, prev []byte, serial uint64, stored bool) (plain, out []byte, err error) {
	plain, err = EncodeSnapshot(s, version, prev, serial, stored)
	if err != nil {
		return nil, nil, err
	}
	if plain == nil {
		if !c.migrate || prev == nil {
			return nil, nil, nil
		}
		plain = prev
	}
	out, err = c.Target.EncryptState(plain)
	if err != nil {
		return nil, nil, err
	}
	return plain, out, nil
}

// Written records that the sealed snapshot was stored.
func (c *SnapshotCrypt) Written() { c.migrate = false }

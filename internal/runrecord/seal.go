package runrecord

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Cipher encrypts the parts of run records that hold values: an entry's
// Changes (attribute values before and after) and its Diagnostics (an
// error message may quote a value). Everything else — run IDs, commands,
// times, addresses, types, actions, outcomes — stays in clear, so that
// records can be listed, filtered and ingested without the key.
//
// The working directory's state encryption is the Cipher: records of an
// encrypted state are encrypted with the state's method.
type Cipher interface {
	// Seal encrypts plain and returns a JSON object (the encryption
	// package's envelope is one).
	Seal(plain []byte) ([]byte, error)
	// Open decrypts what Seal returned.
	Open(sealed []byte) ([]byte, error)
}

// SealedError is the error for a record whose values are encrypted and
// cannot be read: no Cipher (no encryption configured), or one that
// fails (a wrong key).
type SealedError struct {
	RunID string
	Err   error // nil: no Cipher
}

func (e *SealedError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("the values recorded by run %s are encrypted with the state's encryption, and no encryption is configured: configure the encryption block (or TF_ENCRYPTION) with the key the state is encrypted with", e.RunID)
	}
	return fmt.Sprintf("the values recorded by run %s cannot be decrypted: %s", e.RunID, e.Err)
}

func (e *SealedError) Unwrap() error { return e.Err }

// sealEntry replaces e's Changes and Diagnostics by their encrypted
// forms. An entry without changes or diagnostics has nothing to hide:
// what is empty stays empty, so that an entry written again without
// changes keeps the stored ones, as in clear.
func sealEntry(e *Entry, c Cipher) error {
	if len(e.Changes) > 0 {
		s, err := sealJSON(c, appendChanges(nil, e.Changes))
		if err != nil {
			return err
		}
		e.SealedChanges, e.Changes = s, nil
	}
	if e.Diagnostics != "" {
		s, err := sealJSON(c, appendString(nil, e.Diagnostics))
		if err != nil {
			return err
		}
		e.SealedDiagnostics, e.Diagnostics = s, ""
	}
	return nil
}

func sealJSON(c Cipher, plain []byte) (json.RawMessage, error) {
	s, err := c.Seal(plain)
	if err != nil {
		return nil, fmt.Errorf("encrypting a run record: %w", err)
	}
	if len(s) == 0 || s[0] != '{' || !json.Valid(s) {
		return nil, errors.New("encrypting a run record: the cipher did not return a JSON object")
	}
	return s, nil
}

// unsealEntry decrypts e's sealed Changes and Diagnostics, if any.
func unsealEntry(e *Entry, c Cipher) error {
	if e.SealedChanges == nil && e.SealedDiagnostics == nil {
		return nil
	}
	if c == nil {
		return &SealedError{RunID: e.RunID}
	}
	if e.SealedChanges != nil {
		plain, err := c.Open(e.SealedChanges)
		if err != nil {
			return &SealedError{RunID: e.RunID, Err: err}
		}
		var cs []AttrChange
		if err := json.Unmarshal(plain, &cs); err != nil {
			return fmt.Errorf("entry %d of run %s: %w", e.Seq, e.RunID, err)
		}
		nullsAsNil(cs)
		e.Changes, e.SealedChanges = cs, nil
	}
	if e.SealedDiagnostics != nil {
		plain, err := c.Open(e.SealedDiagnostics)
		if err != nil {
			return &SealedError{RunID: e.RunID, Err: err}
		}
		if err := json.Unmarshal(plain, &e.Diagnostics); err != nil {
			return fmt.Errorf("entry %d of run %s: %w", e.Seq, e.RunID, err)
		}
		e.SealedDiagnostics = nil
	}
	return nil
}

// In the database, sealed changes are the envelope (a JSON object, where
// changes in clear are an array); sealed diagnostics are the envelope
// after sealedPrefix.
const sealedPrefix = "sealed:"

// changesColumn is the stored text of e's changes; nil keeps the stored
// ones.
func changesColumn(e *Entry) any {
	switch {
	case e.SealedChanges != nil:
		return string(e.SealedChanges)
	case e.Changes != nil:
		return jsonText(e.Changes)
	}
	return nil
}

func diagnosticsColumn(e *Entry) string {
	if e.SealedDiagnostics != nil {
		return sealedPrefix + string(e.SealedDiagnostics)
	}
	return e.Diagnostics
}

// fromColumns fills e's changes and diagnostics from their stored text,
// into the Sealed fields when they are sealed (unsealEntry decrypts
// them).
func fromColumns(e *Entry, changes, diagnostics string) error {
	e.Changes, e.Diagnostics = []AttrChange{}, diagnostics
	if strings.HasPrefix(changes, "{") {
		e.SealedChanges = json.RawMessage(changes)
	} else if err := json.Unmarshal([]byte(changes), &e.Changes); err != nil {
		return fmt.Errorf("entry %d: %w", e.Seq, err)
	}
	if s, ok := strings.CutPrefix(diagnostics, sealedPrefix); ok && json.Valid([]byte(s)) {
		e.SealedDiagnostics, e.Diagnostics = json.RawMessage(s), ""
	}
	nullsAsNil(e.Changes)
	return nil
}

// appendChanges appends cs as a JSON array.
func appendChanges(b []byte, cs []AttrChange) []byte {
	b = append(b, '[')
	for i := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendChange(b, &cs[i])
	}
	return append(b, ']')
}

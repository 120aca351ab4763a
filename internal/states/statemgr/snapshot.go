package statemgr

import (
	"bytes"

	"github.com/hashicorp/go-uuid"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// freshState is the state of a workspace with nothing stored yet: empty,
// with a new lineage.
func freshState() *states.State {
	s := states.New()
	s.Lineage, _ = uuid.GenerateUUID()
	return s
}

// encodeSnapshot prepares s to replace the snapshot a manager last read or
// wrote (prev, with serial) and returns the bytes to store, or nil when
// nothing needs storing: s is identical to prev, or there was no state
// before (stored is false) and there is none now. Only a real write
// increases the serial; s is updated with the serial and version stored.
func encodeSnapshot(s *states.State, version string, prev []byte, serial uint64, stored bool) ([]byte, error) {
	if s.Lineage == "" {
		s.Lineage, _ = uuid.GenerateUUID()
	}
	s.TerraformVersion = version
	// Encode with the current serial first: if nothing changed, nothing is
	// written and the serial stays.
	if s.Serial < serial {
		s.Serial = serial
	}
	data, err := statefile.Write(s)
	if err != nil {
		return nil, err
	}
	if prev != nil && bytes.Equal(data, prev) {
		return nil, nil
	}
	if s.Empty() && len(s.CheckResults) == 0 && !stored {
		return nil, nil
	}
	s.Serial++
	return statefile.Write(s)
}

package statemgr

import "github.com/strata-dev/strata/internal/states"

// WriteMigrated stores s, a snapshot copied from another backend by
// "init -migrate-state", in m, which must have been read first (and
// should be locked).
//
// Into a workspace that holds no resources or outputs (keepSerial), the
// snapshot keeps its lineage and its serial exactly, so that the copy is
// the same snapshot as the original: Terraform itself gives the copy a new
// lineage in some cases, which breaks "state push" and saved plans made
// before the move. Over a non-empty workspace the lineage is still the
// source's but the serial is the next one after both, so that serials
// never go backwards in the destination.
func WriteMigrated(m Manager, s *states.State, keepSerial bool) error {
	s = s.DeepCopy()
	if keepSerial {
		// Write adds one to the larger of s.Serial and the serial it last
		// read; forget the latter (an empty workspace's placeholder).
		switch m := m.(type) {
		case *Local:
			m.serial = 0
		case *PG:
			m.serial = 0
		case *HTTP:
			m.serial = 0
		case interface{ ForgetSerial() }:
			m.ForgetSerial()
		}
		if s.Serial > 0 {
			s.Serial--
		}
	}
	return m.Write(s)
}

package statemgr

import (
	"bytes"
	"strconv"

	"github.com/hashicorp/go-uuid"

	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// FreshState is the state of a workspace with nothing stored yet: empty,
// with a new lineage. A manager's Read returns it when nothing is stored.
func FreshState() *states.State {
	s := states.New()
	s.Lineage, _ = uuid.GenerateUUID()
	return s
}

// EncodeSnapshot is how every manager's Write encodes: it prepares s to
// replace the snapshot the manager last read or wrote (prev, with serial)
// and returns the bytes to store, or nil when nothing needs storing: s is identical to prev, or there was no state
// before (stored is false) and there is none now. Only a real change
// increases the serial, as in Terraform: prev laid out otherwise (edited
// by hand, written by another tool or in an older format) or recording
// another terraform_version, but with the same content, is rewritten with
// its serial. s is updated with the serial and version stored.
func EncodeSnapshot(s *states.State, version string, prev []byte, serial uint64, stored bool) ([]byte, error) {
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
	if prev != nil && (sameSnapshotText(prev, data) || !sameLayout(prev, data) && sameContent(prev, s, data)) {
		return data, nil
	}
	if s.Empty() && len(s.CheckResults) == 0 && !stored {
		return nil, nil
	}
	s.Serial++
	if again, ok := withSerial(data, s.Serial); ok {
		return again, nil
	}
	return statefile.Write(s)
}

// withSerial returns data, a snapshot statefile.Write wrote, recording
// serial instead: it differs only there, and a snapshot can be large
// enough (dependency lists are quadratic in the length of a chain of
// resources) that writing it twice shows. ok is false if data is not laid
// out as Write lays it out.
func withSerial(data []byte, serial uint64) (_ []byte, ok bool) {
	// The members before serial are version and terraform_version, whose
	// strings cannot hold a raw newline: the first match is the serial.
	const key = "\n  \"serial\": "
	i := bytes.Index(data, []byte(key))
	if i < 0 {
		return nil, false
	}
	i += len(key)
	j := i
	for j < len(data) && data[j] >= '0' && data[j] <= '9' {
		j++
	}
	if j == i || j == len(data) || data[j] != ',' {
		return nil, false
	}
	digits := strconv.AppendUint(nil, serial, 10)
	if len(digits) == j-i {
		copy(data[i:j], digits)
		return data, true
	}
	out := make([]byte, 0, len(data)-(j-i)+len(digits))
	out = append(append(append(out, data[:i]...), digits...), data[j:]...)
	return out, true
}

// sameSnapshotText reports whether two encoded snapshots hold the same
// text once the whitespace between JSON tokens is ignored, and the
// top-level terraform_version values too: the same snapshot laid out by
// another tool or a text editor, or recorded by another version. It is a
// scan of the bytes that stops at the first difference, so that a real
// change costs next to nothing, where decoding the stored snapshot again
// would cost as much as writing it.
func sameSnapshotText(a, b []byte) bool {
	i, j, depth := 0, 0, 0
	for {
		i, j = skipJSONSpace(a, i), skipJSONSpace(b, j)
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		switch a[i] {
		case '"':
			ei, ej := jsonStringEnd(a, i), jsonStringEnd(b, j)
			if ei < 0 || ej < 0 || !bytes.Equal(a[i:ei], b[j:ej]) {
				return false
			}
			key := depth == 1 && string(a[i:ei]) == `"terraform_version"`
			i, j = skipJSONSpace(a, ei), skipJSONSpace(b, ej)
			if key && i < len(a) && j < len(b) && a[i] == ':' && b[j] == ':' {
				// Skip both values, which must be strings.
				i, j = skipJSONSpace(a, i+1), skipJSONSpace(b, j+1)
				if i == len(a) || j == len(b) || a[i] != '"' || b[j] != '"' {
					return false
				}
				if i, j = jsonStringEnd(a, i), jsonStringEnd(b, j); i < 0 || j < 0 {
					return false
				}
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		i++
		j++
	}
}

// sameLayout reports whether prev begins as strata (and Terraform) lay
// out a snapshot, data: the same bytes up to the terraform_version value.
// Then sameSnapshotText's answer is final. Otherwise (keys in another
// order, another format version) only decoding prev can tell.
func sameLayout(prev, data []byte) bool {
	const key = `"terraform_version": "`
	k := bytes.Index(data, []byte(key))
	return k >= 0 && bytes.HasPrefix(prev, data[:k+len(key)])
}

// sameContent reports whether the stored snapshot prev, decoded, holds
// the same state as s, encoded as data: the same lineage and serial, and
// the same content once written again with s's terraform_version.
func sameContent(prev []byte, s *states.State, data []byte) bool {
	p, err := statefile.Read(prev)
	if err != nil || p.Lineage != s.Lineage || p.Serial != s.Serial {
		return false
	}
	p.TerraformVersion = s.TerraformVersion
	again, err := statefile.Write(p)
	return err == nil && bytes.Equal(again, data)
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// jsonStringEnd returns the index after the closing quote of the JSON
// string starting at b[i], or -1 when it does not end.
func jsonStringEnd(b []byte, i int) int {
	for k := i + 1; k < len(b); k++ {
		switch b[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return -1
}

package engine

import (
	"github.com/zclconf/go-cty/cty"
)

// numbersAsDecoded reports whether every known number in v is held as
// decoding its decimal text holds it (cty.ParseNumberVal: 512 bits of
// precision), as every number of a stored object is once read from the
// state. A provider that sends a number as a msgpack integer or float
// gives it 64 or 53 bits instead: the value is the same, but Terraform,
// which compares a refreshed object with the stored one in memory, finds
// them different and counts a refresh-only plan that changes nothing as
// applyable (plans.Plan.ObjectsReencoded).
func numbersAsDecoded(v cty.Value) bool {
	same := true
	_ = cty.Walk(v, func(_ cty.Path, v cty.Value) (bool, error) {
		if !same || !v.IsKnown() || v.IsNull() {
			return same, nil
		}
		if v.Type() == cty.Number && !decodedNumber(v) {
			same = false
		}
		return same, nil
	})
	return same
}

// decodedNumber reports whether the known number v has the precision,
// rounding mode and accuracy that parsing its decimal text gives.
func decodedNumber(v cty.Value) bool {
	f := v.AsBigFloat()
	if f.IsInf() {
		return true
	}
	parsed, err := cty.ParseNumberVal(f.Text('f', -1))
	if err != nil {
		return true
	}
	p := parsed.AsBigFloat()
	return f.Prec() == p.Prec() && f.Mode() == p.Mode() && f.Acc() == p.Acc() && f.Cmp(p) == 0
}

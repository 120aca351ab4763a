package engine

import (
	"bytes"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
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

// dependenciesChanged reports whether the state file records other
// dependencies for the managed objects of after than for those of
// before: the lists are written as their transitive closures, so lists
// that differ in memory may be written alike. Only the dependencies are
// compared.
func dependenciesChanged(before, after *states.State) bool {
	a, aerr := statefile.Write(dependenciesOnly(before))
	b, berr := statefile.Write(dependenciesOnly(after))
	return aerr != nil || berr != nil || !bytes.Equal(a, b)
}

// dependenciesOnly is a state holding s's managed resources with their
// objects' dependencies and nothing else.
func dependenciesOnly(s *states.State) *states.State {
	out := states.New()
	strip := func(o *states.ObjectSrc) *states.ObjectSrc {
		if o == nil {
			return nil
		}
		return &states.ObjectSrc{AttrsJSON: []byte("{}"), Dependencies: o.Dependencies}
	}
	for key, r := range s.Resources {
		if r.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		c := &states.Resource{Addr: r.Addr, ProviderConfig: r.ProviderConfig, Instances: make(map[addrs.InstanceKey]*states.ResourceInstance, len(r.Instances))}
		for k, inst := range r.Instances {
			c.Instances[k] = &states.ResourceInstance{Current: strip(inst.Current)}
		}
		out.Resources[key] = c
	}
	return out
}

package statefile

import (
	"sort"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
)

// dependencyClosure computes, for every resource in s, the full set of
// resources its objects depend on: the recorded dependencies and,
// transitively, theirs. Terraform records this full set in each object, so
// that either tool can order destroys from the state alone; strata's engine
// and journal record only the direct dependencies and the closure is taken
// here, when a snapshot is written. Keys are ConfigResource strings (module
// instance keys dropped, the form dependencies are recorded in).
type dependencyClosure struct {
	direct map[string][]addrs.AbsResource
	done   map[string][]addrs.AbsResource
	active map[string]bool
}

func newDependencyClosure(s *states.State) *dependencyClosure {
	dc := &dependencyClosure{
		direct: map[string][]addrs.AbsResource{},
		done:   map[string][]addrs.AbsResource{},
		active: map[string]bool{},
	}
	for _, r := range s.Resources {
		key := r.Addr.Config().String()
		seen := map[string]bool{}
		for _, d := range dc.direct[key] {
			seen[d.String()] = true
		}
		add := func(o *states.ObjectSrc) {
			if o == nil {
				return
			}
			for _, d := range o.Dependencies {
				if ds := d.String(); !seen[ds] {
					seen[ds] = true
					dc.direct[key] = append(dc.direct[key], d)
				}
			}
		}
		for _, inst := range r.Instances {
			add(inst.Current)
			for _, o := range inst.Deposed {
				add(o)
			}
		}
	}
	return dc
}

// of returns the sorted transitive dependencies of the resource at key.
// A cycle (possible only in a hand-edited state) ends where it closes.
func (dc *dependencyClosure) of(key string) []addrs.AbsResource {
	if all, ok := dc.done[key]; ok {
		return all
	}
	if dc.active[key] {
		return nil
	}
	dc.active[key] = true
	seen := map[string]bool{}
	var all []addrs.AbsResource
	add := func(d addrs.AbsResource) {
		if ds := d.String(); !seen[ds] {
			seen[ds] = true
			all = append(all, d)
		}
	}
	for _, d := range dc.direct[key] {
		add(d)
		for _, t := range dc.of(d.Config().String()) {
			add(t)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].String() < all[j].String() })
	delete(dc.active, key)
	dc.done[key] = all
	return all
}

// complete returns o's dependencies completed with their transitive
// dependencies, sorted. A list that is already complete is returned as
// recorded, so that a state Terraform wrote is written back unchanged.
func (dc *dependencyClosure) complete(r *states.Resource, o *states.ObjectSrc) []addrs.AbsResource {
	if len(o.Dependencies) == 0 {
		return o.Dependencies
	}
	self := r.Addr.Config().String()
	seen := map[string]bool{}
	var all []addrs.AbsResource
	add := func(d addrs.AbsResource) {
		if ds := d.String(); !seen[ds] && d.Config().String() != self {
			seen[ds] = true
			all = append(all, d)
		}
	}
	for _, d := range o.Dependencies {
		add(d)
	}
	recorded := len(all)
	for _, d := range o.Dependencies {
		for _, t := range dc.of(d.Config().String()) {
			add(t)
		}
	}
	if len(all) == recorded {
		return o.Dependencies
	}
	sort.Slice(all, func(i, j int) bool { return all[i].String() < all[j].String() })
	return all
}

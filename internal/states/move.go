package states

import "github.com/strata-dev/strata/internal/addrs"

// MoveInstance moves an instance's current and deposed objects from one
// address to another. It does nothing and returns false when from has no
// objects or to already has some.
func (s *State) MoveInstance(from, to addrs.AbsResourceInstance) bool {
	fr := s.Resource(from.ContainingResource())
	if fr == nil || fr.Instances[from.Resource.Key] == nil {
		return false
	}
	if tr := s.Resource(to.ContainingResource()); tr != nil && tr.Instances[to.Resource.Key] != nil {
		return false
	}
	inst := fr.Instances[from.Resource.Key]
	provider := fr.InstanceProvider(from.Resource.Key)
	if inst.Current != nil {
		s.SetObject(to, inst.Current, provider)
	}
	for k, obj := range inst.Deposed {
		s.SetDeposed(to, k, obj, provider)
	}
	if inst.Current != nil {
		s.SetObject(from, nil, provider)
	}
	for k := range inst.Deposed {
		s.SetDeposed(from, k, nil, provider)
	}
	return true
}

// MoveResource moves every instance of a resource to another resource
// address, keeping instance keys. It does nothing and returns false when
// from is not in the state or to already is.
func (s *State) MoveResource(from, to addrs.AbsResource) bool {
	if s.Resource(from) == nil || s.Resource(to) != nil {
		return false
	}
	r := s.own(from.String())
	delete(s.Resources, from.String())
	r.Addr = to
	s.Resources[to.String()] = r
	return true
}

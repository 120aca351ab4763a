package states

import (
	"sort"
	"sync"

	"github.com/strata-dev/strata/internal/addrs"
)

// SyncState guards a State for concurrent readers and writers during a
// graph walk. Each method holds the lock only for the map operation; no
// lock is held across provider calls.
type SyncState struct {
	mu    sync.RWMutex
	state *State
}

// NewSync wraps s.
func NewSync(s *State) *SyncState { return &SyncState{state: s} }

// Object returns the current object of an instance, or nil.
func (s *SyncState) Object(addr addrs.AbsResourceInstance) *ObjectSrc {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state.Object(addr)
}

// Deposed returns a deposed object, or nil.
func (s *SyncState) Deposed(addr addrs.AbsResourceInstance, key string) *ObjectSrc {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.state.Resource(addr.ContainingResource())
	if r == nil || r.Instances[addr.Resource.Key] == nil {
		return nil
	}
	return r.Instances[addr.Resource.Key].Deposed[key]
}

// SetObject sets or removes the current object of an instance.
func (s *SyncState) SetObject(addr addrs.AbsResourceInstance, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.SetObject(addr, obj, provider)
}

// SetDeposed sets or removes a deposed object of an instance.
func (s *SyncState) SetDeposed(addr addrs.AbsResourceInstance, key string, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state.SetDeposed(addr, key, obj, provider)
}

// SetOutput sets or (with nil) removes a root output value.
func (s *SyncState) SetOutput(name string, v *OutputValue) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v == nil {
		delete(s.state.Outputs, name)
		return
	}
	s.state.Outputs[name] = v
}

// Lock runs fn with exclusive access to the underlying state.
func (s *SyncState) Lock(fn func(*State)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(s.state)
}

// Take returns the current state itself and leaves s holding an empty
// one: for a walk that is over, whose state goes to its caller without
// the copy Snapshot makes (a whole state's worth of objects). A writer
// that came late would change the empty state, never the one taken.
func (s *SyncState) Take() *State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state
	s.state = New()
	return st
}

// Snapshot returns a deep copy of the current state.
func (s *SyncState) Snapshot() *State {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state.DeepCopy()
}

// ResourceProvider returns the provider configuration recorded for a
// resource, and whether the resource is in the state.
func (s *SyncState) ResourceProvider(addr addrs.AbsResource) (addrs.AbsProviderConfig, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.state.Resource(addr)
	if r == nil {
		return addrs.AbsProviderConfig{}, false
	}
	return r.ProviderConfig, true
}

// InstanceProvider returns the provider instance recorded for a resource
// instance (with the instance key of a provider configuration with
// for_each), and whether the resource is in the state.
func (s *SyncState) InstanceProvider(addr addrs.AbsResourceInstance) (addrs.AbsProviderConfig, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.state.Resource(addr.ContainingResource())
	if r == nil {
		return addrs.AbsProviderConfig{}, false
	}
	return r.InstanceProvider(addr.Resource.Key), true
}

// ProviderRecord returns the record of the provider configuration the
// current object of an instance was last applied with (see
// State.ProviderConfigs), and whether there is one.
func (s *SyncState) ProviderRecord(addr addrs.AbsResourceInstance) (ProviderConfigRecord, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.state.ProviderConfigs) == 0 {
		// As in every state of providers without identity arguments:
		// no address to render.
		return ProviderConfigRecord{}, false
	}
	rec, ok := s.state.ProviderConfigs[addr.String()]
	return rec, ok
}

// InstanceKeys returns the keys of a resource's instances, in order.
func (s *SyncState) InstanceKeys(addr addrs.AbsResource) []addrs.InstanceKey {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.state.Resource(addr)
	if r == nil {
		return nil
	}
	return r.SortedKeys()
}

// DeposedKeys returns the deposed object keys of an instance, sorted.
func (s *SyncState) DeposedKeys(addr addrs.AbsResourceInstance) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r := s.state.Resource(addr.ContainingResource())
	if r == nil || r.Instances[addr.Resource.Key] == nil {
		return nil
	}
	var keys []string
	for k := range r.Instances[addr.Resource.Key].Deposed {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Output returns a root output value, or nil.
func (s *SyncState) Output(name string) *OutputValue {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state.Outputs[name]
}

package states

import (
	"encoding/json"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// State is one snapshot of everything strata manages in a working
// directory's workspace.
type State struct {
	// Lineage identifies the sequence of snapshots this one belongs to.
	Lineage string
	// Serial increases with each snapshot written.
	Serial uint64
	// TerraformVersion is the version of the tool that wrote the snapshot.
	TerraformVersion string

	// Resources maps AbsResource.String() to the resource.
	Resources map[string]*Resource
	// Outputs holds the root module's output values.
	Outputs map[string]*OutputValue
	// CheckResults is kept as read, for round-tripping.
	CheckResults json.RawMessage
	// ProviderConfigs records, by resource instance address
	// (AbsResourceInstance.String()), the provider configuration its
	// object was last applied with. strata's own: the state file keeps
	// it under a top-level "strata" key, which Terraform ignores (and
	// drops when it writes the state).
	ProviderConfigs map[string]ProviderConfigRecord

	// owned is set on a state made by CopyOnWrite: the resources it
	// made or copied itself, which it may change in place. It shares the
	// others with the state it was copied from, and copies each before
	// its first change. nil for every other state, which owns all its
	// resources.
	owned map[*Resource]bool
}

// ProviderConfigRecord is what strata remembers of the provider
// configuration an object was last applied with: a hash of the
// configuration's non-sensitive arguments and the values of the
// arguments that decide where objects live (region, project, endpoint...).
type ProviderConfigRecord struct {
	// Provider is the provider configuration's address.
	Provider string `json:"provider"`
	// Hash is "sha256:" and the hex digest of the non-sensitive arguments.
	Hash string `json:"hash"`
	// Identity holds the identity-affecting arguments that were set, with
	// their values as JSON.
	Identity map[string]string `json:"identity,omitempty"`
}

// Resource is one resource and all its instances.
type Resource struct {
	Addr addrs.AbsResource
	// ProviderConfig is the provider configuration of every instance,
	// without instance key: each instance records its own (ProviderKey).
	ProviderConfig addrs.AbsProviderConfig
	Instances      map[addrs.InstanceKey]*ResourceInstance
}

// ResourceInstance holds the current object of an instance and any deposed
// objects (old objects awaiting deletion after create_before_destroy).
type ResourceInstance struct {
	Current *ObjectSrc
	Deposed map[string]*ObjectSrc
	// ProviderKey is the instance of the provider configuration that
	// manages the objects, for a configuration with for_each (OpenTofu);
	// NoKey otherwise.
	ProviderKey addrs.InstanceKey
}

// InstanceProvider returns the provider instance that manages the objects
// of instance key k: the resource's configuration with the instance's
// provider key.
func (r *Resource) InstanceProvider(k addrs.InstanceKey) addrs.AbsProviderConfig {
	p := r.ProviderConfig
	if inst := r.Instances[k]; inst != nil {
		p.Key = inst.ProviderKey
	}
	return p
}

// HasProviderKeys reports whether any instance is managed by an instance
// of a provider configuration with for_each: the state file then records
// the provider of each instance instead of the resource's.
func (r *Resource) HasProviderKeys() bool {
	for _, inst := range r.Instances {
		if inst.ProviderKey != addrs.NoKey {
			return true
		}
	}
	return false
}

// ObjectStatus says whether an object is usable or must be replaced.
type ObjectStatus rune

const (
	// ObjectReady is a usable object.
	ObjectReady ObjectStatus = 'R'
	// ObjectTainted is an object that must be replaced on the next apply.
	ObjectTainted ObjectStatus = 'T'
)

// ObjectSrc is one remote object exactly as stored: its attributes as raw
// JSON in the schema version the provider wrote them with.
type ObjectSrc struct {
	SchemaVersion uint64
	// AttrsJSON is the object's attributes as a JSON object.
	AttrsJSON []byte
	// AttrsFlat holds attributes of very old states (flatmap); kept as read.
	AttrsFlat map[string]string
	// SensitivePaths lists the attribute paths marked sensitive.
	SensitivePaths []cty.Path
	// Private is the provider's opaque private data.
	Private []byte
	Status  ObjectStatus
	// Dependencies are the resources this object depended on when it was
	// last applied, so that deletion can be ordered without configuration.
	Dependencies        []addrs.AbsResource
	CreateBeforeDestroy bool
	// IdentityJSON and IdentitySchemaVersion round-trip resource identity.
	IdentityJSON          []byte
	IdentitySchemaVersion *uint64
}

// OutputValue is a root module output recorded in state.
type OutputValue struct {
	Value     cty.Value
	Sensitive bool
}

// New returns an empty state.
func New() *State {
	return &State{Resources: map[string]*Resource{}, Outputs: map[string]*OutputValue{}}
}

// Empty reports whether the state has no resources and no outputs.
func (s *State) Empty() bool {
	return s == nil || (len(s.Resources) == 0 && len(s.Outputs) == 0)
}

// Resource returns the resource at addr, or nil.
func (s *State) Resource(addr addrs.AbsResource) *Resource {
	var buf [96]byte
	return s.Resources[string(addr.AppendString(buf[:0]))]
}

// Object returns the current object of an instance, or nil.
func (s *State) Object(addr addrs.AbsResourceInstance) *ObjectSrc {
	r := s.Resource(addr.ContainingResource())
	if r == nil {
		return nil
	}
	if inst := r.Instances[addr.Resource.Key]; inst != nil {
		return inst.Current
	}
	return nil
}

// SetObject records obj as the current object of the instance, creating the
// resource entry if needed. A nil obj removes the current object, and the
// instance and resource when nothing is left.
func (s *State) SetObject(addr addrs.AbsResourceInstance, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	s.setObject(addr, "", obj, provider)
}

// SetDeposed records or (with nil) removes a deposed object of an instance.
func (s *State) SetDeposed(addr addrs.AbsResourceInstance, key string, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	s.setObject(addr, key, obj, provider)
}

func (s *State) setObject(addr addrs.AbsResourceInstance, deposed string, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	rkey := addr.ContainingResource().String()
	r := s.own(rkey)
	if r == nil {
		if obj == nil {
			return
		}
		r = &Resource{Addr: addr.ContainingResource(), Instances: map[addrs.InstanceKey]*ResourceInstance{}}
		s.Resources[rkey] = r
		if s.owned != nil {
			s.owned[r] = true
		}
	}
	if obj != nil {
		r.ProviderConfig = provider.Config()
	}
	inst := r.Instances[addr.Resource.Key]
	if inst == nil {
		if obj == nil {
			return
		}
		inst = &ResourceInstance{}
		r.Instances[addr.Resource.Key] = inst
	}
	if obj != nil {
		inst.ProviderKey = provider.Key
	}
	if deposed == "" {
		inst.Current = obj
	} else {
		if inst.Deposed == nil {
			inst.Deposed = map[string]*ObjectSrc{}
		}
		if obj == nil {
			delete(inst.Deposed, deposed)
		} else {
			inst.Deposed[deposed] = obj
		}
	}
	if inst.Current == nil && len(inst.Deposed) == 0 {
		delete(r.Instances, addr.Resource.Key)
	}
	if len(r.Instances) == 0 {
		delete(s.Resources, rkey)
	}
}

// SortedResources returns the resources ordered by address, the order the
// state file and `show` use.
func (s *State) SortedResources() []*Resource {
	ret := make([]*Resource, 0, len(s.Resources))
	for _, r := range s.Resources {
		ret = append(ret, r)
	}
	sort.Slice(ret, func(i, j int) bool {
		a, b := ret[i].Addr, ret[j].Addr
		if am, bm := a.Module.String(), b.Module.String(); am != bm {
			return am < bm
		}
		if a.Resource.Mode != b.Resource.Mode {
			return a.Resource.Mode == addrs.DataResourceMode
		}
		if a.Resource.Type != b.Resource.Type {
			return a.Resource.Type < b.Resource.Type
		}
		return a.Resource.Name < b.Resource.Name
	})
	return ret
}

// SortedKeys returns the resource's instance keys in order.
func (r *Resource) SortedKeys() []addrs.InstanceKey {
	keys := make([]addrs.InstanceKey, 0, len(r.Instances))
	for k := range r.Instances {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return addrs.CompareKeys(keys[i], keys[j]) < 0 })
	return keys
}

// AllInstances returns every instance address in the state, in order.
func (s *State) AllInstances() []addrs.AbsResourceInstance {
	var ret []addrs.AbsResourceInstance
	for _, r := range s.SortedResources() {
		for _, k := range r.SortedKeys() {
			ret = append(ret, r.Addr.Instance(k))
		}
	}
	return ret
}

// own returns the resource at key (nil when there is none), first
// copying it into s when s shares it with the state it was copied from
// (CopyOnWrite): the resource returned is s's to change.
func (s *State) own(key string) *Resource {
	r := s.Resources[key]
	if r == nil || s.owned == nil || s.owned[r] {
		return r
	}
	r = r.deepCopy()
	s.Resources[key] = r
	s.owned[r] = true
	return r
}

// CopyOnWrite returns a copy of s that shares s's resources until it
// changes them: its methods (SetObject, SetDeposed, MoveInstance,
// MoveResource) copy a resource the first time they change it, so s
// never sees the changes. For a plan, most of whose objects stay as they
// are: DeepCopy would copy them all (at 100,000 resources, 60 MB more
// live for the whole plan). Neither s's resources nor the copy's may be
// changed in place other than through these methods; outputs and provider
// records are the copy's own, as DeepCopy makes them.
func (s *State) CopyOnWrite() *State {
	if s == nil {
		return nil
	}
	ret := s.copyWith(func(r *Resource) *Resource { return r })
	ret.owned = map[*Resource]bool{}
	return ret
}

// DeepCopy returns a copy sharing no mutable data with s. Byte slices of
// objects are shared because they are never modified in place.
func (s *State) DeepCopy() *State {
	if s == nil {
		return nil
	}
	return s.copyWith((*Resource).deepCopy)
}

// copyWith copies s with its own outputs and provider records, and each
// resource as resource returns it.
func (s *State) copyWith(resource func(*Resource) *Resource) *State {
	ret := &State{
		Lineage: s.Lineage, Serial: s.Serial, TerraformVersion: s.TerraformVersion,
		Resources:    make(map[string]*Resource, len(s.Resources)),
		Outputs:      make(map[string]*OutputValue, len(s.Outputs)),
		CheckResults: s.CheckResults,
	}
	if s.ProviderConfigs != nil {
		ret.ProviderConfigs = make(map[string]ProviderConfigRecord, len(s.ProviderConfigs))
		for k, r := range s.ProviderConfigs {
			ret.ProviderConfigs[k] = r // Identity is never changed in place
		}
	}
	for k, r := range s.Resources {
		ret.Resources[k] = resource(r)
	}
	for k, o := range s.Outputs {
		c := *o
		ret.Outputs[k] = &c
	}
	return ret
}

// deepCopy returns a copy of r sharing no mutable data with it.
func (r *Resource) deepCopy() *Resource {
	nr := &Resource{Addr: r.Addr, ProviderConfig: r.ProviderConfig, Instances: make(map[addrs.InstanceKey]*ResourceInstance, len(r.Instances))}
	for ik, inst := range r.Instances {
		ni := &ResourceInstance{ProviderKey: inst.ProviderKey}
		if inst.Current != nil {
			c := *inst.Current
			ni.Current = &c
		}
		if len(inst.Deposed) > 0 {
			ni.Deposed = make(map[string]*ObjectSrc, len(inst.Deposed))
			for dk, d := range inst.Deposed {
				c := *d
				ni.Deposed[dk] = &c
			}
		}
		nr.Instances[ik] = ni
	}
	return nr
}

// Recorder is told about every change to a state while an apply runs, so
// that it can persist it at once (the state journal). Intent is called
// before a provider starts changing an object; Set after, with the new
// object or nil when it was removed. Deposed is "" for current objects.
type Recorder interface {
	Intent(addr addrs.AbsResourceInstance, deposed string, action string) error
	Set(addr addrs.AbsResourceInstance, deposed string, obj *ObjectSrc, provider addrs.AbsProviderConfig) error
	SetOutput(name string, v *OutputValue) error
}

// RecordSyncer is a Recorder that may hold completion records (Set,
// SetOutput) not yet durable: Sync makes them durable. Intent records are
// durable when Intent returns, with every record before them; the engine
// calls Sync where something that may depend on earlier changes happens
// before an intent (provisioners, which run before the provider call).
type RecordSyncer interface {
	Sync() error
}

package statefile

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/states"
)

// CurrentVersion is the state format version strata writes.
const CurrentVersion = 4

// Write encodes s as a version 4 state document, indented as Terraform
// writes it, with a trailing newline.
//
// The document is what json.MarshalIndent writes for the stateV4
// structures (write_test.go checks this), but written directly: the
// dependency lists Terraform's format asks for make a snapshot quadratic in
// the length of a chain of resources, and each dependency is then one copy
// of a string quoted once, rather than a string to build, escape, and
// indent again in a second pass.
func Write(s *states.State) ([]byte, error) {
	dc := newDependencyClosure(s)
	w := &docWriter{buf: make([]byte, 0, sizeHint(s, dc))}
	w.open('{')
	w.key("version")
	w.buf = strconv.AppendInt(w.buf, CurrentVersion, 10)
	w.key("terraform_version")
	w.string(s.TerraformVersion)
	w.key("serial")
	w.buf = strconv.AppendUint(w.buf, s.Serial, 10)
	w.key("lineage")
	w.string(s.Lineage)

	w.key("outputs")
	names := make([]string, 0, len(s.Outputs))
	for name := range s.Outputs {
		names = append(names, name)
	}
	sort.Strings(names)
	w.open('{')
	for _, name := range names {
		out, err := EncodeOutput(s.Outputs[name])
		if err != nil {
			return nil, fmt.Errorf("output %q: %w", name, err)
		}
		w.member(name)
		w.open('{')
		w.key("value")
		w.raw(out.Value)
		w.key("type")
		w.raw(out.Type)
		if out.Sensitive {
			w.key("sensitive")
			w.buf = append(w.buf, "true"...)
		}
		w.close('}')
	}
	w.close('}')

	w.key("resources")
	w.open('[')
	for _, r := range s.SortedResources() {
		if err := writeResource(w, r, dc); err != nil {
			return nil, err
		}
	}
	w.close(']')

	w.key("check_results")
	if len(s.CheckResults) == 0 {
		w.buf = append(w.buf, "null"...)
	} else {
		w.raw(s.CheckResults)
	}
	if len(s.ProviderConfigs) > 0 {
		// Only when there is something: a state without records is
		// byte for byte what Terraform writes.
		section, err := json.Marshal(strataV4{ProviderConfigs: s.ProviderConfigs})
		if err != nil {
			return nil, err
		}
		w.key("strata")
		w.raw(section)
	}
	w.close('}')
	if w.err != nil {
		return nil, w.err
	}
	return append(w.buf, '\n'), nil
}

// sizeHint estimates, a little from above, the size of s's snapshot, so
// that it is written without growing its buffer (dependency lists make a
// snapshot quadratic in the length of a chain of resources) and without
// holding much more memory than it needs (the buffer is as large as the
// snapshot: at 100,000 resources, 80 MB; an estimate twice that raised the
// peak memory of an apply by as much).
func sizeHint(s *states.State, dc *dependencyClosure) int {
	quoted := 0
	for _, l := range dc.labels {
		quoted += len(l.quoted)
	}
	perDep := 16
	if len(dc.labels) > 0 {
		perDep += quoted/len(dc.labels) + 1
	}
	n := 4096 + 256*len(s.Outputs) + indentedSize(s.CheckResults, 1)
	for k, rec := range s.ProviderConfigs {
		n += 128 + 2*(len(k)+len(rec.Provider)+len(rec.Hash))
		for ik, iv := range rec.Identity {
			n += 32 + 2*(len(ik)+len(iv))
		}
	}
	for _, r := range s.Resources {
		deps := len(dc.nodeClosure(dc.nodeIDs[r.Addr.Config().String()]))
		// A provider's address, as a resource or an instance records it.
		pc := r.ProviderConfig
		provider := 24 + len(pc.Provider.Hostname) + len(pc.Provider.Namespace) + len(pc.Provider.Type) + len(pc.Alias) + 24*len(pc.Module)
		object := func(k addrs.InstanceKey, deposed string, o *states.ObjectSrc, perInstance bool) {
			// The lines of an instance around its attributes.
			n += 128 + len(deposed) + indentedSize(o.AttrsJSON, 5) + indentedSize(o.IdentityJSON, 5) + 2*len(o.Private)
			if k, ok := k.(addrs.StringKey); ok {
				n += 2 * len(k)
			}
			if perInstance {
				n += 32 + provider
			}
			for _, p := range o.SensitivePaths {
				n += 32 + 160*len(p)
			}
			for k, v := range o.AttrsFlat {
				n += 32 + 2*(len(k)+len(v))
			}
			if len(o.Dependencies) > 0 {
				n += 40 + perDep*max(deps, len(o.Dependencies))
			}
		}
		// The lines of a resource around its instances.
		n += 128 + len(r.Addr.Resource.Type) + len(r.Addr.Resource.Name) + provider
		if !r.Addr.Module.IsRoot() {
			n += 32 + len(r.Addr.Module.String())
		}
		for k, inst := range r.Instances {
			perInstance := inst.ProviderKey != addrs.NoKey
			if inst.Current != nil {
				object(k, "", inst.Current, perInstance)
			}
			for dk, o := range inst.Deposed {
				object(k, dk, o, perInstance)
			}
		}
	}
	return n
}

// indentedSize is the size of JSON value v once the writer lays it out
// at depth (docWriter.raw): a space after each colon, a new line and its
// indentation for each member or element and each closing bracket of a
// container that is not empty, and HTML escapes.
func indentedSize(v []byte, depth int) int {
	n := len(v)
	inString, escaped := false, false
	for i, c := range v {
		if c == '<' || c == '>' || c == '&' {
			n += 5
		} else if c == 0xE2 {
			n += 3
		}
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ':':
			n++
		case ',':
			n += 1 + 2*depth
		case '{', '[':
			if i+1 < len(v) && (v[i+1] == '}' || v[i+1] == ']') {
				continue
			}
			depth++
			n += 1 + 2*depth
		case '}', ']':
			if i > 0 && (v[i-1] == '{' || v[i-1] == '[') {
				continue
			}
			depth--
			n += 1 + 2*depth
		}
	}
	return n
}

// EncodeOutput renders an output value as the state file stores it.
func EncodeOutput(o *states.OutputValue) (outputStateV4, error) {
	v, _ := o.Value.UnmarkDeep()
	if !v.IsWhollyKnown() {
		return outputStateV4{}, fmt.Errorf("value is not known")
	}
	ty := v.Type()
	val, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return outputStateV4{}, err
	}
	tyJSON, err := ctyjson.MarshalType(ty)
	if err != nil {
		return outputStateV4{}, err
	}
	return outputStateV4{Value: val, Type: tyJSON, Sensitive: o.Sensitive}, nil
}

func writeResource(w *docWriter, r *states.Resource, dc *dependencyClosure) error {
	w.elem()
	w.open('{')
	if !r.Addr.Module.IsRoot() {
		w.key("module")
		w.string(r.Addr.Module.String())
	}
	w.key("mode")
	w.string(r.Addr.Resource.Mode.StateName())
	w.key("type")
	w.string(r.Addr.Resource.Type)
	w.key("name")
	w.string(r.Addr.Resource.Name)
	// As OpenTofu writes it: the resource's provider, or, when instances
	// belong to instances of a provider configuration with for_each, each
	// instance's and none for the resource.
	perInstance := r.HasProviderKeys()
	if !perInstance {
		w.key("provider")
		w.string(r.ProviderConfig.String())
	}
	w.key("instances")
	w.open('[')
	for _, k := range r.SortedKeys() {
		inst := r.Instances[k]
		if inst.Current != nil {
			if err := writeObject(w, r, k, "", inst.Current, dc, perInstance); err != nil {
				return fmt.Errorf("%s: %w", r.Addr.Instance(k), err)
			}
		}
		dks := make([]string, 0, len(inst.Deposed))
		for dk := range inst.Deposed {
			dks = append(dks, dk)
		}
		sort.Strings(dks)
		for _, dk := range dks {
			if err := writeObject(w, r, k, dk, inst.Deposed[dk], dc, perInstance); err != nil {
				return fmt.Errorf("%s (deposed %s): %w", r.Addr.Instance(k), dk, err)
			}
		}
	}
	w.close(']')
	w.close('}')
	return nil
}

// writeObject writes one instance entry, its dependencies completed with
// their transitive dependencies.
func writeObject(w *docWriter, r *states.Resource, k addrs.InstanceKey, deposed string, o *states.ObjectSrc, dc *dependencyClosure, withProvider bool) error {
	paths, err := encodePaths(o.SensitivePaths)
	if err != nil {
		return err
	}
	w.elem()
	w.open('{')
	switch k := k.(type) {
	case addrs.IntKey:
		w.key("index_key")
		w.buf = strconv.AppendInt(w.buf, int64(k), 10)
	case addrs.StringKey:
		w.key("index_key")
		w.string(string(k))
	}
	if o.Status == states.ObjectTainted {
		w.key("status")
		w.string("tainted")
	}
	if deposed != "" {
		w.key("deposed")
		w.string(deposed)
	}
	if withProvider {
		w.key("provider")
		w.string(r.InstanceProvider(k).String())
	}
	w.key("schema_version")
	w.buf = strconv.AppendUint(w.buf, o.SchemaVersion, 10)
	if len(o.AttrsJSON) > 0 {
		w.key("attributes")
		w.raw(o.AttrsJSON)
	}
	if len(o.AttrsFlat) > 0 {
		w.key("attributes_flat")
		keys := make([]string, 0, len(o.AttrsFlat))
		for k := range o.AttrsFlat {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		w.open('{')
		for _, k := range keys {
			w.member(k)
			w.string(o.AttrsFlat[k])
		}
		w.close('}')
	}
	w.key("sensitive_attributes")
	w.raw(paths)
	if o.IdentitySchemaVersion != nil {
		w.key("identity_schema_version")
		w.buf = strconv.AppendUint(w.buf, *o.IdentitySchemaVersion, 10)
	}
	if len(o.IdentityJSON) > 0 {
		w.key("identity")
		w.raw(o.IdentityJSON)
	}
	if len(o.Private) > 0 {
		w.key("private")
		w.buf = append(w.buf, '"')
		w.buf = base64.StdEncoding.AppendEncode(w.buf, o.Private)
		w.buf = append(w.buf, '"')
	}
	// Dependencies keep the order they were recorded in when complete, as
	// Terraform writes them: sorting would rewrite states Terraform wrote.
	if ids := dc.complete(r, o); len(ids) > 0 {
		w.key("dependencies")
		w.open('[')
		for _, id := range ids {
			w.elem()
			w.buf = append(w.buf, dc.labels[id].quoted...)
		}
		w.close(']')
	}
	if o.CreateBeforeDestroy {
		w.key("create_before_destroy")
		w.buf = append(w.buf, "true"...)
	}
	w.close('}')
	return w.err
}

// EncodeObject renders one object as a state file instance entry (without
// its index key or deposed key).
func EncodeObject(o *states.ObjectSrc) (instanceObjectV4, error) {
	is := instanceObjectV4{
		SchemaVersion:         o.SchemaVersion,
		AttributesRaw:         o.AttrsJSON,
		AttributesFlat:        o.AttrsFlat,
		PrivateRaw:            o.Private,
		CreateBeforeDestroy:   o.CreateBeforeDestroy,
		IdentitySchemaVersion: o.IdentitySchemaVersion,
		IdentityRaw:           o.IdentityJSON,
	}
	if o.Status == states.ObjectTainted {
		is.Status = "tainted"
	}
	paths, err := encodePaths(o.SensitivePaths)
	if err != nil {
		return is, err
	}
	is.SensitiveAttributes = paths
	// Dependencies keep the order they were recorded in, as Terraform
	// writes them: sorting here would rewrite states Terraform wrote (the
	// engine sorts the dependencies it computes itself).
	if len(o.Dependencies) > 0 {
		deps := make([]string, len(o.Dependencies))
		for i, d := range o.Dependencies {
			deps[i] = d.String()
		}
		is.Dependencies, _ = json.Marshal(deps)
	}
	return is, nil
}

package statefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"unicode/utf8"

	"github.com/hashicorp/go-version"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/upgrade"
)

// ErrEmpty is returned by Read for an empty file, which means "no state".
var ErrEmpty = fmt.Errorf("state file is empty")

// Read decodes a state snapshot of any supported format version, upgrading
// older versions to version 4 first. An empty input returns ErrEmpty.
func Read(src []byte) (*states.State, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, ErrEmpty
	}
	if s, err := readFast(src); err == nil {
		return s, nil
	}
	if s, err := readCurrent(src); err == nil {
		return s, nil
	}
	return readWhole(src)
}

// readWhole reads a snapshot decoded as a whole. Anything but a current
// snapshot (an older format, an invalid document) goes to upgrade first,
// which upgrades it or explains what is wrong with it.
func readWhole(src []byte) (*states.State, error) {
	src, err := upgrade.StateFile(src, CurrentVersion)
	if err != nil {
		return nil, err
	}
	var sv stateV4
	if err := json.Unmarshal(src, &sv); err != nil {
		return nil, fmt.Errorf("the state file could not be parsed as JSON: %w", err)
	}
	s := states.New()
	if err := readHeader(s, sv); err != nil {
		return nil, err
	}
	deps := depCache{}
	for _, rs := range sv.Resources {
		if err := readResource(s, rs, deps); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// readCurrent reads a valid version 4 snapshot laid out as Terraform and
// strata write it. A snapshot can be large, since its dependency lists are
// quadratic in the length of a chain of resources: they are cut out of
// the document before encoding/json decodes the rest, and resolved in
// place. It fails on anything else, for Read to decode the document as a
// whole and report what is wrong in the same way whatever the layout.
func readCurrent(src []byte) (*states.State, error) {
	st, err := stripDependencies(src)
	if err != nil {
		return nil, err
	}
	var sv stateV4
	if err := json.Unmarshal(st.doc, &sv); err != nil {
		return nil, err
	}
	if sv.Version != CurrentVersion {
		return nil, errNotPlain
	}
	for at, deps := range st.deps {
		if at[0] >= len(sv.Resources) || at[1] >= len(sv.Resources[at[0]].Instances) {
			return nil, errNotPlain
		}
		is := &sv.Resources[at[0]].Instances[at[1]]
		if string(is.Dependencies) != "null" {
			return nil, errNotPlain
		}
		is.Dependencies, is.parsedDeps = nil, deps
	}
	s := states.New()
	if err := readHeader(s, sv); err != nil {
		return nil, err
	}
	for _, rs := range sv.Resources {
		if err := readResource(s, rs, st.cache); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// readHeader reads everything in sv but its resources into s.
func readHeader(s *states.State, sv stateV4) error {
	if sv.TerraformVersion != "" {
		if _, err := version.NewVersion(sv.TerraformVersion); err != nil {
			return fmt.Errorf("the state file has an invalid terraform_version %q", sv.TerraformVersion)
		}
	}
	s.Lineage, s.Serial, s.TerraformVersion = sv.Lineage, sv.Serial, sv.TerraformVersion
	if len(sv.CheckResults) > 0 && string(sv.CheckResults) != "null" {
		s.CheckResults = sv.CheckResults
	}
	if sv.Strata != nil && len(sv.Strata.ProviderConfigs) > 0 {
		s.ProviderConfigs = sv.Strata.ProviderConfigs
	}
	for name, o := range sv.Outputs {
		ov, err := decodeOutput(o)
		if err != nil {
			return fmt.Errorf("output %q: %w", name, err)
		}
		s.Outputs[name] = ov
	}
	return nil
}

func decodeOutput(o outputStateV4) (*states.OutputValue, error) {
	ty, err := ctyjson.UnmarshalType(o.Type)
	if err != nil {
		return nil, fmt.Errorf("invalid type: %w", err)
	}
	v, err := ctyjson.Unmarshal(o.Value, ty)
	if err != nil {
		return nil, fmt.Errorf("invalid value: %w", err)
	}
	return &states.OutputValue{Value: v, Sensitive: o.Sensitive}, nil
}

func readResource(s *states.State, rs resourceStateV4, deps depCache) error {
	var mode addrs.ResourceMode
	switch rs.Mode {
	case "managed":
		mode = addrs.ManagedResourceMode
	case "data":
		mode = addrs.DataResourceMode
	default:
		return fmt.Errorf("resource %s.%s has invalid mode %q", rs.Type, rs.Name, rs.Mode)
	}
	if rs.Type == "" || rs.Name == "" {
		return fmt.Errorf("a resource in the state file has no type or name")
	}
	var module addrs.ModuleInstance
	if rs.Module != "" {
		inst, diags := addrs.ParseAbsResourceInstanceStr(rs.Module + ".x.y")
		// "data" or "module.a.data" parse as a data resource x.y: only a
		// non-empty module path followed by the managed resource x.y is valid.
		if diags.HasErrors() || inst.Module.IsRoot() || inst.Resource.Resource.Mode != addrs.ManagedResourceMode {
			return fmt.Errorf("resource %s.%s has invalid module address %q", rs.Type, rs.Name, rs.Module)
		}
		module = inst.Module
	}
	addr := addrs.Resource{Mode: mode, Type: rs.Type, Name: rs.Name}.Absolute(module)
	var provider addrs.AbsProviderConfig
	if rs.Provider != "" || len(rs.Instances) == 0 {
		var err error
		if provider, err = addrs.ParseAbsProviderConfig(rs.Provider); err != nil {
			return fmt.Errorf("resource %s: %w", addr, err)
		}
		if provider.Key != addrs.NoKey {
			return fmt.Errorf("resource %s: the provider of a resource cannot have an instance key (%s); only its instances can", addr, rs.Provider)
		}
	}
	if len(rs.Instances) == 0 {
		// Terraform keeps resources with no instances; so do we, by
		// registering the resource itself.
		s.Resources[addr.String()] = &states.Resource{Addr: addr, ProviderConfig: provider, Instances: map[addrs.InstanceKey]*states.ResourceInstance{}}
	}
	for _, is := range rs.Instances {
		key, err := decodeIndexKey(is.IndexKey)
		if err != nil {
			return fmt.Errorf("resource %s: %w", addr, err)
		}
		iaddr := addr.Instance(key)
		provider := provider
		if is.Provider != "" {
			// OpenTofu's provider for_each: the provider instance is
			// recorded for each instance, and all are instances of one
			// configuration.
			ip, err := addrs.ParseAbsProviderConfig(is.Provider)
			if err != nil {
				return fmt.Errorf("instance %s: %w", iaddr, err)
			}
			if rs.Provider != "" && ip.Config().String() != rs.Provider {
				return fmt.Errorf("instance %s has provider %s, which is not an instance of its resource's %s", iaddr, is.Provider, rs.Provider)
			}
			if r := s.Resource(addr); r != nil && r.ProviderConfig.String() != ip.Config().String() {
				return fmt.Errorf("resource %s has instances with different provider configurations: %s and %s", addr, r.ProviderConfig, ip.Config())
			}
			provider = ip
		} else if rs.Provider == "" {
			return fmt.Errorf("resource %s has no provider, neither for the resource nor for its instance %s", addr, iaddr)
		}
		obj := &states.ObjectSrc{
			SchemaVersion:         is.SchemaVersion,
			AttrsFlat:             is.AttributesFlat,
			Private:               is.PrivateRaw,
			Status:                states.ObjectReady,
			CreateBeforeDestroy:   is.CreateBeforeDestroy,
			IdentitySchemaVersion: is.IdentitySchemaVersion,
		}
		if len(is.AttributesRaw) > 0 {
			obj.AttrsJSON = is.AttributesRaw
			if !is.compacted {
				obj.AttrsJSON = compact(is.AttributesRaw)
			}
		}
		if len(is.IdentityRaw) > 0 {
			obj.IdentityJSON = is.IdentityRaw
			if !is.compacted {
				obj.IdentityJSON = compact(is.IdentityRaw)
			}
		}
		switch is.Status {
		case "":
		case "tainted":
			obj.Status = states.ObjectTainted
		default:
			return fmt.Errorf("instance %s has invalid status %q", iaddr, is.Status)
		}
		if obj.SensitivePaths, err = decodePaths(is.SensitiveAttributes); err != nil {
			return fmt.Errorf("instance %s: %w", iaddr, err)
		}
		if is.parsedDeps != nil {
			if len(is.parsedDeps) > 0 {
				obj.Dependencies = is.parsedDeps
			}
		} else if obj.Dependencies, _, err = deps.parseList(is.Dependencies); err != nil {
			return fmt.Errorf("instance %s has %w", iaddr, err)
		}
		if is.Deposed != "" {
			s.SetDeposed(iaddr, is.Deposed, obj, provider)
		} else {
			s.SetObject(iaddr, obj, provider)
		}
	}
	return nil
}

func decodeIndexKey(raw json.RawMessage) (addrs.InstanceKey, error) {
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return addrs.NoKey, nil
	case raw[0] == '"':
		var k string
		if err := json.Unmarshal(raw, &k); err != nil {
			return nil, fmt.Errorf("invalid index_key %s", raw)
		}
		return addrs.StringKey(k), nil
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		i, err := json.Number(raw).Int64()
		if err != nil || i < 0 {
			return nil, fmt.Errorf("invalid index_key %s", raw)
		}
		return addrs.IntKey(int(i)), nil
	default:
		return nil, fmt.Errorf("invalid index_key %s", raw)
	}
}

func compact(raw []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

// depCache parses each distinct dependency address of a state once: a
// state lists the same few addresses many times over, since every object
// records everything it depends on.
type depCache map[string]addrs.AbsResource

func (c depCache) parse(s string) (addrs.AbsResource, error) {
	if dep, ok := c[s]; ok {
		return dep, nil
	}
	if dep, ok := parseDottedResource(s); ok {
		c[s] = dep
		return dep, nil
	}
	dep, diags := addrs.ParseAbsResourceStr(s)
	if diags.HasErrors() {
		return addrs.AbsResource{}, diags
	}
	c[s] = dep
	return dep, nil
}

// parseDottedResource parses the common form of a resource address,
// names of ASCII letters, digits, '_' and '-' joined by dots and no
// instance keys (module.a.aws_s3_bucket.b), as addrs.ParseAbsResourceStr
// does but without HCL's lexer, which a snapshot of many resources would
// run once per resource. ok is false for anything else, for
// addrs.ParseAbsResourceStr to parse or explain.
func parseDottedResource(s string) (addrs.AbsResource, bool) {
	var names [16]string
	n := 0
	for start := 0; ; {
		end := strings.IndexByte(s[start:], '.')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		if n == len(names) || !plainIdentifier(s[start:end]) {
			return addrs.AbsResource{}, false
		}
		names[n] = s[start:end]
		n++
		if end == len(s) {
			break
		}
		start = end + 1
	}
	rest := names[:n]
	var module addrs.ModuleInstance
	for len(rest) > 2 && rest[0] == "module" {
		module = append(module, addrs.ModuleInstanceStep{Name: rest[1]})
		rest = rest[2:]
	}
	mode := addrs.ManagedResourceMode
	switch {
	case len(rest) == 3 && rest[0] == "data":
		mode, rest = addrs.DataResourceMode, rest[1:]
	case len(rest) == 3 && rest[0] == "ephemeral":
		mode, rest = addrs.EphemeralResourceMode, rest[1:]
	}
	if len(rest) != 2 || rest[0] == "module" || rest[0] == "data" || rest[0] == "ephemeral" {
		return addrs.AbsResource{}, false
	}
	if mode == addrs.ManagedResourceMode && (rest[0] == "resource" || addrs.ReservedTypeName(rest[0])) {
		return addrs.AbsResource{}, false
	}
	return addrs.Resource{Mode: mode, Type: rest[0], Name: rest[1]}.Absolute(module), true
}

// plainIdentifier reports whether s is an HCL identifier of ASCII
// characters.
func plainIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// parseList decodes an object's recorded dependencies, a JSON array of
// resource addresses (nil when absent), returning the invalid address, if
// any, with the error. An array of plain strings (no escapes, only ASCII:
// what strata and Terraform write) is read in place, without a string per
// address: a snapshot holds a quadratic number of them for a chain of
// resources.
func (c depCache) parseList(raw json.RawMessage) ([]addrs.AbsResource, string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, "", nil
	}
	if deps, bad, ok := c.parsePlain(raw); ok {
		if bad != nil {
			return nil, *bad, fmt.Errorf("invalid dependency %q", *bad)
		}
		return deps, "", nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, "", fmt.Errorf("invalid dependencies: %w", err)
	}
	var deps []addrs.AbsResource
	for _, d := range list {
		dep, err := c.parse(d)
		if err != nil {
			return nil, d, fmt.Errorf("invalid dependency %q", d)
		}
		deps = append(deps, dep)
	}
	return deps, "", nil
}

// parsePlain is parseList's fast path: ok is false when raw is not an
// array of plain strings; bad is the first invalid address.
func (c depCache) parsePlain(raw []byte) (deps []addrs.AbsResource, bad *string, ok bool) {
	deps, bad, end, ok := c.parsePlainAt(raw, skipSpace(raw, 0))
	if !ok || skipSpace(raw, end) != len(raw) {
		return nil, nil, false
	}
	return deps, bad, true
}

// parsePlainAt parses the array of plain strings starting at src[i], and
// returns the index after it.
func (c depCache) parsePlainAt(src []byte, i int) (deps []addrs.AbsResource, bad *string, end int, ok bool) {
	if i == len(src) || src[i] != '[' {
		return nil, nil, 0, false
	}
	if i = skipSpace(src, i+1); i < len(src) && src[i] == ']' {
		return nil, nil, i + 1, true
	}
	// An estimate of the length: plain strings may hold ']' and ','.
	n := 1
	if close := bytes.IndexByte(src[i:], ']'); close > 0 {
		n += bytes.Count(src[i:i+close], []byte{','})
	}
	deps = make([]addrs.AbsResource, 0, n)
	for i < len(src) && src[i] == '"' {
		start := i + 1
		end := start
		for end < len(src) && src[end] != '"' {
			if b := src[end]; b == '\\' || b < 0x20 || b >= utf8.RuneSelf {
				return nil, nil, 0, false
			}
			end++
		}
		if end == len(src) {
			return nil, nil, 0, false
		}
		dep, found := c[string(src[start:end])]
		if !found {
			var err error
			if dep, err = c.parse(string(src[start:end])); err != nil && bad == nil {
				b := string(src[start:end])
				bad = &b
			}
		}
		deps = append(deps, dep)
		i = skipSpace(src, end+1)
		switch {
		case i < len(src) && src[i] == ',':
			i = skipSpace(src, i+1)
		case i < len(src) && src[i] == ']':
			// The first invalid address is reported, once the array is
			// known to be one of strings.
			return deps, bad, i + 1, true
		default:
			return nil, nil, 0, false
		}
	}
	return nil, nil, 0, false
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

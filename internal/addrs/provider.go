package addrs

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultRegistryHost is the host of providers given without one.
const DefaultRegistryHost = "registry.terraform.io"

// BuiltInProviderHost and BuiltInProviderNamespace identify providers
// compiled into strata, such as terraform.io/builtin/terraform.
const (
	BuiltInProviderHost      = "terraform.io"
	BuiltInProviderNamespace = "builtin"
)

// Provider is a provider's source address: HOST/NAMESPACE/TYPE.
type Provider struct {
	Hostname  string
	Namespace string
	Type      string
}

// NewDefaultProvider returns registry.terraform.io/hashicorp/TYPE, the
// provider a resource type prefix implies.
func NewDefaultProvider(typ string) Provider {
	return Provider{Hostname: DefaultRegistryHost, Namespace: "hashicorp", Type: typ}
}

// NewBuiltInProvider returns terraform.io/builtin/TYPE.
func NewBuiltInProvider(typ string) Provider {
	return Provider{Hostname: BuiltInProviderHost, Namespace: BuiltInProviderNamespace, Type: typ}
}

// IsBuiltIn reports whether the provider is compiled into strata.
func (p Provider) IsBuiltIn() bool {
	return p.Hostname == BuiltInProviderHost && p.Namespace == BuiltInProviderNamespace
}

// String returns HOST/NAMESPACE/TYPE.
func (p Provider) String() string {
	return p.Hostname + "/" + p.Namespace + "/" + p.Type
}

// ForDisplay returns the short form users write: NAMESPACE/TYPE for the
// default registry, the full address otherwise.
func (p Provider) ForDisplay() string {
	if p.Hostname == DefaultRegistryHost {
		return p.Namespace + "/" + p.Type
	}
	return p.String()
}

// ParseProviderSource parses a `source` string: TYPE, NAMESPACE/TYPE or
// HOST/NAMESPACE/TYPE.
func ParseProviderSource(s string) (Provider, error) {
	parts := strings.Split(s, "/")
	for _, p := range parts {
		if p == "" {
			return Provider{}, fmt.Errorf("invalid provider source %q: empty part", s)
		}
	}
	switch len(parts) {
	case 1:
		return NewDefaultProvider(parts[0]), nil
	case 2:
		return Provider{Hostname: DefaultRegistryHost, Namespace: parts[0], Type: parts[1]}, nil
	case 3:
		return Provider{Hostname: parts[0], Namespace: parts[1], Type: parts[2]}, nil
	default:
		return Provider{}, fmt.Errorf("invalid provider source %q: expected at most three parts separated by slashes", s)
	}
}

// AbsProviderConfig is a provider configuration in a module:
// `provider["HOST/NS/TYPE"].ALIAS`, prefixed by the module path. With a
// Key it is one instance of a configuration that uses for_each (an
// OpenTofu addition): `provider["HOST/NS/TYPE"].ALIAS["KEY"]`.
type AbsProviderConfig struct {
	Module   Module
	Provider Provider
	Alias    string
	// Key selects one instance of a configuration with for_each; NoKey
	// for the configuration itself, or its only instance.
	Key InstanceKey
}

// Config returns the configuration p is an instance of: p without its
// instance key.
func (p AbsProviderConfig) Config() AbsProviderConfig {
	p.Key = NoKey
	return p
}

// Instance returns the instance of configuration p with the given key.
func (p AbsProviderConfig) Instance(key InstanceKey) AbsProviderConfig {
	p.Key = key
	return p
}

// String returns the form used in state files, e.g.
// `provider["registry.terraform.io/hashicorp/aws"].west`, followed by the
// instance key if there is one (`.by_region["eu-west-1"]`).
func (p AbsProviderConfig) String() string {
	var b strings.Builder
	if !p.Module.IsRoot() {
		b.WriteString(p.Module.String())
		b.WriteByte('.')
	}
	b.WriteString("provider[")
	if src := p.Provider.String(); plainASCII(src) {
		b.Grow(len(src) + 3 + len(p.Alias))
		b.WriteByte('"')
		b.WriteString(src)
		b.WriteByte('"')
	} else {
		b.WriteString(strconv.Quote(src))
	}
	b.WriteByte(']')
	if p.Alias != "" {
		b.WriteByte('.')
		b.WriteString(p.Alias)
	}
	b.WriteString(KeyString(p.Key))
	return b.String()
}

// plainASCII reports whether strconv.Quote would only add the quotes
// around s, as for every valid provider source address.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// ParseAbsProviderConfig parses the String form of an AbsProviderConfig, as
// found in the state file's `provider` field.
func ParseAbsProviderConfig(s string) (AbsProviderConfig, error) {
	var ret AbsProviderConfig
	rest := s
	for strings.HasPrefix(rest, "module.") {
		rest = rest[len("module."):]
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			return ret, fmt.Errorf("invalid provider configuration address %q", s)
		}
		ret.Module = append(ret.Module, rest[:i])
		rest = rest[i+1:]
	}
	if !strings.HasPrefix(rest, "provider[") {
		return ret, fmt.Errorf("invalid provider configuration address %q: must start with provider[", s)
	}
	rest = rest[len("provider["):]
	end := strings.Index(rest, "]")
	if end < 0 {
		return ret, fmt.Errorf("invalid provider configuration address %q: missing ]", s)
	}
	src, err := strconv.Unquote(rest[:end])
	if err != nil {
		return ret, fmt.Errorf("invalid provider configuration address %q: %s", s, err)
	}
	if ret.Provider, err = ParseProviderSource(src); err != nil {
		return ret, err
	}
	rest = rest[end+1:]
	if rest != "" {
		if !strings.HasPrefix(rest, ".") || len(rest) < 2 {
			return ret, fmt.Errorf("invalid provider configuration address %q", s)
		}
		ret.Alias = rest[1:]
		if i := strings.IndexByte(ret.Alias, '['); i >= 0 {
			key, err := parseProviderKey(ret.Alias[i:])
			if err != nil {
				return ret, fmt.Errorf("invalid provider configuration address %q: %s", s, err)
			}
			ret.Alias, ret.Key = ret.Alias[:i], key
		}
		if ret.Alias == "" {
			return ret, fmt.Errorf("invalid provider configuration address %q", s)
		}
	}
	return ret, nil
}

// parseProviderKey parses the instance key of a provider configuration
// address: ["KEY"], a quoted string, as OpenTofu writes it (provider
// for_each keys are always strings).
func parseProviderKey(s string) (InstanceKey, error) {
	if len(s) < 4 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, fmt.Errorf("an instance key must be a quoted string in brackets")
	}
	k, err := strconv.Unquote(s[1 : len(s)-1])
	if err != nil {
		return nil, fmt.Errorf("an instance key must be a quoted string in brackets")
	}
	return StringKey(k), nil
}

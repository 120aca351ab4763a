package encryption

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// EnvName is the environment variable that carries an encryption
// configuration, in HCL or JSON, as the body of an encryption block.
const EnvName = "TF_ENCRYPTION"

// Config is an encryption block: what OpenTofu's
// `terraform { encryption { ... } }` holds.
type Config struct {
	KeyProviders []*KeyProviderConfig
	Methods      []*MethodConfig
	// State and Plan are the state and plan blocks; nil when absent,
	// which leaves that kind of data unencrypted.
	State *TargetConfig
	Plan  *TargetConfig
	// Remote is the remote_state_data_sources block, for
	// terraform_remote_state.
	Remote    *RemoteConfig
	DeclRange hcl.Range
}

// KeyProviderConfig is a key_provider "TYPE" "NAME" block.
type KeyProviderConfig struct {
	Type, Name string
	// Alias is encrypted_metadata_alias: the key its metadata is stored
	// under instead of key_provider.TYPE.NAME.
	Alias     string
	Attrs     hcl.Attributes
	DeclRange hcl.Range
}

// Addr is key_provider.TYPE.NAME.
func (k *KeyProviderConfig) Addr() string { return "key_provider." + k.Type + "." + k.Name }

// metaKey is the key the provider's metadata is stored under.
func (k *KeyProviderConfig) metaKey() string {
	if k.Alias != "" {
		return k.Alias
	}
	return k.Addr()
}

// MethodConfig is a method "TYPE" "NAME" block.
type MethodConfig struct {
	Type, Name string
	Attrs      hcl.Attributes
	DeclRange  hcl.Range
}

// Addr is method.TYPE.NAME.
func (m *MethodConfig) Addr() string { return "method." + m.Type + "." + m.Name }

// TargetConfig is a state or plan block, a fallback block inside one, or
// an entry of remote_state_data_sources.
type TargetConfig struct {
	// Enforced forbids the unencrypted method (state and plan only).
	Enforced bool
	// Method refers to a method (method.TYPE.NAME); nil when not set.
	Method    hcl.Expression
	Fallback  *TargetConfig
	DeclRange hcl.Range
}

// RemoteConfig is the remote_state_data_sources block.
type RemoteConfig struct {
	Default *TargetConfig
	// Targets are the remote_state_data_source "NAME" blocks, by the
	// name of the data source they apply to (NAME, MODULE.NAME or
	// MODULE.NAME[KEY]).
	Targets map[string]*TargetConfig
}

var (
	rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "key_provider", LabelNames: []string{"type", "name"}},
		{Type: "method", LabelNames: []string{"type", "name"}},
		{Type: "state"},
		{Type: "plan"},
		{Type: "remote_state_data_sources"},
	}}
	enforceableSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "enforced"}, {Name: "method"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
	}
	targetSchema = &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{{Name: "method"}},
		Blocks:     []hcl.BlockHeaderSchema{{Type: "fallback"}},
	}
	remoteSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "default"},
		{Type: "remote_state_data_source", LabelNames: []string{"name"}},
	}}
	nameRe = regexp.MustCompile(`^[a-zA-Z_0-9-]+$`)
)

// Decode decodes the body of an encryption block declared at rng.
func Decode(body hcl.Body, rng hcl.Range) (*Config, hcl.Diagnostics) {
	cfg := &Config{DeclRange: rng}
	content, diags := body.Content(rootSchema)
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		switch b.Type {
		case "key_provider", "method":
			typ, name := b.Labels[0], b.Labels[1]
			addr := b.Type + "." + typ + "." + name
			if prev, ok := seen[addr]; ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate " + b.Type,
					Detail:   fmt.Sprintf("%s was already declared at %s.", addr, prev),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			seen[addr] = b.DefRange
			for _, l := range b.Labels {
				if !nameRe.MatchString(l) {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Invalid " + b.Type + " label",
						Detail:   fmt.Sprintf("%q is not a valid name: use letters, digits, underscores and dashes.", l),
						Subject:  b.DefRange.Ptr(),
					})
				}
			}
			attrs, adiags := b.Body.JustAttributes()
			diags = append(diags, adiags...)
			if b.Type == "method" {
				cfg.Methods = append(cfg.Methods, &MethodConfig{Type: typ, Name: name, Attrs: attrs, DeclRange: b.DefRange})
				continue
			}
			kp := &KeyProviderConfig{Type: typ, Name: name, Attrs: attrs, DeclRange: b.DefRange}
			if a, ok := attrs["encrypted_metadata_alias"]; ok {
				diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &kp.Alias)...)
				delete(attrs, "encrypted_metadata_alias")
			}
			cfg.KeyProviders = append(cfg.KeyProviders, kp)
		case "state", "plan":
			t, tdiags := decodeTarget(b, true)
			diags = append(diags, tdiags...)
			if b.Type == "state" {
				diags = append(diags, once(cfg.State, b)...)
				cfg.State = t
			} else {
				diags = append(diags, once(cfg.Plan, b)...)
				cfg.Plan = t
			}
		case "remote_state_data_sources":
			if cfg.Remote != nil {
				diags = append(diags, once(&TargetConfig{DeclRange: b.DefRange}, b)...)
				continue
			}
			cfg.Remote = &RemoteConfig{Targets: map[string]*TargetConfig{}}
			rc, rdiags := b.Body.Content(remoteSchema)
			diags = append(diags, rdiags...)
			for _, rb := range rc.Blocks {
				t, tdiags := decodeTarget(rb, false)
				diags = append(diags, tdiags...)
				if rb.Type == "default" {
					diags = append(diags, once(cfg.Remote.Default, rb)...)
					cfg.Remote.Default = t
					continue
				}
				name := rb.Labels[0]
				if _, dup := cfg.Remote.Targets[name]; dup {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Duplicate remote_state_data_source",
						Detail:   fmt.Sprintf("There is already a remote_state_data_source block for %q.", name),
						Subject:  rb.DefRange.Ptr(),
					})
				}
				cfg.Remote.Targets[name] = t
			}
		}
	}
	return cfg, diags
}

func once(prev *TargetConfig, b *hcl.Block) hcl.Diagnostics {
	if prev == nil {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Duplicate " + b.Type + " block",
		Detail:   fmt.Sprintf("An encryption block may have only one %s block; one was already given at %s.", b.Type, prev.DeclRange),
		Subject:  b.DefRange.Ptr(),
	}}
}

func decodeTarget(b *hcl.Block, enforceable bool) (*TargetConfig, hcl.Diagnostics) {
	schema := targetSchema
	if enforceable {
		schema = enforceableSchema
	}
	content, diags := b.Body.Content(schema)
	t := &TargetConfig{DeclRange: b.DefRange}
	if a, ok := content.Attributes["enforced"]; ok {
		diags = append(diags, gohcl.DecodeExpression(a.Expr, nil, &t.Enforced)...)
	}
	if a, ok := content.Attributes["method"]; ok {
		t.Method = a.Expr
	}
	for _, fb := range content.Blocks {
		if t.Fallback != nil {
			diags = append(diags, once(t.Fallback, fb)...)
			continue
		}
		f, fdiags := decodeTarget(fb, false)
		diags = append(diags, fdiags...)
		t.Fallback = f
	}
	return t, diags
}

// DecodeEnv decodes the value of TF_ENCRYPTION: the body of an
// encryption block, in HCL or, when it starts with "{", in JSON.
func DecodeEnv(value string) (*Config, hcl.Diagnostics) {
	src := strings.TrimSpace(value)
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasPrefix(src, "{") {
		f, diags = hcljson.Parse([]byte(src), EnvName)
	} else {
		f, diags = hclsyntax.ParseConfig([]byte(src), EnvName, hcl.InitialPos)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	cfg, cdiags := Decode(f.Body, hcl.Range{Filename: EnvName, Start: hcl.InitialPos, End: hcl.InitialPos})
	return cfg, append(diags, cdiags...)
}

// Merge returns c with override applied, as TF_ENCRYPTION applies to the
// configuration's block: key providers and methods of the same type and
// name take override's arguments over c's, the others are added; a
// target's method and fallback are override's when it sets them, and
// enforced holds if either sets it. Either may be nil.
func Merge(c, override *Config) *Config {
	if c == nil {
		return override
	}
	if override == nil {
		return c
	}
	out := &Config{DeclRange: c.DeclRange}
	out.KeyProviders = append(out.KeyProviders, c.KeyProviders...)
	for _, o := range override.KeyProviders {
		merged := false
		for i, k := range out.KeyProviders {
			if k.Type == o.Type && k.Name == o.Name {
				n := *k
				n.Attrs = mergeAttrs(k.Attrs, o.Attrs)
				if o.Alias != "" {
					n.Alias = o.Alias
				}
				out.KeyProviders[i] = &n
				merged = true
			}
		}
		if !merged {
			out.KeyProviders = append(out.KeyProviders, o)
		}
	}
	out.Methods = append(out.Methods, c.Methods...)
	for _, o := range override.Methods {
		merged := false
		for i, m := range out.Methods {
			if m.Type == o.Type && m.Name == o.Name {
				n := *m
				n.Attrs = mergeAttrs(m.Attrs, o.Attrs)
				out.Methods[i] = &n
				merged = true
			}
		}
		if !merged {
			out.Methods = append(out.Methods, o)
		}
	}
	out.State = mergeTarget(c.State, override.State)
	out.Plan = mergeTarget(c.Plan, override.Plan)
	switch {
	case c.Remote == nil:
		out.Remote = override.Remote
	case override.Remote == nil:
		out.Remote = c.Remote
	default:
		out.Remote = &RemoteConfig{Default: mergeTarget(c.Remote.Default, override.Remote.Default), Targets: map[string]*TargetConfig{}}
		for n, t := range c.Remote.Targets {
			out.Remote.Targets[n] = t
		}
		for n, t := range override.Remote.Targets {
			out.Remote.Targets[n] = mergeTarget(out.Remote.Targets[n], t)
		}
	}
	return out
}

func mergeAttrs(base, over hcl.Attributes) hcl.Attributes {
	out := hcl.Attributes{}
	for n, a := range base {
		out[n] = a
	}
	for n, a := range over {
		out[n] = a
	}
	return out
}

func mergeTarget(c, o *TargetConfig) *TargetConfig {
	if c == nil {
		return o
	}
	if o == nil {
		return c
	}
	n := *c
	if o.Method != nil {
		n.Method = o.Method
	}
	if o.Fallback != nil {
		n.Fallback = o.Fallback
	}
	n.Enforced = c.Enforced || o.Enforced
	return &n
}

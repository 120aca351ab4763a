package backend

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/backend/backendbase"
)

// Config is an effective backend configuration: the backend block merged
// with init's -backend-config options. A nil *Config is the default local
// backend.
type Config struct {
	Type string
	// Value is an object with every argument of the type's schema, null
	// where unset (environment variables then apply).
	Value cty.Value
	// Hash is Terraform's hash of the backend block alone, without the
	// -backend-config options.
	Hash uint64
	// Range is the backend block, for diagnostics.
	Range hcl.Range
	// ArgRanges are where the arguments that are set were given (the
	// value's expression in the block or a -backend-config file), for
	// diagnostics about their values.
	ArgRanges map[string]hcl.Range
	// MissingRange is where Terraform places a diagnostic about an
	// argument the block lacks and a -backend-config option sets: the
	// block's opening brace.
	MissingRange hcl.Range
}

// TypeName is the backend's type, DefaultType for nil.
func (c *Config) TypeName() string {
	if c == nil {
		return DefaultType
	}
	return c.Type
}

// Args returns the arguments that are set.
func (c *Config) Args() map[string]cty.Value {
	out := map[string]cty.Value{}
	if c == nil {
		return out
	}
	for name, v := range c.Value.AsValueMap() {
		if !v.IsNull() {
			out[name] = v
		}
	}
	return out
}

// Merge sets the arguments of over (init's -backend-config options) over
// c's; ranges are where they were given. As in Terraform, a diagnostic
// about an argument the block sets points at the option that replaced
// it, and one about an argument the block lacks at the block.
func (c *Config) Merge(over map[string]cty.Value, ranges map[string]hcl.Range) {
	vals := c.Value.AsValueMap()
	if c.ArgRanges == nil {
		c.ArgRanges = map[string]hcl.Range{}
	}
	for name, val := range over {
		vals[name] = val
		_, inBlock := c.ArgRanges[name]
		switch r, ok := ranges[name]; {
		case !inBlock && c.MissingRange != (hcl.Range{}):
			c.ArgRanges[name] = c.MissingRange
		case ok:
			c.ArgRanges[name] = r
		default:
			delete(c.ArgRanges, name)
		}
	}
	c.Value = cty.ObjectVal(vals)
}

// Object makes the full configuration object of schema from the
// arguments that are set.
func Object(schema backendbase.Schema, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, ty := range schema {
		if v, ok := set[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(vals)
}

// Hash is Terraform's hash of a backend block: cty's hash of the tuple of
// the type and the block decoded with every argument optional.
func Hash(typ string, body hcl.Body, schema backendbase.Schema) uint64 {
	spec := hcldec.ObjectSpec{}
	for name, ty := range schema {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: ty}
	}
	val, _ := hcldec.Decode(body, spec, nil)
	if val == cty.NilVal {
		val = cty.UnknownVal(cty.Object(schema))
	}
	return uint64(cty.TupleVal([]cty.Value{cty.StringVal(typ), val}).Hash())
}

// DecodeBlock checks a backend block of type typ and returns its
// configuration, before any -backend-config options.
func DecodeBlock(typ string, body hcl.Body, rng hcl.Range) (*Config, hcl.Diagnostics) {
	t, ok := Lookup(typ)
	if !ok {
		return nil, hcl.Diagnostics{Unsupported(typ, rng.Ptr())}
	}
	set, ranges, diags := DecodeBody(body, t.Schema)
	if diags.HasErrors() {
		return nil, diags
	}
	return &Config{
		Type:         typ,
		Value:        Object(t.Schema, set),
		Hash:         Hash(typ, body, t.Schema),
		Range:        rng,
		ArgRanges:    ranges,
		MissingRange: body.MissingItemRange(),
	}, diags
}

// DecodeBody evaluates the arguments of a backend block or of a
// -backend-config file, which may be literal values only (no variables or
// other references), each converted to its type in schema. Null arguments
// are left out, as if not set. The ranges are the values' expressions.
func DecodeBody(body hcl.Body, schema backendbase.Schema) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	attrs, diags := body.JustAttributes()
	if diags.HasErrors() {
		return nil, nil, diags
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	vals := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	for _, name := range names {
		a := attrs[name]
		ty, ok := schema[name]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here.", name),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		v, vdiags := a.Expr.Value(nil)
		diags = append(diags, vdiags...)
		if vdiags.HasErrors() {
			continue
		}
		if v.IsNull() {
			continue // as if not set
		}
		cv, err := convert.Convert(v, ty)
		if err != nil || !cv.IsWhollyKnown() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Incorrect attribute value type",
				Detail:   fmt.Sprintf("Inappropriate value for attribute %q: %s required.", name, typeNoun(ty)),
				Subject:  a.Expr.Range().Ptr(),
			})
			continue
		}
		vals[name] = cv
		ranges[name] = a.Expr.Range()
	}
	return vals, ranges, diags
}

func typeNoun(ty cty.Type) string {
	if ty == cty.Bool {
		return "a bool is"
	}
	return "a " + ty.FriendlyName() + " is"
}

// Overrides reads init's -backend-config options for a backend of type
// typ: files of arguments, and KEY=VALUE pairs whose value is taken as a
// string and converted to the argument's type. Later options win. The
// ranges are where each was given: in a file, its expression; on the
// command line, the place Terraform names "-backend-config=...". Files
// are relative to dir (empty: the process's working directory) and
// named in diagnostics as given.
func Overrides(dir, typ string, items []string) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	var schema backendbase.Schema
	if t, ok := Lookup(typ); ok {
		schema = t.Schema
	}
	out := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	var diags hcl.Diagnostics
	for _, item := range items {
		if item == "" {
			continue
		}
		eq := strings.Index(item, "=")
		if eq < 0 {
			vals, vranges, fdiags := decodeFile(dir, item, schema)
			diags = append(diags, fdiags...)
			for name, v := range vals {
				out[name] = v
				ranges[name] = vranges[name]
			}
			continue
		}
		name, raw := item[:eq], item[eq+1:]
		ty, ok := schema[name]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration argument",
				Detail:   fmt.Sprintf("The backend configuration argument %q given on the command line is not expected for the selected backend type.", name),
			})
			continue
		}
		v, err := convert.Convert(cty.StringVal(raw), ty)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration value",
				Detail:   fmt.Sprintf("Invalid backend configuration value for %s: %s required, not %q.", item, strings.TrimSuffix(typeNoun(ty), " is"), raw),
			})
			continue
		}
		out[name] = v
		ranges[name] = commandLineRange
	}
	return out, ranges, diags
}

// commandLineRange is where Terraform says a -backend-config=KEY=VALUE
// option was given.
var commandLineRange = hcl.Range{
	Filename: "-backend-config=...",
	Start:    hcl.Pos{Line: 1, Column: 1, Byte: 0},
	End:      hcl.Pos{Line: 1, Column: 2, Byte: 1},
}

// decodeFile reads a -backend-config file: HCL, or JSON when its name
// ends in .json.
func decodeFile(dir, path string, schema backendbase.Schema) (map[string]cty.Value, map[string]hcl.Range, hcl.Diagnostics) {
	full := path
	if dir != "" && !filepath.IsAbs(path) {
		full = filepath.Join(dir, path)
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("The file %q could not be read.", path),
		}}
	}
	p := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, diags = p.ParseJSON(src, path)
	} else {
		f, diags = p.ParseHCL(src, path)
	}
	if diags.HasErrors() {
		return nil, nil, diags
	}
	vals, ranges, adiags := DecodeBody(f.Body, schema)
	return vals, ranges, append(diags, adiags...)
}

// ValueArgs checks terraform_remote_state's config argument, an object of
// the backend's arguments, against t's schema, converting each to its
// type. Null arguments are left out, as if not set. As Terraform, it
// reports the first problem only ("Invalid backend configuration"): an
// argument the backend does not have, then a value of the wrong type,
// then a required argument missing. Unknown values (validation) are
// left out, as set to values not known yet.
func ValueArgs(t *Type, c cty.Value) (map[string]cty.Value, hcl.Diagnostics) {
	vals := map[string]cty.Value{}
	if !c.IsKnown() {
		return vals, nil
	}
	bad := func(format string, args ...any) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid backend configuration",
			Detail: fmt.Sprintf("The given configuration is not valid for backend %q: ", t.Name) + fmt.Sprintf(format, args...) + "."}}
	}
	if !c.IsNull() && !c.Type().IsObjectType() && !c.Type().IsMapType() {
		return vals, bad("an object is required")
	}
	given := map[string]cty.Value{}
	if !c.IsNull() {
		for it := c.ElementIterator(); it.Next(); {
			k, v := it.Element()
			given[k.AsString()] = v
		}
	}
	names := make([]string, 0, len(given))
	for name := range given {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := t.Schema[name]; !ok {
			return map[string]cty.Value{}, bad("unexpected attribute %q", name)
		}
	}
	set := map[string]bool{}
	for _, name := range names {
		v := given[name]
		if v.IsNull() {
			continue
		}
		set[name] = true
		cv, err := convert.Convert(v, t.Schema[name])
		if err != nil {
			return map[string]cty.Value{}, bad("%s", pathError(cty.GetAttrPath(name), err))
		}
		if cv.IsWhollyKnown() {
			vals[name] = cv
		}
	}
	for _, name := range t.Required {
		if !set[name] {
			return map[string]cty.Value{}, bad("attribute %q is required", name)
		}
	}
	return vals, nil
}

// pathError renders a conversion error of the value at path as
// Terraform does: ".name.nested: a number is required".
func pathError(path cty.Path, err error) string {
	var pe cty.PathError
	msg := err.Error()
	if errors.As(err, &pe) {
		path = append(path, pe.Path...)
		msg = pe.Error()
	}
	// Terraform's go-cty does not name the type given.
	msg, _, _ = strings.Cut(msg, ", but have ")
	var b strings.Builder
	for _, step := range path {
		switch s := step.(type) {
		case cty.GetAttrStep:
			b.WriteString("." + s.Name)
		case cty.IndexStep:
			if s.Key.Type() == cty.String {
				fmt.Fprintf(&b, "[%q]", s.Key.AsString())
			} else if s.Key.Type() == cty.Number {
				fmt.Fprintf(&b, "[%s]", s.Key.AsBigFloat().Text('f', -1))
			}
		}
	}
	return b.String() + ": " + msg
}

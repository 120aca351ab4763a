package jsonformat

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
)

// configuration is the "configuration" of a plan: the root module as
// written, with expressions described by their constant value or the
// references they make.
type configuration struct {
	ProviderConfig map[string]*providerConfig `json:"provider_config,omitempty"`
	RootModule     *configModule              `json:"root_module"`
}

type providerConfig struct {
	Name              string         `json:"name,omitempty"`
	FullName          string         `json:"full_name,omitempty"`
	Alias             string         `json:"alias,omitempty"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	ModuleAddress     string         `json:"module_address,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
}

type configModule struct {
	Outputs   map[string]*configOutput   `json:"outputs,omitempty"`
	Resources []*configResource          `json:"resources,omitempty"`
	Variables map[string]*configVariable `json:"variables,omitempty"`
}

type configOutput struct {
	Sensitive   bool       `json:"sensitive,omitempty"`
	Expression  expression `json:"expression"`
	DependsOn   []string   `json:"depends_on,omitempty"`
	Description string     `json:"description,omitempty"`
}

type configResource struct {
	Address           string         `json:"address,omitempty"`
	Mode              string         `json:"mode,omitempty"`
	Type              string         `json:"type,omitempty"`
	Name              string         `json:"name,omitempty"`
	ProviderConfigKey string         `json:"provider_config_key,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	SchemaVersion     uint64         `json:"schema_version"`
	CountExpression   *expression    `json:"count_expression,omitempty"`
	ForEachExpression *expression    `json:"for_each_expression,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

type configVariable struct {
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
}

// expression describes one expression: its value when it is a constant,
// and the references it makes.
type expression struct {
	ConstantValue json.RawMessage `json:"constant_value,omitempty"`
	References    []string        `json:"references,omitempty"`
}

func (e expression) empty() bool { return e.ConstantValue == nil && len(e.References) == 0 }

// marshalConfiguration describes the root module.
func marshalConfiguration(cfg *configs.Module, p *plans.Plan, schemaFn SchemaFunc) *configuration {
	ret := &configuration{ProviderConfig: map[string]*providerConfig{}, RootModule: &configModule{}}
	constraints := func(name string) string {
		if rp, ok := cfg.RequiredProviders[name]; ok {
			return constraintString(rp.Requirement.Required)
		}
		return ""
	}
	for key, pc := range cfg.ProviderConfigs {
		ret.ProviderConfig[key] = &providerConfig{
			Name:              pc.Name,
			FullName:          cfg.ProviderForLocalName(pc.Name).String(),
			Alias:             pc.Alias,
			VersionConstraint: constraints(pc.Name),
			Expressions:       marshalExpressions(pc.Config, nil),
		}
	}
	for name, rp := range cfg.RequiredProviders {
		if _, ok := ret.ProviderConfig[name]; !ok {
			ret.ProviderConfig[name] = &providerConfig{Name: name, FullName: rp.Source.String(), VersionConstraint: constraints(name)}
		}
	}

	versions := schemaVersions(p)
	mod := ret.RootModule
	for _, rs := range []map[string]*configs.Resource{cfg.ManagedResources, cfg.DataResources} {
		for _, key := range sortedKeys(rs) {
			r := rs[key]
			providerKey, provider := resourceProvider(cfg, r)
			if _, ok := ret.ProviderConfig[providerKey]; !ok {
				ret.ProviderConfig[providerKey] = &providerConfig{Name: r.ProviderLocalName(), FullName: provider.Provider.String(), Alias: provider.Alias}
			}
			schema := schemaFn(provider, r.Mode, r.Type)
			cr := &configResource{
				Address:           r.Addr().String(),
				Mode:              r.Mode.StateName(),
				Type:              r.Type,
				Name:              r.Name,
				ProviderConfigKey: providerKey,
				Expressions:       marshalExpressions(r.Config, schema),
				SchemaVersion:     versions[r.Addr().String()],
			}
			if r.Count != nil {
				if e := marshalExpression(r.Count); !e.empty() {
					cr.CountExpression = &e
				}
			}
			if r.ForEach != nil {
				if e := marshalExpression(r.ForEach); !e.empty() {
					cr.ForEachExpression = &e
				}
			}
			for _, t := range r.DependsOn {
				cr.DependsOn = append(cr.DependsOn, traversalFull(t))
			}
			mod.Resources = append(mod.Resources, cr)
		}
	}
	if len(cfg.Outputs) > 0 {
		mod.Outputs = map[string]*configOutput{}
		for name, o := range cfg.Outputs {
			co := &configOutput{Sensitive: o.Sensitive, Expression: marshalExpression(o.Expr), Description: o.Description}
			for _, t := range o.DependsOn {
				co.DependsOn = append(co.DependsOn, traversalFull(t))
			}
			mod.Outputs[name] = co
		}
	}
	if len(cfg.Variables) > 0 {
		mod.Variables = map[string]*configVariable{}
		for name, v := range cfg.Variables {
			cv := &configVariable{Description: v.Description, Sensitive: v.Sensitive}
			if v.Default != cty.NilVal {
				cv.Default, _ = marshalValue(v.Default)
			}
			mod.Variables[name] = cv
		}
	}
	if len(ret.ProviderConfig) == 0 {
		ret.ProviderConfig = nil
	}
	return ret
}

// resourceProvider returns the key of the provider configuration a
// resource uses (NAME or NAME.ALIAS) and its address.
func resourceProvider(cfg *configs.Module, r *configs.Resource) (string, addrs.AbsProviderConfig) {
	key, alias := r.ProviderLocalName(), ""
	if r.ProviderRef != nil {
		key, alias = r.ProviderRef.String(), r.ProviderRef.Alias
	}
	return key, addrs.AbsProviderConfig{Provider: cfg.ProviderForLocalName(r.ProviderLocalName()), Alias: alias}
}

// schemaVersions maps root module resource addresses to the schema
// version of their type, as the plan's changes or the prior state record
// it.
func schemaVersions(p *plans.Plan) map[string]uint64 {
	ret := map[string]uint64{}
	if p.PriorState != nil {
		for _, r := range p.PriorState.Resources {
			if !r.Addr.Module.IsRoot() {
				continue
			}
			for _, inst := range r.Instances {
				if inst.Current != nil {
					ret[r.Addr.Resource.String()] = inst.Current.SchemaVersion
				}
			}
		}
	}
	if p.Changes != nil {
		for _, c := range p.Changes.Resources {
			if c.Addr.Module.IsRoot() && c.Action != plans.Delete {
				ret[c.Addr.Resource.Resource.String()] = uint64(c.SchemaVersion)
			}
		}
	}
	return ret
}

// marshalExpressions describes the arguments set in a body: attributes by
// name, nested blocks as a list (or, for map nesting, an object keyed by
// label) of their own descriptions. Without a schema, only attributes
// are described.
func marshalExpressions(body hcl.Body, schema *configschema.Block) map[string]any {
	if body == nil {
		return nil
	}
	ret := map[string]any{}
	if schema == nil {
		attrs, _ := body.JustAttributes()
		for name, a := range attrs {
			ret[name] = marshalExpression(a.Expr)
		}
	} else {
		content, _, _ := body.PartialContent(hclSchema(schema))
		for name, a := range content.Attributes {
			ret[name] = marshalExpression(a.Expr)
		}
		for _, typeName := range sortedKeys(schema.BlockTypes) {
			nb := schema.BlockTypes[typeName]
			var blocks []*hcl.Block
			for _, b := range content.Blocks {
				if b.Type == typeName {
					blocks = append(blocks, b)
				}
			}
			if len(blocks) == 0 {
				continue
			}
			switch nb.Nesting {
			case configschema.NestingSingle, configschema.NestingGroup:
				ret[typeName] = marshalExpressions(blocks[0].Body, &nb.Block)
			case configschema.NestingMap:
				m := map[string]any{}
				for _, b := range blocks {
					if len(b.Labels) > 0 {
						m[b.Labels[0]] = marshalExpressions(b.Body, &nb.Block)
					}
				}
				ret[typeName] = m
			default:
				list := make([]any, 0, len(blocks))
				for _, b := range blocks {
					list = append(list, marshalExpressions(b.Body, &nb.Block))
				}
				ret[typeName] = list
			}
		}
	}
	if len(ret) == 0 {
		return nil
	}
	return ret
}

// hclSchema is the HCL body schema of a configschema block: its
// attributes and nested block types.
func hclSchema(b *configschema.Block) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, name := range sortedKeys(b.Attributes) {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: name})
	}
	for _, name := range sortedKeys(b.BlockTypes) {
		bs := hcl.BlockHeaderSchema{Type: name}
		if b.BlockTypes[name].Nesting == configschema.NestingMap {
			bs.LabelNames = []string{"key"}
		}
		s.Blocks = append(s.Blocks, bs)
	}
	return s
}

// marshalExpression describes one expression: its value when it can be
// evaluated with no variables and no functions, and each reference it
// makes from the longest form to the shortest, as Terraform lists them
// (`var.a.b`, `var.a`; `aws_x.y[0].id`, `aws_x.y[0]`, `aws_x.y`).
func marshalExpression(expr hcl.Expression) expression {
	var ret expression
	if expr == nil {
		return ret
	}
	// Evaluated with no variables and no functions: a reference or a
	// function call makes the value (or part of it) unknown.
	if v, _ := expr.Value(nil); v != cty.NilVal && v.IsWhollyKnown() {
		ret.ConstantValue, _ = marshalValue(v)
	}
	refs, _ := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		subject, remaining, resource := referenceParts(ref)
		for n := len(remaining); n > 0; n-- {
			ret.References = append(ret.References, subject+traversalString(remaining[:n]))
		}
		ret.References = append(ret.References, subject)
		if resource != "" {
			ret.References = append(ret.References, resource)
		}
	}
	return ret
}

// referenceParts splits a reference as Terraform sees it: the subject
// (for a resource, the instance when the reference gives a key), the
// traversal after it, and, for a resource instance, the resource itself.
func referenceParts(ref *lang.Reference) (subject string, remaining hcl.Traversal, resource string) {
	subject, remaining = ref.Subject.String(), ref.Remaining
	if _, ok := ref.Subject.(lang.ResourceRef); ok && len(remaining) > 0 {
		if idx, ok := remaining[0].(hcl.TraverseIndex); ok && validInstanceKey(idx.Key) {
			resource = subject
			subject += "[" + indexKeyString(idx.Key) + "]"
			remaining = remaining[1:]
		}
	}
	return subject, remaining, resource
}

func validInstanceKey(k cty.Value) bool {
	if k.IsNull() || !k.IsKnown() {
		return false
	}
	return k.Type() == cty.String || k.Type() == cty.Number
}

// traversalFull renders an absolute traversal such as a depends_on entry.
func traversalFull(t hcl.Traversal) string {
	if len(t) == 0 {
		return ""
	}
	return t.RootName() + traversalString(t[1:])
}

var constraintRe = regexp.MustCompile(`^\s*(~>|>=|<=|!=|=|>|<)?\s*v?(\S+)\s*$`)

// constraintString renders version constraints as Terraform does in the
// plan: every version with three parts (two or more for ~>), and no
// operator for an exact version.
func constraintString(cs version.Constraints) string {
	parts := make([]string, 0, len(cs))
	for _, c := range cs {
		orig := c.String()
		m := constraintRe.FindStringSubmatch(orig)
		if m == nil {
			parts = append(parts, orig)
			continue
		}
		op, raw := m[1], m[2]
		v, err := version.NewVersion(raw)
		if err != nil {
			parts = append(parts, orig)
			continue
		}
		n := 3
		if op == "~>" {
			core := raw
			if i := strings.IndexAny(core, "-+"); i >= 0 {
				core = core[:i]
			}
			n = max(2, len(strings.Split(core, ".")))
		}
		segs := v.Segments()
		for len(segs) < n {
			segs = append(segs, 0)
		}
		nums := make([]string, n)
		for i := range n {
			nums[i] = strconv.Itoa(segs[i])
		}
		s := strings.Join(nums, ".")
		if pre := v.Prerelease(); pre != "" {
			s += "-" + pre
		}
		if op != "" && op != "=" {
			s = op + " " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

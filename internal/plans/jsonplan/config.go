package jsonplan

import (
	"encoding/json"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
)

// configuration is the "configuration" of a plan: the module tree as
// written, with expressions described by their constant value or the
// references they make.
type configuration struct {
	ProviderConfig map[string]*providerConfig `json:"provider_config,omitempty"`
	RootModule     *configModule              `json:"root_module"`
}

type configModule struct {
	Outputs     map[string]*configOutput     `json:"outputs,omitempty"`
	Resources   []*configResource            `json:"resources,omitempty"`
	ModuleCalls map[string]*configModuleCall `json:"module_calls,omitempty"`
	Variables   map[string]*configVariable   `json:"variables,omitempty"`
}

// configModuleCall is a module block and, under "module", the module it
// calls.
type configModuleCall struct {
	Source            string         `json:"source,omitempty"`
	Expressions       map[string]any `json:"expressions,omitempty"`
	CountExpression   *expression    `json:"count_expression,omitempty"`
	ForEachExpression *expression    `json:"for_each_expression,omitempty"`
	Module            *configModule  `json:"module"`
	VersionConstraint string         `json:"version_constraint,omitempty"`
	DependsOn         []string       `json:"depends_on,omitempty"`
}

type configOutput struct {
	Sensitive   bool       `json:"sensitive,omitempty"`
	Expression  expression `json:"expression"`
	DependsOn   []string   `json:"depends_on,omitempty"`
	Description string     `json:"description,omitempty"`
}

type configResource struct {
	// Address is relative to the module the resource is declared in.
	Address string `json:"address,omitempty"`
	Mode    string `json:"mode,omitempty"`
	Type    string `json:"type,omitempty"`
	Name    string `json:"name,omitempty"`
	// ProviderConfigKey is the key of the resource's provider
	// configuration in "provider_config".
	ProviderConfigKey string              `json:"provider_config_key,omitempty"`
	Provisioners      []configProvisioner `json:"provisioners,omitempty"`
	Expressions       map[string]any      `json:"expressions,omitempty"`
	SchemaVersion     uint64              `json:"schema_version"`
	CountExpression   *expression         `json:"count_expression,omitempty"`
	ForEachExpression *expression         `json:"for_each_expression,omitempty"`
	DependsOn         []string            `json:"depends_on,omitempty"`
}

// configProvisioner is a provisioner block of a resource: its type and
// its arguments (without when, on_failure and connection, as in
// Terraform).
type configProvisioner struct {
	Type        string         `json:"type"`
	Expressions map[string]any `json:"expressions,omitempty"`
}

type configVariable struct {
	Default     json.RawMessage `json:"default,omitempty"`
	Description string          `json:"description,omitempty"`
	Sensitive   bool            `json:"sensitive,omitempty"`
}

// marshalConfiguration describes the module tree cfg is the root of.
func marshalConfiguration(cfg *configs.Config, p *plans.Plan, schemaFn SchemaFunc, versionFn SchemaVersionFunc) *configuration {
	pcs := marshalProviderConfigs(cfg)
	root := marshalModuleConfig(cfg, &schemaVersions{recorded: recordedSchemaVersions(p), lookup: versionFn}, schemaFn)
	normalizeProviderKeys(root, pcs)
	for key, pc := range pcs {
		if pc.parentKey != "" {
			delete(pcs, key)
		}
	}
	ret := &configuration{ProviderConfig: pcs, RootModule: root}
	if len(pcs) == 0 {
		ret.ProviderConfig = nil
	}
	return ret
}

// marshalModuleConfig describes one module of the tree and, through its
// module calls, the modules below it.
func marshalModuleConfig(c *configs.Config, versions *schemaVersions, schemaFn SchemaFunc) *configModule {
	mod := &configModule{Resources: marshalConfigResources(c, versions, schemaFn)}
	if len(c.Module.Outputs) > 0 {
		mod.Outputs = map[string]*configOutput{}
		for name, o := range c.Module.Outputs {
			mod.Outputs[name] = &configOutput{
				Sensitive:   o.Sensitive,
				Expression:  marshalExpression(o.Expr),
				DependsOn:   dependsOn(o.DependsOn),
				Description: o.Description,
			}
		}
	}
	if len(c.Module.ModuleCalls) > 0 {
		mod.ModuleCalls = map[string]*configModuleCall{}
		for name, call := range c.Module.ModuleCalls {
			mod.ModuleCalls[name] = marshalModuleCall(call, c.Children[name], versions, schemaFn)
		}
	}
	if len(c.Module.Variables) > 0 {
		mod.Variables = map[string]*configVariable{}
		for name, v := range c.Module.Variables {
			cv := &configVariable{Description: v.Description, Sensitive: v.Sensitive}
			if v.Default != cty.NilVal {
				cv.Default, _ = marshalValue(v.Default)
			}
			mod.Variables[name] = cv
		}
	}
	return mod
}

// marshalModuleCall describes a module block: its arguments that set
// the called module's variables, its repetition and dependencies, and
// the called module (empty when it was not loaded).
func marshalModuleCall(call *configs.ModuleCall, child *configs.Config, versions *schemaVersions, schemaFn SchemaFunc) *configModuleCall {
	if child == nil {
		return &configModuleCall{Module: &configModule{}}
	}
	ret := &configModuleCall{
		Source:            call.Source,
		VersionConstraint: call.Version,
		Module:            marshalModuleConfig(child, versions, schemaFn),
		DependsOn:         dependsOn(call.DependsOn),
	}
	ret.CountExpression, ret.ForEachExpression = repetition(call.Count, call.ForEach)
	for name, attr := range call.Inputs {
		if _, ok := child.Module.Variables[name]; !ok {
			continue
		}
		if ret.Expressions == nil {
			ret.Expressions = map[string]any{}
		}
		ret.Expressions[name] = marshalExpression(attr.Expr)
	}
	return ret
}

// marshalConfigResources describes the resource blocks of one module,
// managed resources before data resources, each by address.
func marshalConfigResources(c *configs.Config, versions *schemaVersions, schemaFn SchemaFunc) []*configResource {
	var ret []*configResource
	for _, rs := range []map[string]*configs.Resource{c.Module.ManagedResources, c.Module.DataResources} {
		for _, key := range sortedKeys(rs) {
			r := rs[key]
			provider := c.Module.ProviderForLocalName(r.ProviderLocalName())
			schema := schemaFn(addrs.AbsProviderConfig{Provider: provider}, r.Mode, r.Type)
			cr := &configResource{
				Address:           r.Addr().String(),
				Mode:              r.Mode.StateName(),
				Type:              r.Type,
				Name:              r.Name,
				ProviderConfigKey: moduleProviderKey(c.Path, resourceProviderKey(r)),
				Expressions:       marshalExpressions(r.Config, schema),
				SchemaVersion:     versions.of(c.Path, r, provider),
				DependsOn:         dependsOn(r.DependsOn),
			}
			if r.Managed != nil {
				for _, p := range r.Managed.Provisioners {
					cr.Provisioners = append(cr.Provisioners, configProvisioner{Type: p.Type, Expressions: marshalExpressions(p.Config, nil)})
				}
			}
			cr.CountExpression, cr.ForEachExpression = repetition(r.Count, r.ForEach)
			ret = append(ret, cr)
		}
	}
	return ret
}

// repetition describes a count or for_each argument; Terraform leaves
// out one that is set to an expression with neither a constant value nor
// references.
func repetition(count, forEach hcl.Expression) (countExpr, forEachExpr *expression) {
	if count != nil {
		if e := marshalExpression(count); !e.empty() {
			countExpr = &e
		}
	}
	if forEach != nil {
		if e := marshalExpression(forEach); !e.empty() {
			forEachExpr = &e
		}
	}
	return countExpr, forEachExpr
}

// dependsOn renders the entries of a depends_on argument.
func dependsOn(ts []hcl.Traversal) []string {
	var ret []string
	for _, t := range ts {
		ret = append(ret, traversalFull(t))
	}
	return ret
}

// schemaVersions gives the "schema_version" of resources: their type's
// current version, as Terraform gives it, or, when the provider's schema
// cannot be had, the version the plan recorded.
type schemaVersions struct {
	recorded map[string]uint64
	lookup   SchemaVersionFunc
}

func (v *schemaVersions) of(module addrs.Module, r *configs.Resource, provider addrs.Provider) uint64 {
	if v.lookup != nil {
		if version, ok := v.lookup(provider, r.Mode, r.Type); ok {
			return version
		}
	}
	return v.recorded[addrs.ConfigResource{Module: module, Resource: r.Addr()}.String()]
}

// recordedSchemaVersions maps resources, by their address in the
// configuration (module.a.module.b.TYPE.NAME), to the schema version of
// their type, as the plan's changes or the prior state record it.
func recordedSchemaVersions(p *plans.Plan) map[string]uint64 {
	ret := map[string]uint64{}
	if p.PriorState != nil {
		for _, r := range p.PriorState.Resources {
			for _, inst := range r.Instances {
				if inst.Current != nil {
					ret[r.Addr.Config().String()] = inst.Current.SchemaVersion
				}
			}
		}
	}
	if p.Changes != nil {
		for _, c := range p.Changes.Resources {
			if c.Action != plans.Delete {
				ret[c.Addr.ContainingResource().Config().String()] = uint64(c.SchemaVersion)
			}
		}
	}
	return ret
}

package jsonplan

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/ctyjson"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// StateFormatVersion is the version of the JSON state document.
const StateFormatVersion = "1.0"

type stateDoc struct {
	FormatVersion    string       `json:"format_version"`
	TerraformVersion string       `json:"terraform_version,omitempty"`
	Values           *stateValues `json:"values,omitempty"`
	Checks           []check      `json:"checks,omitempty"`
}

// stateValues is the "values" of a state and the "planned_values" of a
// plan.
type stateValues struct {
	Outputs    map[string]any `json:"outputs,omitempty"`
	RootModule *module        `json:"root_module"`
}

// stateOutput is an output in a state document.
type stateOutput struct {
	Sensitive bool            `json:"sensitive"`
	Value     json.RawMessage `json:"value,omitempty"`
	Type      json.RawMessage `json:"type,omitempty"`
}

type module struct {
	Resources    []*resource `json:"resources,omitempty"`
	Address      string      `json:"address,omitempty"`
	ChildModules []*module   `json:"child_modules,omitempty"`
}

// resource is one resource instance object in a state or in the planned
// values.
type resource struct {
	Address         string          `json:"address"`
	Mode            string          `json:"mode"`
	Type            string          `json:"type"`
	Name            string          `json:"name"`
	Index           any             `json:"index,omitempty"`
	ProviderName    string          `json:"provider_name"`
	SchemaVersion   uint64          `json:"schema_version"`
	Values          json.RawMessage `json:"values,omitempty"`
	SensitiveValues json.RawMessage `json:"sensitive_values,omitempty"`
	DependsOn       []string        `json:"depends_on,omitempty"`
	Tainted         bool            `json:"tainted,omitempty"`
	DeposedKey      string          `json:"deposed_key,omitempty"`
	// IdentitySchemaVersion and Identity are the resource identity
	// (Terraform 1.12), for objects that have one.
	IdentitySchemaVersion *uint64                    `json:"identity_schema_version,omitempty"`
	Identity              map[string]json.RawMessage `json:"identity,omitempty"`

	// addr orders resources and places them in modules.
	addr addrs.AbsResourceInstance
}

// State renders s as Terraform's JSON state document. An empty state is
// only {"format_version":"1.0"}, as in Terraform.
func State(s *states.State, schema SchemaFunc, terraformVersion string) ([]byte, error) {
	schema = orNoSchemas(schema)
	doc := stateDoc{FormatVersion: StateFormatVersion}
	if !s.Empty() {
		vals, err := marshalStateValues(s, nil, schema)
		if err != nil {
			return nil, err
		}
		doc.TerraformVersion = terraformVersion
		doc.Values = vals
	}
	// As Terraform, the check results the last apply recorded; a state
	// without resources and outputs is shown as no state at all, whatever
	// checks it recorded.
	if !s.Empty() {
		checks, err := plans.DecodeStateChecks(s.CheckResults)
		if err != nil {
			return nil, fmt.Errorf("the state's check results: %w", err)
		}
		if len(checks) > 0 {
			doc.Checks = marshalChecks(checks)
		}
	}
	return json.Marshal(doc)
}

// marshalStateValues renders the outputs and resources of a state.
// outputs, when not nil, replaces the state's outputs.
func marshalStateValues(s *states.State, outputs map[string]*states.OutputValue, schema SchemaFunc) (*stateValues, error) {
	if outputs == nil {
		outputs = s.Outputs
	}
	vals := &stateValues{}
	if len(outputs) > 0 {
		vals.Outputs = map[string]any{}
		for name, o := range outputs {
			so, err := marshalStateOutput(o)
			if err != nil {
				return nil, fmt.Errorf("output %q: %w", name, err)
			}
			vals.Outputs[name] = so
		}
	}
	var rs []*resource
	for _, r := range s.SortedResources() {
		for _, k := range r.SortedKeys() {
			inst := r.Instances[k]
			addr := r.Addr.Instance(k)
			if inst.Current != nil {
				jr, err := marshalStateObject(addr, r.ProviderConfig, inst.Current, schema)
				if err != nil {
					return nil, err
				}
				rs = append(rs, jr)
			}
			for _, dk := range sortedKeys(inst.Deposed) {
				jr, err := marshalStateObject(addr, r.ProviderConfig, inst.Deposed[dk], schema)
				if err != nil {
					return nil, err
				}
				jr.DeposedKey = dk
				rs = append(rs, jr)
			}
		}
	}
	vals.RootModule = moduleTree(rs)
	return vals, nil
}

func marshalStateOutput(o *states.OutputValue) (stateOutput, error) {
	if o.Value == cty.NilVal {
		return stateOutput{Sensitive: o.Sensitive, Value: nullJSON}, nil
	}
	v, _ := o.Value.UnmarkDeep()
	val, err := marshalValue(v)
	if err != nil {
		return stateOutput{}, err
	}
	ty, err := ctyjson.MarshalType(v.Type())
	if err != nil {
		return stateOutput{}, err
	}
	return stateOutput{Sensitive: o.Sensitive, Value: val, Type: ty}, nil
}

// marshalStateObject decodes one stored object with its schema and
// renders it.
func marshalStateObject(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, obj *states.ObjectSrc, schemaFn SchemaFunc) (*resource, error) {
	mode := addr.Resource.Resource.Mode
	typ := addr.Resource.Resource.Type
	schema := schemaFn(provider, mode, typ)
	if schema == nil {
		return nil, fmt.Errorf("no schema found for %s (in provider %s)", addr, provider.Provider)
	}
	if obj.AttrsJSON == nil && obj.AttrsFlat != nil {
		return nil, fmt.Errorf("%s is stored in the legacy flatmap format; run a plan or apply to upgrade the state first", addr)
	}
	val, err := ctyjson.Unmarshal(obj.AttrsJSON, schema.ImpliedType())
	if err != nil {
		return nil, fmt.Errorf("%s: the stored object does not match the schema of %s: %w", addr, typ, err)
	}
	val = markSchemaSensitive(marks.Apply(val, obj.SensitivePaths), schema)
	jr := newResource(addr, provider, obj.SchemaVersion)
	if jr.Values, err = marshalValue(val); err != nil {
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	if jr.SensitiveValues, err = json.Marshal(sensitiveTree(val)); err != nil {
		return nil, err
	}
	for _, d := range obj.Dependencies {
		jr.DependsOn = append(jr.DependsOn, d.String())
	}
	jr.Tainted = obj.Status == states.ObjectTainted
	if len(obj.IdentityJSON) > 0 {
		var version uint64
		if obj.IdentitySchemaVersion != nil {
			version = *obj.IdentitySchemaVersion
		}
		jr.IdentitySchemaVersion = &version
		if err := json.Unmarshal(obj.IdentityJSON, &jr.Identity); err != nil {
			return nil, fmt.Errorf("%s: the stored identity is not a JSON object: %w", addr, err)
		}
	}
	return jr, nil
}

func newResource(addr addrs.AbsResourceInstance, provider addrs.AbsProviderConfig, schemaVersion uint64) *resource {
	r := addr.Resource.Resource
	return &resource{
		Address:       addr.String(),
		Mode:          r.Mode.StateName(),
		Type:          r.Type,
		Name:          r.Name,
		Index:         instanceKeyJSON(addr.Resource.Key),
		ProviderName:  provider.Provider.String(),
		SchemaVersion: schemaVersion,
		addr:          addr,
	}
}

// moduleTree places resources (in order) into the root module and its
// descendants. A child module appears under its parent, and only when it
// has resources somewhere below it. Child modules are in address order,
// as in Terraform's state documents; its planned values list the
// modules below the top level in the order it planned them, which varies
// from run to run.
func moduleTree(rs []*resource) *module {
	root := &module{}
	mods := map[string]*module{"": root}
	var get func(m addrs.ModuleInstance) *module
	get = func(m addrs.ModuleInstance) *module {
		key := m.String()
		if mod, ok := mods[key]; ok {
			return mod
		}
		mod := &module{Address: key}
		mods[key] = mod
		parent := get(m[:len(m)-1])
		parent.ChildModules = append(parent.ChildModules, mod)
		return mod
	}
	for _, r := range rs {
		mod := get(r.addr.Module)
		mod.Resources = append(mod.Resources, r)
	}
	var sortChildren func(m *module)
	sortChildren = func(m *module) {
		sort.Slice(m.ChildModules, func(i, j int) bool { return m.ChildModules[i].Address < m.ChildModules[j].Address })
		for _, c := range m.ChildModules {
			sortChildren(c)
		}
	}
	sortChildren(root)
	return root
}

// compareInstances orders instance addresses as Terraform's documents
// list them: by module (shallower modules first, then call by call, by
// name and instance key), data resources before managed ones, then by
// type, name and instance key.
func compareInstances(a, b addrs.AbsResourceInstance) int {
	if len(a.Module) != len(b.Module) {
		return len(a.Module) - len(b.Module)
	}
	if c := a.Module.Compare(b.Module); c != 0 {
		return c
	}
	ra, rb := a.Resource.Resource, b.Resource.Resource
	switch {
	case ra.Mode != rb.Mode:
		if ra.Mode == addrs.DataResourceMode {
			return -1
		}
		return 1
	case ra.Type != rb.Type:
		return strings.Compare(ra.Type, rb.Type)
	case ra.Name != rb.Name:
		return strings.Compare(ra.Name, rb.Name)
	}
	return addrs.CompareKeys(a.Resource.Key, b.Resource.Key)
}

// orNoSchemas returns f, or a lookup that knows no schemas when f is nil.
func orNoSchemas(f SchemaFunc) SchemaFunc {
	if f != nil {
		return f
	}
	return func(addrs.AbsProviderConfig, addrs.ResourceMode, string) *configschema.Block { return nil }
}

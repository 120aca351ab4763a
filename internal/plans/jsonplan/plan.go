package jsonplan

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/plans"
	"github.com/strata-dev/strata/internal/states"
)

// PlanFormatVersion is the version of the JSON plan document.
const PlanFormatVersion = "1.2"

type planDoc struct {
	FormatVersion      string                  `json:"format_version"`
	TerraformVersion   string                  `json:"terraform_version,omitempty"`
	Variables          map[string]planVariable `json:"variables,omitempty"`
	PlannedValues      *stateValues            `json:"planned_values,omitempty"`
	ResourceDrift      []*resourceChange       `json:"resource_drift,omitempty"`
	ResourceChanges    []*resourceChange       `json:"resource_changes,omitempty"`
	OutputChanges      map[string]*valueChange `json:"output_changes,omitempty"`
	PriorState         *stateDoc               `json:"prior_state,omitempty"`
	Configuration      *configuration          `json:"configuration,omitempty"`
	RelevantAttributes []relevantAttribute     `json:"relevant_attributes,omitempty"`
	Checks             []check                 `json:"checks,omitempty"`
	Timestamp          string                  `json:"timestamp,omitempty"`
	Applyable          bool                    `json:"applyable"`
	Complete           bool                    `json:"complete"`
	Errored            bool                    `json:"errored"`
}

type planVariable struct {
	Value json.RawMessage `json:"value,omitempty"`
}

// plannedOutput is an output in the planned values: its value and type
// only when wholly known.
type plannedOutput struct {
	Sensitive bool            `json:"sensitive"`
	Type      json.RawMessage `json:"type,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
}

type resourceChange struct {
	Address         string       `json:"address"`
	PreviousAddress string       `json:"previous_address,omitempty"`
	ModuleAddress   string       `json:"module_address,omitempty"`
	Mode            string       `json:"mode"`
	Type            string       `json:"type"`
	Name            string       `json:"name"`
	Index           any          `json:"index,omitempty"`
	ProviderName    string       `json:"provider_name"`
	Deposed         string       `json:"deposed,omitempty"`
	Change          *valueChange `json:"change"`
	ActionReason    string       `json:"action_reason,omitempty"`
}

// valueChange is the "change" of a resource instance and the change of
// an output.
type valueChange struct {
	Actions         []string        `json:"actions"`
	Before          json.RawMessage `json:"before"`
	After           json.RawMessage `json:"after,omitempty"`
	AfterUnknown    json.RawMessage `json:"after_unknown"`
	BeforeSensitive json.RawMessage `json:"before_sensitive"`
	AfterSensitive  json.RawMessage `json:"after_sensitive"`
	ReplacePaths    json.RawMessage `json:"replace_paths,omitempty"`
	Importing       *importing      `json:"importing,omitempty"`
	GeneratedConfig string          `json:"generated_config,omitempty"`
	// BeforeIdentity and AfterIdentity are the resource identities
	// (Terraform 1.12) of types that have one, when known.
	BeforeIdentity json.RawMessage `json:"before_identity,omitempty"`
	AfterIdentity  json.RawMessage `json:"after_identity,omitempty"`
}

// importing says which object an import block adopts: by ID, or by
// resource identity.
type importing struct {
	ID       *string         `json:"id,omitempty"`
	Identity json.RawMessage `json:"identity,omitempty"`
}

// identityJSON renders a resource identity, nil when there is none or
// it is not wholly known (Terraform cannot render those either).
func identityJSON(v cty.Value) (json.RawMessage, error) {
	if v == cty.NilVal || v.IsNull() || !v.IsWhollyKnown() {
		return nil, nil
	}
	v, _ = v.UnmarkDeep()
	return ctyjson.Marshal(v, v.Type())
}

// PlanOptions are what a plan document says beyond the plan itself.
type PlanOptions struct {
	// TerraformVersion is the "terraform_version" of the document and of
	// its prior state.
	TerraformVersion string
	// Timestamp is when the plan was made; the zero time leaves
	// "timestamp" out.
	Timestamp time.Time
	// SchemaVersion gives the current schema version of resource types,
	// for the "schema_version" of resources in "configuration"; without
	// it, or for a type it does not know, the version the plan recorded
	// for the resource is used.
	SchemaVersion SchemaVersionFunc
}

// SchemaVersionFunc returns the version of a resource type's schema; ok
// is false when the provider or the type is unknown.
type SchemaVersionFunc func(provider addrs.Provider, mode addrs.ResourceMode, typeName string) (version uint64, ok bool)

// Plan renders a plan as Terraform's JSON plan document. cfg is the
// configuration the plan was made from (its "configuration"): the root
// of the module tree. It may be nil.
func Plan(p *plans.Plan, cfg *configs.Config, schema SchemaFunc, opts PlanOptions) ([]byte, error) {
	schema = orNoSchemas(schema)
	changes := p.Changes
	if changes == nil {
		changes = &plans.Changes{}
	}
	doc := planDoc{
		FormatVersion:    PlanFormatVersion,
		TerraformVersion: opts.TerraformVersion,
		Applyable:        p.Applyable(),
		Complete:         !p.Errored && len(p.Targets) == 0,
		Errored:          p.Errored,
	}
	if !opts.Timestamp.IsZero() {
		doc.Timestamp = opts.Timestamp.UTC().Format(time.RFC3339)
	}
	var err error
	if len(p.VariableValues) > 0 {
		doc.Variables = map[string]planVariable{}
		for name, v := range p.VariableValues {
			if slices.Contains(p.ApplyTimeVariables, name) {
				continue // ephemeral: never shown or stored
			}
			val, err := marshalValue(v)
			if err != nil {
				return nil, fmt.Errorf("variable %q: %w", name, err)
			}
			doc.Variables[name] = planVariable{Value: val}
		}
	}
	if doc.ResourceChanges, err = marshalResourceChanges(changes.Resources, schema); err != nil {
		return nil, err
	}
	if doc.OutputChanges, err = marshalOutputChanges(changes.Outputs); err != nil {
		return nil, err
	}
	// As Terraform: a refresh-only plan lists all drift, objects only
	// moved included; the others show those among the planned changes.
	drift := p.DriftedResources
	if p.Mode != plans.RefreshOnlyMode {
		drift = nil
		for _, c := range p.DriftedResources {
			if c.Action != plans.NoOp {
				drift = append(drift, c)
			}
		}
	}
	if doc.ResourceDrift, err = marshalResourceChanges(drift, schema); err != nil {
		return nil, err
	}
	if doc.PlannedValues, err = marshalPlannedValues(p, changes, schema); err != nil {
		return nil, err
	}
	if doc.PriorState, err = marshalPriorState(p, changes, schema, opts.TerraformVersion); err != nil {
		return nil, err
	}
	if cfg != nil {
		doc.Configuration = marshalConfiguration(cfg, p, schema, opts.SchemaVersion)
		doc.RelevantAttributes = relevantAttributes(p)
	}
	doc.Checks = marshalChecks(p.Checks)
	return json.Marshal(doc)
}

// marshalPlannedValues renders what the state will be after applying:
// every resource instance the plan keeps, with its planned value, and
// the outputs it sets.
func marshalPlannedValues(p *plans.Plan, changes *plans.Changes, schemaFn SchemaFunc) (*stateValues, error) {
	vals := &stateValues{}
	for _, oc := range changes.Outputs {
		if oc.Action == plans.Delete {
			continue
		}
		po := plannedOutput{Sensitive: oc.Sensitive}
		after, _ := oc.After.UnmarkDeep()
		if after != cty.NilVal && after.IsWhollyKnown() {
			var err error
			if po.Value, err = marshalValue(after); err != nil {
				return nil, fmt.Errorf("output %q: %w", oc.Name, err)
			}
			ty := after.Type()
			if after.IsNull() {
				// Terraform's plan stores output values with their
				// dynamic type, which a null value does not keep.
				ty = cty.DynamicPseudoType
			}
			if po.Type, err = ctyjson.MarshalType(ty); err != nil {
				return nil, err
			}
		}
		if vals.Outputs == nil {
			vals.Outputs = map[string]any{}
		}
		vals.Outputs[oc.Name] = po
	}
	var rs []*resource
	for _, rc := range changes.Resources {
		if rc.Action == plans.Delete || rc.DeposedKey != "" {
			continue
		}
		schema := schemaFn(rc.ProviderAddr, rc.Addr.Resource.Resource.Mode, rc.Addr.Resource.Resource.Type)
		after := markSchemaSensitive(rc.After, schema)
		jr := newResource(rc.Addr, rc.ProviderAddr, uint64(rc.SchemaVersion))
		var err error
		switch {
		case after != cty.NilVal && after.IsKnown() && after.IsNull():
			// A forgotten instance has no planned value: Terraform
			// leaves "values" out rather than writing null.
		default:
			if jr.Values, err = marshalKnownPart(after); err != nil {
				return nil, fmt.Errorf("%s: %w", rc.Addr, err)
			}
			if jr.Values == nil {
				jr.Values = json.RawMessage("{}")
			}
		}
		marked := after
		if rc.Action.IsReplace() {
			// The planned object of a replacement carries only the
			// sensitivity of the configuration, as in Terraform's
			// documents (resource_changes still shows the schema's).
			marked = rc.After
		}
		if jr.SensitiveValues, err = json.Marshal(sensitiveTree(marked)); err != nil {
			return nil, err
		}
		if rc.AfterIdentity != cty.NilVal && !rc.AfterIdentity.IsNull() && rc.AfterIdentity.IsWhollyKnown() {
			version := uint64(rc.IdentityVersion)
			jr.IdentitySchemaVersion = &version
			raw, err := identityJSON(rc.AfterIdentity)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", rc.Addr, err)
			}
			if err := json.Unmarshal(raw, &jr.Identity); err != nil {
				return nil, fmt.Errorf("%s: %w", rc.Addr, err)
			}
		}
		rs = append(rs, jr)
	}
	// Terraform sorts planned values by their address as a string (so
	// that a[10] comes before a[2]), unlike the other lists.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].Address < rs[j].Address })
	vals.RootModule = moduleTree(rs)
	return vals, nil
}

// marshalPriorState renders the state the plan was made from. Like
// Terraform, whose plan records output values in its working state as
// it evaluates them, outputs whose planned values are wholly known show
// those values.
func marshalPriorState(p *plans.Plan, changes *plans.Changes, schema SchemaFunc, tfVersion string) (*stateDoc, error) {
	prior := p.PriorState
	if prior == nil {
		prior = states.New()
	}
	outputs := map[string]*states.OutputValue{}
	for name, o := range prior.Outputs {
		outputs[name] = o
	}
	if p.Mode != plans.DestroyMode {
		for _, oc := range changes.Outputs {
			if oc.Action == plans.Delete || oc.After == cty.NilVal || !oc.After.IsWhollyKnown() {
				continue
			}
			if oc.After.IsNull() {
				// A state holds no null outputs.
				delete(outputs, oc.Name)
				continue
			}
			outputs[oc.Name] = &states.OutputValue{Value: oc.After, Sensitive: oc.Sensitive}
		}
	}
	if len(prior.Resources) == 0 && len(outputs) == 0 {
		return nil, nil
	}
	vals, err := marshalStateValues(prior, outputs, schema)
	if err != nil {
		return nil, fmt.Errorf("prior state: %w", err)
	}
	return &stateDoc{FormatVersion: StateFormatVersion, TerraformVersion: tfVersion, Values: vals}, nil
}

// marshalResourceChanges renders resource instance changes in address
// order, the current object before deposed ones.
func marshalResourceChanges(cs []*plans.ResourceInstanceChange, schemaFn SchemaFunc) ([]*resourceChange, error) {
	cs = append([]*plans.ResourceInstanceChange(nil), cs...)
	sort.SliceStable(cs, func(i, j int) bool {
		if c := compareInstances(cs[i].Addr, cs[j].Addr); c != 0 {
			return c < 0
		}
		return cs[i].DeposedKey < cs[j].DeposedKey
	})
	var ret []*resourceChange
	for _, rc := range cs {
		schema := schemaFn(rc.ProviderAddr, rc.Addr.Resource.Resource.Mode, rc.Addr.Resource.Resource.Type)
		before := markSchemaSensitive(rc.Before, schema)
		after := markSchemaSensitive(rc.After, schema)
		c := &valueChange{Actions: actionNames(rc.Action)}
		var err error
		if c.Before, err = marshalValue(before); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		if c.After, err = marshalKnownPart(after); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		var afterUnknown any = map[string]any{}
		if after != cty.NilVal && !after.IsWhollyKnown() {
			afterUnknown = unknownTree(after)
		}
		if c.AfterUnknown, err = json.Marshal(afterUnknown); err != nil {
			return nil, err
		}
		if c.BeforeSensitive, err = json.Marshal(sensitiveTree(before)); err != nil {
			return nil, err
		}
		if c.AfterSensitive, err = json.Marshal(sensitiveTree(after)); err != nil {
			return nil, err
		}
		if len(rc.RequiredReplace) > 0 {
			paths := make([][]json.RawMessage, 0, len(rc.RequiredReplace))
			for _, p := range rc.RequiredReplace {
				jp, err := marshalPath(p)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", rc.Addr, err)
				}
				paths = append(paths, jp)
			}
			if c.ReplacePaths, err = json.Marshal(paths); err != nil {
				return nil, err
			}
		}
		if rc.Importing != nil {
			c.Importing = &importing{}
			if rc.Importing.Identity != cty.NilVal {
				if c.Importing.Identity, err = identityJSON(rc.Importing.Identity); err != nil {
					return nil, fmt.Errorf("%s: %w", rc.Addr, err)
				}
			} else {
				id := rc.Importing.ID
				c.Importing.ID = &id
			}
			c.GeneratedConfig = rc.Importing.GeneratedConfig
		}
		if c.BeforeIdentity, err = identityJSON(rc.BeforeIdentity); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		if c.AfterIdentity, err = identityJSON(rc.AfterIdentity); err != nil {
			return nil, fmt.Errorf("%s: %w", rc.Addr, err)
		}
		r := rc.Addr.Resource.Resource
		jc := &resourceChange{
			Address:       rc.Addr.String(),
			ModuleAddress: rc.Addr.Module.String(),
			Mode:          r.Mode.StateName(),
			Type:          r.Type,
			Name:          r.Name,
			Index:         instanceKeyJSON(rc.Addr.Resource.Key),
			ProviderName:  rc.ProviderAddr.Provider.String(),
			Deposed:       rc.DeposedKey,
			Change:        c,
			ActionReason:  actionReason(rc),
		}
		if rc.PrevRunAddr != nil {
			jc.PreviousAddress = rc.PrevRunAddr.String()
		}
		ret = append(ret, jc)
	}
	return ret, nil
}

// marshalOutputChanges renders output changes. An output's sensitivity is
// one flag, so before_sensitive and after_sensitive are both that flag.
func marshalOutputChanges(cs []*plans.OutputChange) (map[string]*valueChange, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	ret := map[string]*valueChange{}
	for _, oc := range cs {
		c := &valueChange{Actions: actionNames(oc.Action)}
		var err error
		if c.Before, err = marshalValue(oc.Before); err != nil {
			return nil, fmt.Errorf("output %q: %w", oc.Name, err)
		}
		if c.After, err = marshalKnownPart(oc.After); err != nil {
			return nil, fmt.Errorf("output %q: %w", oc.Name, err)
		}
		var afterUnknown any = false
		if oc.After != cty.NilVal && !oc.After.IsWhollyKnown() {
			afterUnknown = unknownTree(oc.After)
		}
		if c.AfterUnknown, err = json.Marshal(afterUnknown); err != nil {
			return nil, err
		}
		sensitive, _ := json.Marshal(oc.Sensitive)
		c.BeforeSensitive, c.AfterSensitive = sensitive, sensitive
		ret[oc.Name] = c
	}
	return ret, nil
}

// actionNames is the "actions" list of a change.
func actionNames(a plans.Action) []string {
	switch a {
	case plans.NoOp:
		return []string{"no-op"}
	case plans.Create:
		return []string{"create"}
	case plans.Read:
		return []string{"read"}
	case plans.Update:
		return []string{"update"}
	case plans.DeleteThenCreate:
		return []string{"delete", "create"}
	case plans.CreateThenDelete:
		return []string{"create", "delete"}
	case plans.Delete:
		return []string{"delete"}
	case plans.Forget:
		return []string{"forget"}
	}
	return []string{"unknown"}
}

// actionReason is the "action_reason" of a change, "" for none.
func actionReason(rc *plans.ResourceInstanceChange) string {
	if r := rc.Reason.String(); r != "" {
		return r
	}
	if rc.Action == plans.Read {
		// Plans from before reasons were recorded for reads deferred them
		// only for unknown configuration.
		return "read_because_config_unknown"
	}
	return ""
}

// relevantAttribute is the JSON form of a plans.RelevantAttr: "resource"
// is the resource or instance address, "attribute" the path within it
// ([] for the whole object).
type relevantAttribute struct {
	Resource  string            `json:"resource"`
	Attribute []json.RawMessage `json:"attribute"`
}

// relevantAttributes is the plan's relevant attributes, which the engine
// recorded, in the plan document's form.
func relevantAttributes(p *plans.Plan) []relevantAttribute {
	relevant := p.Relevant()
	if len(relevant) == 0 {
		return nil
	}
	ret := make([]relevantAttribute, 0, len(relevant))
	for _, ra := range relevant {
		path, err := marshalPath(ra.Attr)
		if err != nil {
			continue // only attribute names and known keys come from references
		}
		ret = append(ret, relevantAttribute{Resource: ra.Resource, Attribute: path})
	}
	return ret
}

package render

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/plans"
)

// This file turns the JSON form of a Terraform plan (`terraform show -json
// PLANFILE`) into Changes, so that plans recorded from Terraform can be
// rendered and compared with what Terraform printed for them.

type jsonPlan struct {
	ResourceChanges []jsonResourceChange  `json:"resource_changes"`
	OutputChanges   map[string]jsonChange `json:"output_changes"`
}

type jsonResourceChange struct {
	Address         string     `json:"address"`
	PreviousAddress string     `json:"previous_address"`
	Mode            string     `json:"mode"`
	Type            string     `json:"type"`
	Deposed         string     `json:"deposed"`
	Change          jsonChange `json:"change"`
	ActionReason    string     `json:"action_reason"`
}

type jsonChange struct {
	Actions         []string        `json:"actions"`
	Before          json.RawMessage `json:"before"`
	After           json.RawMessage `json:"after"`
	AfterUnknown    json.RawMessage `json:"after_unknown"`
	BeforeSensitive json.RawMessage `json:"before_sensitive"`
	AfterSensitive  json.RawMessage `json:"after_sensitive"`
	ReplacePaths    [][]any         `json:"replace_paths"`
}

func jsonAction(actions []string) plans.Action {
	switch strings.Join(actions, ",") {
	case "create":
		return plans.Create
	case "delete":
		return plans.Delete
	case "update":
		return plans.Update
	case "read":
		return plans.Read
	case "delete,create":
		return plans.DeleteThenCreate
	case "create,delete":
		return plans.CreateThenDelete
	}
	return plans.NoOp
}

var jsonReasons = map[string]plans.ActionReason{
	"replace_because_cannot_update":     plans.ReasonReplaceBecauseCannotUpdate,
	"replace_because_tainted":           plans.ReasonReplaceBecauseTainted,
	"replace_by_request":                plans.ReasonReplaceByRequest,
	"delete_because_no_resource_config": plans.ReasonDeleteBecauseNoResourceConfig,
	"delete_because_wrong_repetition":   plans.ReasonDeleteBecauseWrongRepetition,
	"delete_because_count_index":        plans.ReasonDeleteBecauseCountIndex,
	"delete_because_each_key":           plans.ReasonDeleteBecauseEachKey,
}

func decodeRaw(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatal(err)
	}
	return x
}

// ctyFromJSON builds a value of type ty from decoded JSON; values of
// dynamic type take the type the JSON implies.
func ctyFromJSON(t *testing.T, x any, ty cty.Type) cty.Value {
	t.Helper()
	if x == nil {
		return cty.NullVal(ty)
	}
	if ty == cty.DynamicPseudoType {
		buf, _ := json.Marshal(x)
		ity, err := ctyjson.ImpliedType(buf)
		if err != nil {
			t.Fatal(err)
		}
		ty = ity
	}
	switch {
	case ty == cty.String:
		return cty.StringVal(x.(string))
	case ty == cty.Number:
		return cty.MustParseNumberVal(x.(json.Number).String())
	case ty == cty.Bool:
		return cty.BoolVal(x.(bool))
	case ty.IsListType(), ty.IsSetType():
		var vs []cty.Value
		for _, e := range x.([]any) {
			vs = append(vs, ctyFromJSON(t, e, ty.ElementType()))
		}
		if len(vs) == 0 {
			if ty.IsListType() {
				return cty.ListValEmpty(ty.ElementType())
			}
			return cty.SetValEmpty(ty.ElementType())
		}
		if ty.IsListType() {
			return cty.ListVal(vs)
		}
		return cty.SetVal(vs)
	case ty.IsTupleType():
		var vs []cty.Value
		for i, e := range x.([]any) {
			vs = append(vs, ctyFromJSON(t, e, ty.TupleElementType(i)))
		}
		return cty.TupleVal(vs)
	case ty.IsMapType():
		vs := map[string]cty.Value{}
		for k, e := range x.(map[string]any) {
			vs[k] = ctyFromJSON(t, e, ty.ElementType())
		}
		if len(vs) == 0 {
			return cty.MapValEmpty(ty.ElementType())
		}
		return cty.MapVal(vs)
	case ty.IsObjectType():
		m := x.(map[string]any)
		vs := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			vs[name] = ctyFromJSON(t, m[name], aty)
		}
		return cty.ObjectVal(vs)
	}
	t.Fatalf("unsupported type %s", ty.FriendlyName())
	return cty.NilVal
}

// applyFlags applies f wherever flags (an after_unknown or *_sensitive
// structure) holds true.
func applyFlags(v cty.Value, flags any, f func(cty.Value) cty.Value) cty.Value {
	switch fl := flags.(type) {
	case bool:
		if fl {
			return f(v)
		}
		return v
	case map[string]any:
		if v.IsNull() || !v.IsKnown() {
			return v
		}
		ty := v.Type()
		if !ty.IsObjectType() && !ty.IsMapType() {
			return v
		}
		vs := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			vs[k.AsString()] = applyFlags(e, fl[k.AsString()], f)
		}
		switch {
		case ty.IsObjectType():
			return cty.ObjectVal(vs)
		case len(vs) == 0:
			return v
		}
		return cty.MapVal(vs)
	case []any:
		if v.IsNull() || !v.IsKnown() {
			return v
		}
		ty := v.Type()
		var vs []cty.Value
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			var ef any
			if i < len(fl) {
				ef = fl[i]
			}
			vs = append(vs, applyFlags(e, ef, f))
		}
		switch {
		case len(vs) == 0:
			return v
		case ty.IsListType():
			return cty.ListVal(vs)
		case ty.IsSetType():
			return cty.SetVal(vs)
		case ty.IsTupleType():
			return cty.TupleVal(vs)
		}
	}
	return v
}

// fillUnknowns puts unknown values where after_unknown says so. JSON holds
// null there; for dynamic values the unknown's type is not recorded.
func fillUnknowns(t *testing.T, raw any, flags any, ty cty.Type) cty.Value {
	t.Helper()
	if flags == true {
		return cty.UnknownVal(ty)
	}
	m, ok := flags.(map[string]any)
	if ok && ty.IsMapType() && raw != nil {
		vs := map[string]cty.Value{}
		rm := raw.(map[string]any)
		for k, r := range rm {
			vs[k] = fillUnknowns(t, r, m[k], ty.ElementType())
		}
		for k, f := range m {
			if _, ok := rm[k]; !ok && f == true {
				vs[k] = cty.UnknownVal(ty.ElementType())
			}
		}
		if len(vs) == 0 {
			return cty.MapValEmpty(ty.ElementType())
		}
		return cty.MapVal(vs)
	}
	if !ok || !ty.IsObjectType() {
		if l, ok := flags.([]any); ok && raw != nil {
			return fillSeq(t, raw, l, ty)
		}
		return ctyFromJSON(t, raw, ty)
	}
	rm, _ := raw.(map[string]any)
	vs := map[string]cty.Value{}
	for name, aty := range ty.AttributeTypes() {
		var r any
		if rm != nil {
			r = rm[name]
		}
		vs[name] = fillUnknowns(t, r, m[name], aty)
	}
	if raw == nil {
		return cty.NullVal(ty)
	}
	return cty.ObjectVal(vs)
}

func fillSeq(t *testing.T, raw any, flags []any, ty cty.Type) cty.Value {
	items := raw.([]any)
	var vs []cty.Value
	for i, e := range items {
		var fl any
		if i < len(flags) {
			fl = flags[i]
		}
		switch {
		case ty.IsListType() || ty.IsSetType():
			vs = append(vs, fillUnknowns(t, e, fl, ty.ElementType()))
		case ty.IsTupleType():
			vs = append(vs, fillUnknowns(t, e, fl, ty.TupleElementType(i)))
		default:
			vs = append(vs, fillUnknowns(t, e, fl, cty.DynamicPseudoType))
		}
	}
	switch {
	case ty.IsListType():
		if len(vs) == 0 {
			return cty.ListValEmpty(ty.ElementType())
		}
		return cty.ListVal(vs)
	case ty.IsSetType():
		if len(vs) == 0 {
			return cty.SetValEmpty(ty.ElementType())
		}
		return cty.SetVal(vs)
	}
	return cty.TupleVal(vs)
}

func markSensitive(v cty.Value) cty.Value { return v.Mark(sensitiveMark) }

// changeValues decodes the before and after values of a JSON change.
func changeValues(t *testing.T, c jsonChange, ty cty.Type) (before, after cty.Value) {
	t.Helper()
	before = ctyFromJSON(t, decodeRaw(t, c.Before), ty)
	before = applyFlags(before, decodeRaw(t, c.BeforeSensitive), markSensitive)
	after = fillUnknowns(t, decodeRaw(t, c.After), decodeRaw(t, c.AfterUnknown), ty)
	after = applyFlags(after, decodeRaw(t, c.AfterSensitive), markSensitive)
	return before, after
}

func jsonPath(steps []any) cty.Path {
	var p cty.Path
	for _, s := range steps {
		switch s := s.(type) {
		case string:
			p = p.GetAttr(s)
		case float64:
			p = p.Index(cty.NumberIntVal(int64(s)))
		}
	}
	return p
}

// terraformDataSchema is the schema of the built-in terraform_data
// resource type.
func terraformDataSchema() *configschema.Block {
	return &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"id":               {Type: cty.String, Computed: true},
		"input":            {Type: cty.DynamicPseudoType, Optional: true},
		"output":           {Type: cty.DynamicPseudoType, Computed: true},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true},
	}}
}

// providerSchemas loads resource and data source schemas from the output
// of `terraform providers schema -json`.
func providerSchemas(t *testing.T, file string) (resources, data map[string]*configschema.Block) {
	t.Helper()
	buf, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas   map[string]struct{ Block jsonBlock } `json:"resource_schemas"`
			DataSourceSchemas map[string]struct{ Block jsonBlock } `json:"data_source_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(buf, &doc); err != nil {
		t.Fatal(err)
	}
	resources, data = map[string]*configschema.Block{}, map[string]*configschema.Block{}
	for _, p := range doc.ProviderSchemas {
		for name, s := range p.ResourceSchemas {
			resources[name] = s.Block.schema(t)
		}
		for name, s := range p.DataSourceSchemas {
			data[name] = s.Block.schema(t)
		}
	}
	return resources, data
}

type jsonBlock struct {
	Attributes map[string]jsonAttribute `json:"attributes"`
	BlockTypes map[string]struct {
		NestingMode string    `json:"nesting_mode"`
		Block       jsonBlock `json:"block"`
	} `json:"block_types"`
}

type jsonAttribute struct {
	Type       json.RawMessage `json:"type"`
	NestedType *struct {
		Attributes  map[string]jsonAttribute `json:"attributes"`
		NestingMode string                   `json:"nesting_mode"`
	} `json:"nested_type"`
	Optional, Required, Computed, Sensitive bool
}

var jsonNesting = map[string]configschema.NestingMode{
	"single": configschema.NestingSingle, "group": configschema.NestingGroup,
	"list": configschema.NestingList, "set": configschema.NestingSet, "map": configschema.NestingMap,
}

func (b jsonBlock) schema(t *testing.T) *configschema.Block {
	s := &configschema.Block{Attributes: map[string]*configschema.Attribute{}, BlockTypes: map[string]*configschema.NestedBlock{}}
	for name, a := range b.Attributes {
		s.Attributes[name] = a.schema(t)
	}
	for name, nb := range b.BlockTypes {
		s.BlockTypes[name] = &configschema.NestedBlock{Block: *nb.Block.schema(t), Nesting: jsonNesting[nb.NestingMode]}
	}
	return s
}

func (a jsonAttribute) schema(t *testing.T) *configschema.Attribute {
	out := &configschema.Attribute{Optional: a.Optional, Required: a.Required, Computed: a.Computed, Sensitive: a.Sensitive}
	if a.NestedType != nil {
		o := &configschema.Object{Attributes: map[string]*configschema.Attribute{}, Nesting: jsonNesting[a.NestedType.NestingMode]}
		for name, na := range a.NestedType.Attributes {
			o.Attributes[name] = na.schema(t)
		}
		out.NestedType = o
		return out
	}
	ty, err := ctyjson.UnmarshalType(a.Type)
	if err != nil {
		t.Fatal(err)
	}
	out.Type = ty
	return out
}

// renderJSONPlan renders every change of a recorded plan, in the order
// recorded, the way the plan command lays them out: resource blocks separated by blank lines, then
// the "Changes to Outputs:" section.
func renderJSONPlan(t *testing.T, file string) string {
	t.Helper()
	buf, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var p jsonPlan
	if err := json.Unmarshal(buf, &p); err != nil {
		t.Fatal(err)
	}
	resources, data := providerSchemas(t, "testdata/tp_schema.json")
	resources["terraform_data"] = terraformDataSchema()

	var blocks []string
	for _, rc := range p.ResourceChanges {
		schema := resources[rc.Type]
		if rc.Mode == "data" {
			schema = data[rc.Type]
		}
		if schema == nil {
			t.Fatalf("no schema for %s", rc.Type)
		}
		c := Change{
			Addr:     rc.Address,
			PrevAddr: rc.PreviousAddress,
			Action:   jsonAction(rc.Change.Actions),
			Reason:   jsonReasons[rc.ActionReason],
			Schema:   schema,
			Deposed:  rc.Deposed,
		}
		c.Before, c.After = changeValues(t, rc.Change, schema.ImpliedType())
		for _, rp := range rc.Change.ReplacePaths {
			c.RequiresReplace = append(c.RequiresReplace, jsonPath(rp))
		}
		if s := ResourceChange(c); s != "" {
			blocks = append(blocks, Colorize(s, true))
		}
	}
	out := strings.Join(blocks, "\n")

	var outs []Output
	for name, oc := range p.OutputChanges {
		before, after := changeValues(t, oc, cty.DynamicPseudoType)
		sens := false
		if s, ok := decodeRaw(t, oc.AfterSensitive).(bool); ok && s {
			sens = true
		}
		if s, ok := decodeRaw(t, oc.BeforeSensitive).(bool); ok && s {
			sens = true
		}
		outs = append(outs, Output{Name: name, Action: jsonAction(oc.Actions), Before: before, After: after, Sensitive: sens})
	}
	if s := OutputChanges(outs); s != "" {
		out += "Changes to Outputs:\n" + Colorize(s, true)
	}
	return out
}

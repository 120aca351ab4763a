package engine

import (
	"fmt"
	"sort"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// expansion is the set of instances a resource's count or for_each
// produces.
type expansion struct {
	// mode is 0 for a single instance, 'C' for count, 'E' for for_each,
	// 'B' for OpenTofu's lifecycle enabled (one instance without a key,
	// or none).
	mode rune
	keys []addrs.InstanceKey
	// each holds each.value per for_each key.
	each map[addrs.InstanceKey]cty.Value
	// unknown, when set, is the key data of every instance: validate
	// expands each module call to one instance whose key is not known.
	unknown *lang.InstanceKeyData
}

// emptyExpansion is an expansion with no instances yet, in the mode the
// resource's configuration declares: the start of one built from instance
// keys already known, such as those in state or in a plan. cfg may be nil,
// for a resource no longer in the configuration.
func emptyExpansion(cfg *configs.Resource) *expansion {
	x := &expansion{}
	switch {
	case cfg == nil:
	case cfg.Count != nil:
		x.mode = 'C'
	case cfg.ForEach != nil:
		x.mode = 'E'
	case cfg.Enabled != nil:
		x.mode = 'B'
	}
	return x
}

// keyData returns the count/each values for one instance.
func (x *expansion) keyData(k addrs.InstanceKey) lang.InstanceKeyData {
	if x.unknown != nil {
		return *x.unknown
	}
	switch x.mode {
	case 'C':
		return lang.InstanceKeyData{CountIndex: k.Value()}
	case 'E':
		return lang.InstanceKeyData{EachKey: k.Value(), EachValue: x.each[k]}
	}
	return lang.InstanceKeyData{}
}

// has reports whether key is one of the expansion's instances.
func (x *expansion) has(k addrs.InstanceKey) bool {
	for _, have := range x.keys {
		if have == k {
			return true
		}
	}
	return false
}

// expandResource evaluates a resource's count or for_each in one module
// instance.
func (w *walker) expandResource(r *configs.Resource, mi addrs.ModuleInstance) (*expansion, hcl.Diagnostics) {
	if r.Enabled != nil {
		return expandEnabled(r.Enabled, w.ev.scope(mi))
	}
	return expandCount(r.Count, r.ForEach, w.ev.scope(mi))
}

// expandEnabled evaluates OpenTofu's lifecycle enabled argument: one
// instance without a key when true, none when false. As in OpenTofu, the
// value must be a known, non-null, non-sensitive, non-ephemeral bool.
func expandEnabled(enabled hcl.Expression, scope *lang.Scope) (*expansion, hcl.Diagnostics) {
	v, diags := scope.EvalExpr(enabled, cty.Bool)
	if diags.HasErrors() {
		return nil, diags
	}
	switch {
	case marks.ContainsEphemeral(v):
		return nil, invalidExpansion(enabled, "enabled", `The given "enabled" value is derived from an ephemeral value, which means that strata cannot persist it between plan/apply rounds. Use only non-ephemeral values here.`)
	case v.HasMark(marks.Sensitive):
		return nil, invalidExpansion(enabled, "enabled", "Sensitive values, or values derived from sensitive values, cannot be used as enabled arguments.")
	}
	v, _ = v.Unmark()
	switch {
	case !v.IsKnown():
		return nil, invalidExpansion(enabled, "enabled", `The "enabled" value depends on resource attributes that cannot be determined until apply, so strata cannot predict whether the instance will be created. To work around this, first apply a configuration without it, so that the values it depends on are known.`)
	case v.IsNull():
		return nil, invalidExpansion(enabled, "enabled", `The given "enabled" argument value is null. A boolean is required.`)
	}
	x := &expansion{mode: 'B'}
	if v.True() {
		x.keys = []addrs.InstanceKey{addrs.NoKey}
	}
	return x, diags
}

// expandCount evaluates the count or for_each argument of a resource or
// module block (at most one is set) into its instance keys.
func expandCount(count, forEach hcl.Expression, scope *lang.Scope) (*expansion, hcl.Diagnostics) {
	switch {
	case count != nil:
		v, diags := scope.EvalExpr(count, cty.Number)
		if diags.HasErrors() {
			return nil, diags
		}
		if v.HasMark(marks.Ephemeral) {
			return nil, invalidExpansion(count, "count", `The given "count" is derived from an ephemeral value, which means that strata cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify the number of resource instances.`)
		}
		// A sensitive count is accepted, as Terraform does: count.index
		// and the number of instances are not sensitive.
		v, _ = v.Unmark()
		if !v.IsKnown() {
			return nil, invalidExpansion(count, "count", `The "count" value depends on resource attributes that cannot be determined until apply, so strata cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on.`)
		}
		if v.IsNull() {
			return nil, invalidExpansion(count, "count", `The given "count" argument value is null. An integer is required.`)
		}
		n, acc := v.AsBigFloat().Int64()
		if acc != 0 || n < 0 {
			return nil, invalidExpansion(count, "count", `The given "count" argument value is unsuitable: must be a whole number, zero or greater.`)
		}
		x := &expansion{mode: 'C'}
		for i := 0; i < int(n); i++ {
			x.keys = append(x.keys, addrs.IntKey(i))
		}
		return x, diags
	case forEach != nil:
		v, diags := scope.EvalExpr(forEach, cty.DynamicPseudoType)
		if diags.HasErrors() {
			return nil, diags
		}
		if marks.ContainsEphemeral(v) {
			return nil, markedExpansion(scope, forEach, `The given "for_each" value is derived from an ephemeral value, which means that strata cannot persist it between plan/apply rounds. Use only non-ephemeral values to specify a resource's instance keys.`)
		}
		if v.HasMark(marks.Sensitive) {
			return nil, markedExpansion(scope, forEach, "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
		}
		// The keys must be known; a map's values may be known only later.
		if !v.IsKnown() || (v.Type().IsSetType() && !v.IsWhollyKnown()) {
			return nil, unknownForEach(scope, forEach, v.Type().IsSetType())
		}
		if v.IsNull() {
			return nil, invalidExpansion(forEach, "for_each", `The given "for_each" argument value is null. A map, or set of strings, is allowed.`)
		}
		ty := v.Type()
		x := &expansion{mode: 'E', each: map[addrs.InstanceKey]cty.Value{}}
		switch {
		case ty.IsMapType() || ty.IsObjectType():
			for it := v.ElementIterator(); it.Next(); {
				k, ev := it.Element()
				key := addrs.StringKey(k.AsString())
				x.keys = append(x.keys, key)
				x.each[key] = ev
			}
		case ty.IsSetType() && ty.ElementType() == cty.String:
			for it := v.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				ev, _ = ev.Unmark()
				if ev.IsNull() {
					return nil, invalidExpansion(forEach, "for_each", `"for_each" sets must not contain null values.`)
				}
				key := addrs.StringKey(ev.AsString())
				x.keys = append(x.keys, key)
				x.each[key] = ev
			}
		case ty.IsSetType() && v.LengthInt() == 0:
			// As in Terraform, an empty set is no instances whatever
			// its element type: toset([]) has elements of dynamic type.
		case ty.IsSetType():
			return nil, invalidExpansion(forEach, "for_each", fmt.Sprintf(`The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type %s.`, ty.ElementType().FriendlyName()))
		default:
			return nil, invalidExpansion(forEach, "for_each", fmt.Sprintf(`The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type %s.`, ty.FriendlyName()))
		}
		sort.Slice(x.keys, func(i, j int) bool { return addrs.CompareKeys(x.keys[i], x.keys[j]) < 0 })
		return x, diags
	}
	return &expansion{keys: []addrs.InstanceKey{addrs.NoKey}}, nil
}

func invalidExpansion(expr hcl.Expression, arg, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Invalid %s argument", arg),
		Detail:   detail,
		Subject:  expr.Range().Ptr(),
	}}
}

// markedExpansion is the error for a for_each argument refused because
// it is sensitive or ephemeral: the snippet says which values are.
// unknownForEach refuses a for_each whose keys are not known yet, in
// Terraform's words (one text for a set, one for a map or a value of
// unknown type), with the unknown values named under the snippet.
func unknownForEach(scope *lang.Scope, expr hcl.Expression, set bool) hcl.Diagnostics {
	detail := `The "for_each" map includes keys derived from resource attributes that cannot be determined until apply, and so strata cannot determine the full set of keys that will identify the instances of this resource.

When working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.`
	if set {
		detail = `The "for_each" set includes values derived from resource attributes that cannot be determined until apply, and so strata cannot determine the full set of keys that will identify the instances of this resource.

When working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.`
	}
	detail += "\n\nAlternatively, you could use the -target planning option to first apply only the resources that the for_each value depends on, and then apply a second time to fully converge."
	diags := invalidExpansion(expr, "for_each", detail)
	refs, _ := lang.ReferencesInExpr(expr)
	diags[0].EvalContext, _ = scope.EvalContext(refs)
	diags[0].Expression, diags[0].Extra = expr, causedByUnknown{}
	return diags
}

func markedExpansion(scope *lang.Scope, expr hcl.Expression, detail string) hcl.Diagnostics {
	diags := invalidExpansion(expr, "for_each", detail)
	refs, _ := lang.ReferencesInExpr(expr)
	diags[0].EvalContext, _ = scope.EvalContext(refs)
	diags[0].Expression, diags[0].Extra = expr, causedBySensitive{}
	return diags
}

// causedBySensitive marks a diagnostic caused by a sensitive or ephemeral
// value: only then are such values named under its snippet ("has a
// sensitive value"), as Terraform does; otherwise they are left out.
type causedBySensitive struct{}

// DiagnosticCausedBySensitive reports true.
func (causedBySensitive) DiagnosticCausedBySensitive() bool { return true }

// resourceValue builds the value references to a whole resource see:
// an object for a single instance, a tuple for count, an object keyed by
// for_each key.
func resourceValue(x *expansion, values map[addrs.InstanceKey]cty.Value) cty.Value {
	switch x.mode {
	case 'C':
		elems := make([]cty.Value, len(x.keys))
		for i, k := range x.keys {
			elems[i] = orDynamic(values[k])
		}
		return cty.TupleVal(elems)
	case 'E':
		attrs := make(map[string]cty.Value, len(x.keys))
		for _, k := range x.keys {
			attrs[string(k.(addrs.StringKey))] = orDynamic(values[k])
		}
		return cty.ObjectVal(attrs)
	case 'B':
		if len(x.keys) == 0 {
			// Disabled: null, as in OpenTofu.
			return cty.NullVal(cty.DynamicPseudoType)
		}
	}
	return orDynamic(values[addrs.NoKey])
}

func orDynamic(v cty.Value) cty.Value {
	if v == cty.NilVal {
		return cty.DynamicVal
	}
	return v
}

// eachModuleInstance runs fn for every module instance at once and
// gathers the diagnostics in the instances' order. A resource's instances
// in different module instances are independent, like its count or
// for_each instances; provider calls stay bounded by the parallelism.
func eachModuleInstance(instances []addrs.ModuleInstance, fn func(addrs.ModuleInstance) hcl.Diagnostics) hcl.Diagnostics {
	if len(instances) == 1 {
		return fn(instances[0])
	}
	results := make([]hcl.Diagnostics, len(instances))
	var wg sync.WaitGroup
	for i, mi := range instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = fn(mi)
		}()
	}
	wg.Wait()
	var diags hcl.Diagnostics
	for _, d := range results {
		diags = append(diags, d...)
	}
	return diags
}

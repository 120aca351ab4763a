package objchange

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// ProposedNew merges config and prior: config value where non-null; for
// attributes that are optional+computed (or computed only) and null in
// config, take the prior value; recursively through nested blocks and nested
// attribute objects by nesting mode (single, group, list, set, map).
//
// prior may be null (create) or unknown: wherever there is no corresponding
// prior object, computed attributes that are null in config stay null, as in
// Terraform (providers mark them unknown when they will choose a value);
// where the prior object is unknown they become unknown. The same holds
// inside an unknown prior collection of nested objects, whatever its nesting
// mode: every config element's prior counterpart is then unknown.
// Where a prior object exists, a computed attribute that is null in config
// takes the prior value, even if that value is itself null.
//
// Nested blocks and nested attribute objects are correlated with the prior
// state by nesting mode: single and group nesting pair the objects directly,
// list nesting pairs elements by index, map nesting by key, and set nesting
// pairs each config element with a prior element whose non-computed
// attributes hold the same values (optional+computed attributes that are null
// in config are ignored when comparing). Config elements without a
// corresponding prior element are treated as new objects.
//
// An optional+computed nested attribute (NestedType) that is null in config
// is proposed as null, rather than taking the prior value, if the prior value
// holds a non-null value for any non-computed attribute inside it: only the
// configuration could have set that, so the user has since removed it.
//
// Unknown config values propagate unchanged. config must conform to the
// schema's implied type; prior must too unless it is null or unknown. A null
// or unknown config is returned as is. Values are expected to be unmarked.
func ProposedNew(schema *configschema.Block, prior, config cty.Value) cty.Value {
	if config == cty.NilVal || config.IsNull() || !config.IsKnown() {
		return config
	}
	if schema == nil {
		schema = &configschema.Block{}
	}
	// Marks are not expected, but tolerate them: work on unmarked values and
	// reapply the marks from both inputs wherever their paths still exist.
	// Both walk and rebuild the whole value even when it carries no
	// marks, as the values of a plan almost never do: check first.
	var configMarks, priorMarks []cty.PathValueMarks
	if marks.Any(config) {
		config, configMarks = config.UnmarkDeepWithPaths()
	}
	if prior != cty.NilVal && marks.Any(prior) {
		prior, priorMarks = prior.UnmarkDeepWithPaths()
	}
	ret := proposedNewObject(schema.Attributes, schema.BlockTypes, prior, config)
	if len(priorMarks) == 0 && len(configMarks) == 0 {
		return ret
	}
	return ret.MarkWithPaths(append(priorMarks, configMarks...))
}

// proposedNewObject merges one object of a block (attrs and blocks) or of a
// nested attribute type (attrs only). prior is the corresponding prior object,
// or cty.NilVal, null or unknown when there is none.
func proposedNewObject(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() || !config.Type().IsObjectType() {
		return config
	}
	ty := config.Type()
	vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name := range ty.AttributeTypes() {
		vals[name] = config.GetAttr(name)
	}
	for name, attr := range attrs {
		if !ty.HasAttribute(name) {
			continue
		}
		vals[name] = proposedNewAttribute(attr, priorAttr(prior, name), vals[name])
	}
	for name, nb := range blocks {
		if !ty.HasAttribute(name) {
			continue
		}
		vals[name] = proposedNewNestedBlock(nb, priorAttr(prior, name), vals[name])
	}
	return cty.ObjectVal(vals)
}

// priorAttr returns the named attribute of the prior object, cty.NilVal if
// the prior object is absent (null) or lacks the attribute, and an unknown
// value if the prior object is unknown (of any type, including
// cty.DynamicPseudoType).
func priorAttr(prior cty.Value, name string) cty.Value {
	if prior == cty.NilVal || prior.IsNull() {
		return cty.NilVal
	}
	hasAttr := prior.Type().IsObjectType() && prior.Type().HasAttribute(name)
	if !prior.IsKnown() {
		if hasAttr {
			return prior.GetAttr(name)
		}
		return cty.DynamicVal
	}
	if !hasAttr {
		return cty.NilVal
	}
	return prior.GetAttr(name)
}

// isUnknownPrior reports whether prior is a prior value that exists but is
// unknown, as opposed to cty.NilVal or null (no prior value at all).
func isUnknownPrior(prior cty.Value) bool {
	return prior != cty.NilVal && !prior.IsKnown()
}

func proposedNewAttribute(attr *configschema.Attribute, priorV, configV cty.Value) cty.Value {
	switch {
	case attr.Computed && configV.IsNull():
		if priorV == cty.NilVal {
			// No prior object (create, or a new nested object): null, as
			// Terraform sends it; the provider marks it unknown if it will
			// choose a value.
			return configV
		}
		if !priorV.IsKnown() {
			return cty.UnknownVal(configV.Type())
		}
		if attr.NestedType != nil && (attr.Optional || attr.Required) && priorHasConfigOnlyValue(attr.NestedType, priorV) {
			// The prior value must have come from configuration that has
			// since been removed.
			return configV
		}
		return priorV
	case configV.IsNull() || !configV.IsKnown():
		return configV
	case attr.NestedType != nil:
		return proposedNewNestedType(attr.NestedType, priorV, configV)
	default:
		return configV
	}
}

// proposedNewNestedType merges a known, non-null nested attribute value.
func proposedNewNestedType(obj *configschema.Object, prior, config cty.Value) cty.Value {
	merge := func(p, c cty.Value) cty.Value {
		return proposedNewObject(obj.Attributes, nil, p, c)
	}
	switch obj.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return merge(prior, config)
	case configschema.NestingList, configschema.NestingMap:
		return proposedNewByKey(prior, config, merge)
	case configschema.NestingSet:
		return proposedNewSet(prior, config, merge, func(c, p cty.Value, strict bool) bool {
			return objectsCorrespond(obj.Attributes, nil, c, p, strict)
		})
	default:
		return config
	}
}

func proposedNewNestedBlock(nb *configschema.NestedBlock, prior, config cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() {
		return config
	}
	merge := func(p, c cty.Value) cty.Value {
		return proposedNewObject(nb.Attributes, nb.BlockTypes, p, c)
	}
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return merge(prior, config)
	case configschema.NestingList, configschema.NestingMap:
		return proposedNewByKey(prior, config, merge)
	case configschema.NestingSet:
		return proposedNewSet(prior, config, merge, func(c, p cty.Value, strict bool) bool {
			return objectsCorrespond(nb.Attributes, nb.BlockTypes, c, p, strict)
		})
	default:
		return config
	}
}

// proposedNewByKey merges each element of a known list, tuple, map or object
// config collection with the prior element at the same index or key. If the
// prior collection is unknown, every element's prior counterpart is unknown.
func proposedNewByKey(prior, config cty.Value, merge func(p, c cty.Value) cty.Value) cty.Value {
	if ty := config.Type(); !sequenceLike(ty) && !mappingLike(ty) {
		return config
	}
	keys, cvals := elements(config)
	if len(cvals) == 0 {
		return config
	}
	out := make([]cty.Value, len(cvals))
	for i, c := range cvals {
		p := elementByKey(prior, keys[i])
		if isUnknownPrior(prior) {
			p = cty.DynamicVal
		}
		out[i] = merge(p, c)
	}
	return rebuild(config, keys, out)
}

// proposedNewSet merges each element of a known config set with the prior
// element it corresponds to, if any. Elements are paired first by strict
// correspondence (every non-computed-only attribute equal) and then, among
// those left over, by loose correspondence (optional+computed attributes
// that are null in config ignored). Unpaired elements are new objects, whose
// computed attributes stay null. If the prior set is unknown, no pairing is
// possible but every element's prior counterpart is unknown, so its computed
// attributes become unknown.
func proposedNewSet(prior, config cty.Value, merge func(p, c cty.Value) cty.Value, correspond func(c, p cty.Value, strict bool) bool) cty.Value {
	if !config.Type().IsSetType() {
		return config
	}
	_, cvals := elements(config)
	if len(cvals) == 0 {
		return config
	}
	_, pvals := elements(prior)
	if !isPresent(prior) || !prior.Type().IsSetType() {
		pvals = nil
	}
	pair := make([]int, len(cvals))
	for i := range pair {
		pair[i] = -1
	}
	used := make([]bool, len(pvals))
	for _, strict := range []bool{true, false} {
		var ci, pj []int
		for i := range cvals {
			if pair[i] < 0 {
				ci = append(ci, i)
			}
		}
		for j := range pvals {
			if !used[j] {
				pj = append(pj, j)
			}
		}
		m := maxMatching(len(ci), len(pj), func(a, b int) bool {
			return correspond(cvals[ci[a]], pvals[pj[b]], strict)
		})
		for a, b := range m {
			if b >= 0 {
				pair[ci[a]] = pj[b]
				used[pj[b]] = true
			}
		}
	}
	out := make([]cty.Value, len(cvals))
	for i, c := range cvals {
		p := cty.NilVal
		switch {
		case pair[i] >= 0:
			p = pvals[pair[i]]
		case isUnknownPrior(prior):
			p = cty.DynamicVal
		}
		out[i] = merge(p, c)
	}
	ret := rebuild(config, nil, out)
	if ret.LengthInt() != len(cvals) {
		// Two elements merged into the same value and the set collapsed.
		// Fall back to treating every element as new. Merging with no prior
		// object leaves a config element unchanged (computed attributes
		// that are null in config stay null), so this can never collapse
		// because the config elements were distinct.
		for i, c := range cvals {
			out[i] = merge(cty.NilVal, c)
		}
		ret = rebuild(config, nil, out)
	}
	return ret
}

// rebuild constructs a value of the same kind as the collection or structure
// orig from new element values. keys are needed only for maps and objects.
// If the new elements of a collection do not share a type they are unified;
// if that is impossible orig is returned unchanged.
func rebuild(orig cty.Value, keys, vals []cty.Value) cty.Value {
	ty := orig.Type()
	switch {
	case ty.IsTupleType():
		return cty.TupleVal(vals)
	case ty.IsObjectType():
		m := make(map[string]cty.Value, len(vals))
		for i, k := range keys {
			m[k.AsString()] = vals[i]
		}
		return cty.ObjectVal(m)
	}
	vals, ok := unifyElements(vals)
	if !ok {
		return orig
	}
	switch {
	case ty.IsListType():
		return cty.ListVal(vals)
	case ty.IsSetType():
		return cty.SetVal(vals)
	case ty.IsMapType():
		m := make(map[string]cty.Value, len(vals))
		for i, k := range keys {
			m[k.AsString()] = vals[i]
		}
		return cty.MapVal(m)
	default:
		return orig
	}
}

// unifyElements converts collection elements to a single common type, which
// is needed when a dynamically-typed attribute took a prior value in one
// element and stayed null (or became unknown) in another.
func unifyElements(vals []cty.Value) ([]cty.Value, bool) {
	tys := make([]cty.Type, len(vals))
	same := true
	for i, v := range vals {
		tys[i] = v.Type()
		if !tys[i].Equals(tys[0]) {
			same = false
		}
	}
	if same {
		return vals, true
	}
	uty, convs := convert.UnifyUnsafe(tys)
	if uty == cty.NilType {
		return nil, false
	}
	out := make([]cty.Value, len(vals))
	for i, v := range vals {
		out[i] = v
		if convs[i] != nil {
			cv, err := convs[i](v)
			if err != nil {
				return nil, false
			}
			out[i] = cv
		}
		if !out[i].Type().Equals(uty) {
			return nil, false
		}
	}
	return out, true
}

// priorHasConfigOnlyValue reports whether a prior nested attribute value
// holds a non-null value for any attribute that is not computed, and which
// therefore can only have come from configuration.
func priorHasConfigOnlyValue(obj *configschema.Object, v cty.Value) bool {
	if !isPresent(v) {
		return false
	}
	objs := []cty.Value{v}
	if obj.Nesting != configschema.NestingSingle && obj.Nesting != configschema.NestingGroup {
		_, objs = elements(v)
	}
	for _, o := range objs {
		if !isPresent(o) || !o.Type().IsObjectType() {
			continue
		}
		for name, attr := range obj.Attributes {
			if !o.Type().HasAttribute(name) {
				continue
			}
			av := o.GetAttr(name)
			if !attr.Computed && !av.IsNull() {
				return true
			}
			if attr.NestedType != nil && priorHasConfigOnlyValue(attr.NestedType, av) {
				return true
			}
		}
	}
	return false
}

// objectsCorrespond reports whether the config object c and the prior object
// p describe the same set element: all attributes that config controls hold
// equal values. Computed-only attributes are ignored. Optional+computed
// attributes that are null in config are ignored unless strict, in which
// case the prior value must be null too.
func objectsCorrespond(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, c, p cty.Value, strict bool) bool {
	if !c.IsKnown() || !p.IsKnown() {
		return false
	}
	if c.IsNull() || p.IsNull() {
		return c.IsNull() && p.IsNull()
	}
	cTy, pTy := c.Type(), p.Type()
	if !cTy.IsObjectType() || !pTy.IsObjectType() {
		return false
	}
	for name, attr := range attrs {
		if !cTy.HasAttribute(name) || !pTy.HasAttribute(name) {
			return false
		}
		cv, pv := c.GetAttr(name), p.GetAttr(name)
		switch {
		case attr.Computed && !attr.Optional && !attr.Required:
			continue
		case attr.Computed && cv.IsNull():
			if strict && !pv.IsNull() {
				return false
			}
		case attr.NestedType != nil:
			nested := attr.NestedType
			ok := collectionsCorrespond(nested.Nesting, cv, pv, func(c, p cty.Value) bool {
				return objectsCorrespond(nested.Attributes, nil, c, p, strict)
			})
			if !ok {
				return false
			}
		default:
			if !equalKnown(cv, pv) {
				return false
			}
		}
	}
	for name, nb := range blocks {
		if !cTy.HasAttribute(name) || !pTy.HasAttribute(name) {
			return false
		}
		ok := collectionsCorrespond(nb.Nesting, c.GetAttr(name), p.GetAttr(name), func(c, p cty.Value) bool {
			return objectsCorrespond(nb.Attributes, nb.BlockTypes, c, p, strict)
		})
		if !ok {
			return false
		}
	}
	return true
}

// collectionsCorrespond applies the element correspondence elem across the
// objects of a nested value according to its nesting mode.
func collectionsCorrespond(nesting configschema.NestingMode, c, p cty.Value, elem func(c, p cty.Value) bool) bool {
	if !c.IsKnown() || !p.IsKnown() {
		return false
	}
	if c.IsNull() || p.IsNull() {
		return c.IsNull() && p.IsNull()
	}
	switch nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		return elem(c, p)
	case configschema.NestingList, configschema.NestingMap:
		keys, cvals := elements(c)
		if len(cvals) != p.LengthInt() {
			return false
		}
		for i, cv := range cvals {
			pv := elementByKey(p, keys[i])
			if pv == cty.NilVal || !elem(cv, pv) {
				return false
			}
		}
		return true
	case configschema.NestingSet:
		_, cvals := elements(c)
		_, pvals := elements(p)
		if len(cvals) != len(pvals) {
			return false
		}
		for _, j := range maxMatching(len(cvals), len(pvals), func(i, j int) bool { return elem(cvals[i], pvals[j]) }) {
			if j < 0 {
				return false
			}
		}
		return true
	default:
		return false
	}
}

// equalKnown reports whether a and b are known to be equal.
func equalKnown(a, b cty.Value) bool {
	eq := a.Equals(b)
	return eq.IsKnown() && eq.True()
}

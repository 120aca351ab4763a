package objchange

import (
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang/marks"
)

// AssertPlanValid checks the provider's planned state against config and
// prior, following the PlanResourceChange contract:
//
//   - every non-null config value must be preserved exactly in the plan, or
//     replaced by the corresponding prior value (for a normalization the
//     provider considers insignificant); parts of the config value that are
//     unknown may be planned as anything;
//   - an attribute that is null in config may be planned as non-null (or
//     unknown) only if it is computed;
//   - a planned value may be unknown only for a computed attribute or where
//     the config value itself is unknown;
//   - nested blocks and nested attribute objects must keep their shape: a
//     single object must be present exactly when config has it, list and
//     set collections must have as many elements as config and map
//     collections the same keys, unless the config collection is unknown.
//
// Write-only attributes may always be planned as null. priorState may be null
// (create). Marks on the inputs are ignored. It returns one error per problem
// found; each message starts with the path of the offending value as rendered
// by FormatPath and each error is a cty.PathError.
func AssertPlanValid(schema *configschema.Block, priorState, config, plannedState cty.Value) []error {
	if schema == nil {
		schema = &configschema.Block{}
	}
	return planObject(schema.Attributes, schema.BlockTypes, unmarked(priorState), unmarked(config), unmarked(plannedState), nil, false)
}

// object checks one object of a block or nested attribute type. prior is
// cty.NilVal, null or unknown when there is no corresponding prior object.
func planObject(attrs map[string]*configschema.Attribute, blocks map[string]*configschema.NestedBlock, prior, config, planned cty.Value, path cty.Path, sens bool) []error {
	switch {
	case !config.IsKnown():
		return nil
	case config.IsNull():
		if !planned.IsNull() || !planned.IsKnown() {
			return []error{newError(path, "planned for existence but config wants absence")}
		}
		return nil
	case planned.IsNull():
		return []error{newError(path, "planned for absence but config wants existence")}
	case !planned.IsKnown():
		return []error{newError(path, "planned object must not be wholly unknown when config is known; set individual attributes to unknown instead")}
	}
	if !schemaConforms(planned.Type(), attrs, blocks) {
		if errs := conformanceErrors(path, planned.Type(), objectType(attrs, blocks), "planned value"); len(errs) > 0 {
			return errs
		}
	}
	configTy := config.Type()
	if !configTy.IsObjectType() {
		return nil
	}
	var errs []error
	for _, name := range sortedKeys(attrs) {
		attr := attrs[name]
		if !configTy.HasAttribute(name) {
			continue
		}
		errs = append(errs, planAttribute(attr, priorAttr(prior, name), config.GetAttr(name), planned.GetAttr(name), attrPath(path, name), sens || attr.Sensitive)...)
	}
	for _, name := range sortedKeys(blocks) {
		nb := blocks[name]
		if !configTy.HasAttribute(name) {
			continue
		}
		errs = append(errs, planBlock(nb, priorAttr(prior, name), config.GetAttr(name), planned.GetAttr(name), attrPath(path, name))...)
	}
	return errs
}

func planAttribute(attr *configschema.Attribute, prior, config, planned cty.Value, path cty.Path, sens bool) []error {
	if attr.WriteOnly && planned.IsKnown() && planned.IsNull() {
		return nil
	}
	// Whole values of a nested attribute are hidden if any part is sensitive.
	hide := sens || (attr.NestedType != nil && containsSensitive(attr.NestedType.Attributes, nil))
	if config.IsNull() {
		if attr.Computed || (planned.IsKnown() && planned.IsNull()) {
			return nil
		}
		return []error{newError(path, "planned value %s for a non-computed attribute", renderValue(planned, hide))}
	}
	if !config.IsKnown() {
		return nil
	}
	if isPresent(prior) && (marks.KnownEqual(planned, prior) || planned.RawEquals(prior)) {
		return nil
	}
	if attr.NestedType != nil {
		obj := attr.NestedType
		return planNested(obj.Nesting, prior, config, planned, path, "element", hide,
			func(p, c, pl cty.Value, path cty.Path) []error {
				return planObject(obj.Attributes, nil, p, c, pl, path, sens)
			})
	}
	if len(compatValue(config, planned, nil, sens)) == 0 {
		return nil
	}
	if isPresent(prior) {
		return []error{newError(path, "planned value %s does not match config value %s nor prior value %s",
			renderValue(planned, sens), renderValue(config, sens), renderValue(prior, sens))}
	}
	return []error{newError(path, "planned value %s does not match config value %s", renderValue(planned, sens), renderValue(config, sens))}
}

func planBlock(nb *configschema.NestedBlock, prior, config, planned cty.Value, path cty.Path) []error {
	return planNested(nb.Nesting, prior, config, planned, path, "block", containsSensitive(nb.Attributes, nb.BlockTypes),
		func(p, c, pl cty.Value, path cty.Path) []error {
			return planObject(nb.Attributes, nb.BlockTypes, p, c, pl, path, false)
		})
}

// planNested checks the objects of a nested block or nested attribute value
// according to its nesting mode, using elem to check each object. noun names
// the objects in count messages; sens hides values in set messages.
func planNested(nesting configschema.NestingMode, prior, config, planned cty.Value, path cty.Path, noun string, sens bool, elem func(p, c, pl cty.Value, path cty.Path) []error) []error {
	if nesting == configschema.NestingSingle || nesting == configschema.NestingGroup {
		return elem(prior, config, planned, path)
	}
	switch {
	case !config.IsKnown():
		return nil
	case config.IsNull():
		if !planned.IsNull() || !planned.IsKnown() {
			return []error{newError(path, "planned for existence but config wants absence")}
		}
		return nil
	case planned.IsNull():
		return []error{newError(path, "planned for absence but config wants existence")}
	case !planned.IsKnown():
		return []error{newError(path, "planned collection must not be wholly unknown when config is known")}
	case !sameCollectionKind(config.Type(), planned.Type()):
		return []error{newError(path, "planned value of type %s does not conform to the schema", planned.Type().FriendlyName())}
	}

	ckeys, cvals := elements(config)
	pkeys, pvals := elements(planned)
	switch nesting {
	case configschema.NestingList:
		if len(cvals) != len(pvals) {
			return []error{newError(path, "%s count in plan (%d) disagrees with count in config (%d)", noun, len(pvals), len(cvals))}
		}
		var errs []error
		for i, c := range cvals {
			errs = append(errs, elem(elementByKey(prior, ckeys[i]), c, pvals[i], indexPath(path, ckeys[i]))...)
		}
		return errs

	case configschema.NestingMap:
		var errs []error
		for i, c := range cvals {
			pl := elementByKey(planned, ckeys[i])
			if pl == cty.NilVal {
				errs = append(errs, newError(indexPath(path, ckeys[i]), "planned for absence but config wants existence"))
				continue
			}
			errs = append(errs, elem(elementByKey(prior, ckeys[i]), c, pl, indexPath(path, ckeys[i]))...)
		}
		for _, k := range pkeys {
			if elementByKey(config, k) == cty.NilVal {
				errs = append(errs, newError(indexPath(path, k), "planned for existence but config wants absence"))
			}
		}
		return errs

	case configschema.NestingSet:
		if len(cvals) != len(pvals) {
			return []error{newError(path, "%s count in plan (%d) disagrees with count in config (%d)", noun, len(pvals), len(cvals))}
		}
		_, priors := elements(prior)
		candidates := append([]cty.Value{cty.NilVal}, priors...)
		match := maxMatching(len(cvals), len(pvals), func(i, j int) bool {
			for _, p := range candidates {
				if len(elem(p, cvals[i], pvals[j], path)) == 0 {
					return true
				}
			}
			return false
		})
		var errs []error
		for i, j := range match {
			if j < 0 {
				errs = append(errs, newError(path, "no planned set element corresponds to config element %s", renderValue(cvals[i], sens)))
			}
		}
		return errs

	default:
		return nil
	}
}

package jsonformat

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/plans"
)

// relevantAttribute is a resource attribute that contributes to a planned
// change: "resource" is the resource or instance address, "attribute"
// the path within it ([] for the whole object).
type relevantAttribute struct {
	Resource  string            `json:"resource"`
	Attribute []json.RawMessage `json:"attribute"`
}

// relevantAttributes finds the resource attributes that the plan's
// changes depend on: the references made by the configuration of every
// changing resource instance and every changing output, followed
// through local values and through the referenced resources' own
// arguments. Terraform lists them in no particular order; strata sorts
// them.
func relevantAttributes(cfg *configs.Module, changes *plans.Changes, schemaFn SchemaFunc) []relevantAttribute {
	a := &refAnalyzer{cfg: cfg, schemaFn: schemaFn, found: map[string]relevantAttribute{}, visited: map[string]bool{}}
	seen := map[addrs.Resource]bool{}
	for _, rc := range changes.Resources {
		res := rc.Addr.Resource.Resource
		if rc.Action == plans.NoOp || !rc.Addr.Module.IsRoot() || seen[res] {
			continue
		}
		seen[res] = true
		if r := a.resource(res); r != nil {
			a.visit(a.bodyRefs(r.Config, r.schema))
		}
	}
	for _, oc := range changes.Outputs {
		if oc.Action == plans.NoOp {
			continue
		}
		if o, ok := cfg.Outputs[oc.Name]; ok {
			refs, _ := lang.ReferencesInExpr(o.Expr)
			a.visit(refs)
		}
	}
	if len(a.found) == 0 {
		return nil
	}
	keys := sortedKeys(a.found)
	ret := make([]relevantAttribute, len(keys))
	for i, k := range keys {
		ret[i] = a.found[k]
	}
	sort.SliceStable(ret, func(i, j int) bool { return ret[i].Resource < ret[j].Resource })
	return ret
}

type refAnalyzer struct {
	cfg      *configs.Module
	found    map[string]relevantAttribute
	visited  map[string]bool
	schemaFn SchemaFunc
}

type configuredResource struct {
	*configs.Resource
	schema *configschema.Block
}

// resource returns the configuration of a root module resource, or nil.
func (a *refAnalyzer) resource(r addrs.Resource) *configuredResource {
	rs := a.cfg.ManagedResources
	if r.Mode == addrs.DataResourceMode {
		rs = a.cfg.DataResources
	}
	c, ok := rs[r.String()]
	if !ok {
		return nil
	}
	_, provider := resourceProvider(a.cfg, c)
	return &configuredResource{Resource: c, schema: a.schemaFn(provider, c.Mode, c.Type)}
}

// bodyRefs returns the references a body makes: with a schema, every
// argument and nested block; without, its attributes.
func (a *refAnalyzer) bodyRefs(body hcl.Body, schema *configschema.Block) []*lang.Reference {
	if body == nil {
		return nil
	}
	if schema != nil {
		refs, _ := lang.BlockReferences(body, schema)
		return refs
	}
	attrs, _ := body.JustAttributes()
	var refs []*lang.Reference
	for _, name := range sortedKeys(attrs) {
		more, _ := lang.ReferencesInExpr(attrs[name].Expr)
		refs = append(refs, more...)
	}
	return refs
}

// visit records the resource references among refs and follows every
// reference to what it refers to, once.
func (a *refAnalyzer) visit(refs []*lang.Reference) {
	pending := refs
	for len(pending) > 0 {
		ref := pending[0]
		pending = pending[1:]
		subject, remaining, _ := referenceParts(ref)
		key := subject + traversalString(remaining)
		if _, ok := ref.Subject.(lang.ResourceRef); ok {
			a.found[key] = relevantAttribute{Resource: subject, Attribute: marshalTraversalPath(remaining)}
		}
		if a.visited[key] {
			continue
		}
		a.visited[key] = true
		pending = append(pending, a.metaRefs(ref, remaining)...)
	}
}

// metaRefs returns the references that contribute to the value a
// reference refers to: a local value's expression, or the resource
// arguments behind a resource attribute (the whole resource body for a
// reference to the whole resource).
func (a *refAnalyzer) metaRefs(ref *lang.Reference, remaining hcl.Traversal) []*lang.Reference {
	switch s := ref.Subject.(type) {
	case lang.LocalValue:
		if l, ok := a.cfg.Locals[s.Name]; ok {
			refs, _ := lang.ReferencesInExpr(l.Expr)
			return refs
		}
	case lang.ResourceRef:
		r := a.resource(s.Resource)
		if r == nil {
			return nil
		}
		if len(remaining) == 0 {
			return a.bodyRefs(r.Config, r.schema)
		}
		step, ok := remaining[0].(hcl.TraverseAttr)
		if !ok {
			return nil
		}
		if r.schema == nil {
			attrs, _ := r.Config.JustAttributes()
			if attr, ok := attrs[step.Name]; ok {
				refs, _ := lang.ReferencesInExpr(attr.Expr)
				return refs
			}
			return nil
		}
		content, _, _ := r.Config.PartialContent(hclSchema(r.schema))
		if attr, ok := content.Attributes[step.Name]; ok {
			refs, _ := lang.ReferencesInExpr(attr.Expr)
			return refs
		}
		if nb, ok := r.schema.BlockTypes[step.Name]; ok {
			var refs []*lang.Reference
			for _, b := range content.Blocks {
				if b.Type == step.Name {
					more, _ := lang.BlockReferences(b.Body, &nb.Block)
					refs = append(refs, more...)
				}
			}
			return refs
		}
	}
	return nil
}

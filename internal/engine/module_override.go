package engine

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// moduleOverride returns the ModuleOverrides entry of the module at path
// or of a module containing it, with the overridden module's path.
func (w *walker) moduleOverride(path addrs.Module) (cty.Value, addrs.Module, bool) {
	for i := len(path); i > 0; i-- {
		if v, ok := w.e.ModuleOverrides[path[:i].String()]; ok {
			return v, path[:i], true
		}
	}
	return cty.NilVal, nil, false
}

// withModuleOverrides wraps a walk's visit so that nothing in an
// overridden module is evaluated, planned or applied: its outputs take
// the override's values (null for those it does not give).
func (w *walker) withModuleOverrides(visit func(context.Context, node) hcl.Diagnostics) func(context.Context, node) hcl.Diagnostics {
	if len(w.e.ModuleOverrides) == 0 {
		return visit
	}
	return func(ctx context.Context, n node) hcl.Diagnostics {
		outputs, at, overridden := w.moduleOverride(referencesModule(n))
		if !overridden {
			return visit(ctx, n)
		}
		if out, isOutput := n.(*outputNode); isOutput && out.path.Equal(at) {
			v := cty.NullVal(cty.DynamicPseudoType)
			if outputs.Type().IsObjectType() && outputs.Type().HasAttribute(out.cfg.Name) {
				v = outputs.GetAttr(out.cfg.Name)
			}
			for _, mi := range w.ev.moduleInstances(out.path) {
				w.ev.setOutput(mi, out.cfg.Name, v)
			}
			// An override of one instance wins over the whole call's.
			w.setInstanceOverrides(out)
		}
		return nil
	}
}

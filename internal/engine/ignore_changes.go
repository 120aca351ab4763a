package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/strata-dev/strata/internal/plans/objchange"
)

// validateIgnoreChanges checks a managed resource's ignore_changes
// elements against its schema, as Terraform's validation does: an element
// must name an argument (or a path inside one), and naming an attribute
// only the provider sets is warned about, as it has no effect. After the
// first error, no more warnings. The schema not loading is reported
// elsewhere.
func (w *walker) validateIgnoreChanges(ctx context.Context, n *resourceNode) hcl.Diagnostics {
	if n.cfg.Managed == nil || len(n.cfg.Managed.IgnoreChanges) == 0 {
		return nil
	}
	schema, _, err := w.resourceSchema(ctx, n.addr.Resource, n.provider)
	if err != nil || schema == nil {
		return nil
	}
	var diags hcl.Diagnostics
	for _, trav := range n.cfg.Managed.IgnoreChanges {
		diags = append(diags, schema.StaticValidateTraversal(trav)...)
		if diags.HasErrors() {
			continue
		}
		path := traversalPath(trav)
		if a := schema.AttributeByPath(path); a != nil && a.Computed && !a.Optional {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagWarning,
				Summary:  "Redundant ignore_changes element",
				Detail:   fmt.Sprintf("Adding an attribute name to ignore_changes tells strata to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\nThe attribute %s is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.", strings.TrimPrefix(objchange.FormatPath(path), ".")),
				Subject:  n.cfg.TypeRange.Ptr(),
			})
		}
	}
	return diags
}

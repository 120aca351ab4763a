package command

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/strata-dev/strata/internal/addrs"
)

// targetFlags are -target, -replace and OpenTofu's -exclude, each
// repeatable.
type targetFlags struct {
	targets  []string
	replaces []string
	excludes []string
}

func (f *targetFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&f.targets, "target", nil, "Limit the planning operation to only the given module,\nresource, or resource instance and its dependencies (or, when\ndestroying, what depends on it). Use this option multiple\ntimes to include more than one object. For exceptional\nsituations only.")
	fs.StringArrayVar(&f.excludes, "exclude", nil, "Limit the planning operation to what is not the given module,\nresource, or resource instance and does not depend on it\n(or, when destroying, what it does not depend on), as\nOpenTofu does. Use this option multiple times to exclude more\nthan one object. Cannot be combined with -target. For\nexceptional situations only.")
	fs.StringArrayVar(&f.replaces, "replace", nil, "Force replacement of a particular resource instance using\nits resource address. If the plan would have normally\nproduced an update or no-op action for this instance,\nstrata will plan to replace it instead. Use this option\nmultiple times to replace more than one object.")
}

// parse returns the addresses, with a diagnostic for each invalid one.
func (f *targetFlags) parse() (targets, replaces []addrs.Target, diags hcl.Diagnostics) {
	parse := func(flag string, in []string) []addrs.Target {
		var out []addrs.Target
		for _, s := range in {
			t, d := addrs.ParseTarget(s)
			if d.HasErrors() {
				// Terraform's words.
				summary := fmt.Sprintf("Invalid target %q", s)
				if flag == "replace" {
					summary = fmt.Sprintf("Invalid force-replace address %q", s)
				}
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: d[0].Detail})
				continue
			}
			if t.Module && flag == "replace" {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  fmt.Sprintf("Invalid force-replace address %q", s),
					Detail:   "A resource instance address is required here. The module path must be followed by a resource instance specification.",
				})
				continue
			}
			out = append(out, t)
		}
		return out
	}
	// One statement each: a return that reads diags while the calls in it
	// append to it may see a torn slice (Go leaves the order unspecified).
	targets = parse("target", f.targets)
	replaces = parse("replace", f.replaces)
	return targets, replaces, diags
}

// parseExcludes returns the -exclude addresses, refusing them together
// with -target as OpenTofu does.
func (f *targetFlags) parseExcludes() ([]addrs.Target, hcl.Diagnostics) {
	if len(f.excludes) > 0 && len(f.targets) > 0 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid combination of arguments",
			Detail:   "The target and exclude planning options are mutually-exclusive. Each plan must use either only the target options or only the exclude options.",
		}}
	}
	var out []addrs.Target
	var diags hcl.Diagnostics
	for _, s := range f.excludes {
		t, d := addrs.ParseTarget(s)
		if d.HasErrors() {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid exclude address",
				Detail:   "The -exclude option needs a module, resource or resource instance address such as module.app, terraform_data.a or terraform_data.a[0]; " + s + " is not one: " + d[0].Detail,
			})
			continue
		}
		out = append(out, t)
	}
	return out, diags
}

// incompleteApplyWarning follows an apply made with -target.
var incompleteApplyWarning = &hcl.Diagnostic{
	Severity: hcl.DiagWarning,
	Summary:  "Applied changes may be incomplete",
	Detail: `The plan was created with the -target option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:
    strata plan

Note that the -target option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when strata specifically suggests to use it as part of an error message.`,
}

// incompleteExcludeWarning follows an apply made with -exclude.
var incompleteExcludeWarning = &hcl.Diagnostic{
	Severity: hcl.DiagWarning,
	Summary:  "Applied changes may be incomplete",
	Detail: `The plan was created with the -exclude option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:
    strata plan

Note that the -exclude option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes.`,
}

// replaceModeDiag refuses -replace outside normal planning.
var replaceModeDiag = &hcl.Diagnostic{
	Severity: hcl.DiagError,
	Summary:  "Unsupported plan mode",
	Detail:   "Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode.",
}

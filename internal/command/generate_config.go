package command

import (
	"errors"
	"io/fs"
	"os"
	"sort"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/configs/genconfig"
	"github.com/strata-dev/strata/internal/plans"
)

// checkGenerateTarget refuses a -generate-config-out file that exists:
// generated configuration only ever goes into a new file.
func checkGenerateTarget(d *Deps, path string) hcl.Diagnostics {
	if path == "" {
		return nil
	}
	if _, err := d.stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Target generated file already exists",
		Detail:   "strata can only write generated config into a new file. Either choose a different target location or move all existing configuration out of the target file, delete it and try again.",
	}}
}

// writeGeneratedConfig writes the configuration the plan generated for
// imported objects into path, and adds it to the configuration a saved
// plan carries. It reports whether anything was written.
func writeGeneratedConfig(op *operation, plan *plans.Plan, path string) (bool, hcl.Diagnostics) {
	if path == "" || plan == nil {
		return false, nil
	}
	var changes []*plans.ResourceInstanceChange
	for _, c := range plan.Changes.Resources {
		if c.Importing != nil && c.Importing.GeneratedConfig != "" {
			changes = append(changes, c)
		}
	}
	if len(changes) == 0 {
		return false, nil
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Addr.Less(changes[j].Addr) })
	var blocks, ids []string
	for _, c := range changes {
		blocks, ids = append(blocks, c.Importing.GeneratedConfig), append(ids, c.Importing.ID)
	}
	src := genconfig.File(blocks, ids)
	if err := os.WriteFile(op.parser.Abs(path), src, 0o644); err != nil {
		return false, errorDiag("Failed to write generated configuration", err)
	}
	// The configuration now has these resources: a saved plan carries
	// the file, as it carries the others.
	f, diags := op.parser.ParseSource(src, path)
	if f != nil {
		op.files[path] = f
		op.cfg.Module.Files = append(op.cfg.Module.Files, path)
	}
	diags = append(diags, &hcl.Diagnostic{
		Severity: hcl.DiagWarning,
		Summary:  "Config generation is experimental",
		Detail:   "Generating configuration during import is currently experimental, and the generated configuration format may change in future versions.",
	})
	return true, diags
}

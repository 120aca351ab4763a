package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// IsOverrideFile reports whether a configuration file is an override file
// (override.tf, NAME_override.tf, and their .tf.json forms): loaded after
// the others, its blocks merge into theirs instead of declaring new ones.
func IsOverrideFile(name string) bool {
	base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".tf"), ".tofu")
	return base == "override" || strings.HasSuffix(base, "_override")
}

// base remembers a primary file's block for override files.
func (m *Module) base(key string, block *hcl.Block) {
	if !m.hasOverrides {
		return
	}
	if m.bases == nil {
		m.bases = map[string]*hcl.Block{}
	}
	m.bases[key] = block
}

// loadOverrideFile merges the blocks of an override file into the blocks
// of the primary files they name, with Terraform's rules (see mergedBody):
// each merged block is decoded again in place of the original.
func (m *Module) loadOverrideFile(f *hcl.File) hcl.Diagnostics {
	content, diags := f.Body.Content(fileSchema)
	for _, block := range content.Blocks {
		switch block.Type {
		case "required_providers":
			diags = append(diags, misplacedRequiredProviders(block))
		case "locals":
			attrs, adiags := block.Body.JustAttributes()
			diags = append(diags, adiags...)
			for name, a := range attrs {
				l, ok := m.Locals[name]
				if !ok {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Missing base local value definition to override",
						Detail:   fmt.Sprintf("There is no local value named %q. An override file can only override a local value that was already defined in a primary configuration file.", name),
						Subject:  a.NameRange.Ptr(),
					})
					continue
				}
				l.Expr = a.Expr
			}
		case "variable", "output", "module", "resource", "data", "ephemeral", "provider":
			key := block.Type + "." + strings.Join(block.Labels, ".")
			if block.Type == "provider" {
				p, _ := decodeProvider(block)
				key = "provider." + p.moduleKey()
			}
			base, ok := m.bases[key]
			if !ok {
				diags = append(diags, missingBase(block))
				continue
			}
			merged := *base
			merged.Body = &mergedBody{base: base.Body, override: block.Body, mergeLifecycle: block.Type == "resource" || block.Type == "data" || block.Type == "ephemeral"}
			m.forget(key)
			diags = append(diags, m.addBlock(&merged)...)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported override",
				Detail:   fmt.Sprintf("strata does not merge %s blocks from override files yet: move the block into a primary configuration file.", block.Type),
				Subject:  block.DefRange.Ptr(),
			})
		}
	}
	return diags
}

// forget removes the decoded block a base key names, before its merged
// form is added again.
func (m *Module) forget(key string) {
	kind, name, _ := strings.Cut(key, ".")
	switch kind {
	case "variable":
		delete(m.Variables, name)
	case "output":
		delete(m.Outputs, name)
	case "module":
		delete(m.ModuleCalls, name)
	case "provider":
		delete(m.ProviderConfigs, name)
	case "resource":
		delete(m.ManagedResources, name)
	case "data":
		delete(m.DataResources, "data."+name)
	case "ephemeral":
		delete(m.EphemeralResources, "ephemeral."+name)
	}
}

// missingBase reports an override block with nothing to override, in
// Terraform's words for each kind of block.
func missingBase(block *hcl.Block) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Subject: block.DefRange.Ptr()}
	name := block.Labels[len(block.Labels)-1]
	switch block.Type {
	case "resource", "data", "ephemeral":
		kind := map[string]string{"resource": "resource", "data": "data resource", "ephemeral": "ephemeral resource"}[block.Type]
		d.Summary = fmt.Sprintf("Missing %s to override", kind)
		d.Detail = fmt.Sprintf("There is no %s %s named %q. An override file can only override a %s block defined in a primary configuration file.", block.Labels[0], kind, name, block.Type)
	case "variable":
		d.Summary = "Missing base variable declaration to override"
		d.Detail = fmt.Sprintf("There is no variable named %q. An override file can only override a variable that was already declared in a primary configuration file.", name)
	case "output":
		d.Summary = "Missing base output definition to override"
		d.Detail = fmt.Sprintf("There is no output named %q. An override file can only override an output that was already defined in a primary configuration file.", name)
	case "module":
		d.Summary = "Missing module call to override"
		d.Detail = fmt.Sprintf("There is no module call named %q. An override file can only override a module call that was defined in a primary configuration file.", name)
	default:
		d.Summary = "Missing base provider configuration for override"
		d.Detail = fmt.Sprintf("There is no %s provider configuration to override. An override file can only override a provider configuration that was already defined in a primary configuration file.", name)
	}
	return d
}

package configs

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/encryption"
)

// Module is one module's configuration, merged from all its files.
type Module struct {
	// SourceDir is the directory the module was loaded from.
	SourceDir string
	// Files are the paths of the module's configuration files, as parsed.
	Files []string

	RequiredVersions  []VersionConstraint
	RequiredProviders map[string]*RequiredProvider
	Backend           *Backend
	// Encryption is the encryption block inside the terraform block
	// (OpenTofu's state and plan encryption); nil when there is none.
	// EvalStatic evaluates its arguments.
	Encryption *encryption.Config

	Variables        map[string]*Variable
	Locals           map[string]*Local
	Outputs          map[string]*Output
	ProviderConfigs  map[string]*Provider
	ManagedResources map[string]*Resource
	DataResources    map[string]*Resource
	// EphemeralResources are the ephemeral blocks, by address.
	EphemeralResources map[string]*Resource
	ModuleCalls        map[string]*ModuleCall
	Checks             map[string]*Check
	// Moved holds the moved blocks in file order.
	Moved []*Moved
	// Removed holds the removed blocks.
	Removed []*Removed
	// Imports holds the import blocks.
	Imports []*Import

	// requiredProvidersRange is where the module's one required_providers
	// block was declared, for reporting duplicates.
	requiredProvidersRange *hcl.Range
	// bases are the blocks of primary files that override files can
	// merge into, by kind and name (resource.TYPE.NAME, variable.NAME...).
	bases map[string]*hcl.Block
	// staticVars are the root module's variable values given for early
	// evaluation, nil for other modules.
	staticVars map[string]cty.Value
	// workDir is the parser's working directory (path.cwd in early
	// evaluation); empty means the process's.
	workDir string
}

func newModule(dir string) *Module {
	return &Module{
		SourceDir:          dir,
		RequiredProviders:  map[string]*RequiredProvider{},
		Variables:          map[string]*Variable{},
		Locals:             map[string]*Local{},
		Outputs:            map[string]*Output{},
		ProviderConfigs:    map[string]*Provider{},
		ManagedResources:   map[string]*Resource{},
		DataResources:      map[string]*Resource{},
		EphemeralResources: map[string]*Resource{},
		ModuleCalls:        map[string]*ModuleCall{},
		Checks:             map[string]*Check{},
	}
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "terraform"},
		{Type: "variable", LabelNames: []string{"name"}},
		{Type: "locals"},
		{Type: "output", LabelNames: []string{"name"}},
		{Type: "provider", LabelNames: []string{"name"}},
		{Type: "resource", LabelNames: []string{"type", "name"}},
		{Type: "data", LabelNames: []string{"type", "name"}},
		{Type: "ephemeral", LabelNames: []string{"type", "name"}},
		{Type: "module", LabelNames: []string{"name"}},
		{Type: "moved"},
		{Type: "import"},
		{Type: "removed"},
		{Type: "check", LabelNames: []string{"name"}},
	},
}

func (m *Module) loadFile(f *hcl.File) hcl.Diagnostics {
	content, diags := f.Body.Content(fileSchema)
	for _, block := range content.Blocks {
		diags = append(diags, m.addBlock(block)...)
	}
	return diags
}

// addBlock decodes one top-level block into the module, remembering the
// blocks override files can merge into.
func (m *Module) addBlock(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	{
		switch block.Type {
		case "terraform":
			diags = append(diags, m.loadTerraformBlock(block)...)
		case "variable":
			v, vdiags := decodeVariable(block)
			diags = append(diags, vdiags...)
			if v != nil {
				diags = append(diags, checkDuplicate(m.Variables, v.Name, "variable", v.DeclRange)...)
				m.Variables[v.Name] = v
				m.base("variable."+v.Name, block)
			}
		case "locals":
			locals, ldiags := decodeLocals(block)
			diags = append(diags, ldiags...)
			for _, l := range locals {
				diags = append(diags, checkDuplicate(m.Locals, l.Name, "local value", l.DeclRange)...)
				m.Locals[l.Name] = l
			}
		case "output":
			o, odiags := decodeOutput(block)
			diags = append(diags, odiags...)
			if o != nil {
				diags = append(diags, checkDuplicate(m.Outputs, o.Name, "output", o.DeclRange)...)
				m.Outputs[o.Name] = o
				m.base("output."+o.Name, block)
			}
		case "provider":
			p, pdiags := decodeProvider(block)
			diags = append(diags, pdiags...)
			if p != nil {
				diags = append(diags, checkDuplicate(m.ProviderConfigs, p.moduleKey(), "provider configuration", p.DeclRange)...)
				m.ProviderConfigs[p.moduleKey()] = p
				m.base("provider."+p.moduleKey(), block)
			}
		case "resource", "data", "ephemeral":
			mode := addrs.ManagedResourceMode
			target := m.ManagedResources
			switch block.Type {
			case "data":
				mode, target = addrs.DataResourceMode, m.DataResources
			case "ephemeral":
				mode, target = addrs.EphemeralResourceMode, m.EphemeralResources
			}
			r, rdiags := decodeResource(block, mode)
			diags = append(diags, rdiags...)
			if r != nil {
				key := r.Addr().String()
				diags = append(diags, checkDuplicate(target, key, block.Type, r.DeclRange)...)
				target[key] = r
				m.base(block.Type+"."+strings.Join(block.Labels, "."), block)
			}
		case "check":
			c, cdiags := decodeCheck(block)
			diags = append(diags, cdiags...)
			diags = append(diags, checkDuplicate(m.Checks, c.Name, "check block", c.DeclRange)...)
			m.Checks[c.Name] = c
			for _, r := range c.DataResources {
				key := r.Addr().String()
				diags = append(diags, checkDuplicate(m.DataResources, key, "data", r.DeclRange)...)
				m.DataResources[key] = r
			}
		case "module":
			mc, mdiags := decodeModuleCall(block)
			diags = append(diags, mdiags...)
			if mc != nil {
				diags = append(diags, checkDuplicate(m.ModuleCalls, mc.Name, "module call", mc.DeclRange)...)
				m.ModuleCalls[mc.Name] = mc
				m.base("module."+mc.Name, block)
			}
		case "import":
			im, idiags := decodeImport(block)
			diags = append(diags, idiags...)
			if im != nil {
				m.Imports = append(m.Imports, im)
			}
		case "removed":
			rm, rdiags := decodeRemoved(block)
			diags = append(diags, rdiags...)
			if rm != nil {
				m.Removed = append(m.Removed, rm)
			}
		case "moved":
			mv, mdiags := decodeMoved(block)
			diags = append(diags, mdiags...)
			if mv != nil {
				m.Moved = append(m.Moved, mv)
			}
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("%s blocks are not supported by this version of strata yet.", block.Type),
				Subject:  block.DefRange.Ptr(),
			})
		}
	}
	return diags
}

func checkDuplicate[T any](existing map[string]T, name, what string, rng hcl.Range) hcl.Diagnostics {
	if _, ok := existing[name]; !ok {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  fmt.Sprintf("Duplicate %s", what),
		Detail:   fmt.Sprintf("A %s named %q was already declared. Names must be unique within a module.", what, name),
		Subject:  rng.Ptr(),
	}}
}

// checkRemoved reports removed blocks naming resources still configured.
// It runs once every file is loaded.
func (m *Module) checkRemoved() hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, rm := range m.Removed {
		if rm.From.Module {
			if call, ok := m.ModuleCalls[rm.From.Resource.Module[0].Name]; ok && len(rm.From.Resource.Module) == 1 {
				// As in Terraform, the error points at the module block.
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Removed module still exists",
					Detail:   "This statement declares that " + rm.From.String() + " was removed, but it is still declared in configuration.",
					Subject:  call.DeclRange.Ptr(),
				})
			}
			continue
		}
		if !rm.From.Resource.Module.IsRoot() {
			continue
		}
		if _, ok := m.ManagedResources[rm.From.Resource.Resource.String()]; ok {
			diags = append(diags, removedStillExists(rm))
		}
	}
	return diags
}

func removedStillExists(rm *Removed) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Removed resource still exists",
		Detail:   "This statement declares that " + rm.From.String() + " was removed, but it is still declared in configuration.",
		Subject:  rm.DeclRange.Ptr(),
	}
}

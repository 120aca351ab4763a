package configs

import (
	"fmt"
	"reflect"
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
	// merge into, by kind and name (resource.TYPE.NAME, variable.NAME...),
	// kept only while a module with override files loads (hasOverrides):
	// otherwise they would hold a copy of every block's header (about 300
	// bytes a resource) for nothing.
	bases        map[string]*hcl.Block
	hasOverrides bool
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
		// Only to say where it belongs, as Terraform does.
		{Type: "required_providers"},
	},
}

func (m *Module) loadFile(f *hcl.File) hcl.Diagnostics {
	content, diags := f.Body.Content(fileSchema)
	// Check blocks come last, as in Terraform: a data resource declared
	// both in one and at the top level is reported at the check block's.
	for _, block := range content.Blocks {
		if block.Type != "check" {
			diags = append(diags, m.addBlock(block)...)
		}
	}
	for _, block := range content.Blocks {
		if block.Type == "check" {
			diags = append(diags, m.addBlock(block)...)
		}
	}
	return diags
}

// misplacedRequiredProviders reports a required_providers block outside
// a terraform block, in Terraform's words.
func misplacedRequiredProviders(block *hcl.Block) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid required_providers block",
		Detail:   `A "required_providers" block must be nested inside a "terraform" block.`,
		Subject:  block.TypeRange.Ptr(),
	}
}

// addBlock decodes one top-level block into the module, remembering the
// blocks override files can merge into.
func (m *Module) addBlock(block *hcl.Block) hcl.Diagnostics {
	var diags hcl.Diagnostics
	{
		switch block.Type {
		case "required_providers":
			diags = append(diags, misplacedRequiredProviders(block))
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
				if m.hasOverrides {
					m.base(block.Type+"."+strings.Join(block.Labels, "."), block)
				}
			}
		case "check":
			c, cdiags := decodeCheck(block)
			diags = append(diags, cdiags...)
			diags = append(diags, checkDuplicate(m.Checks, c.Name, "check block", c.DeclRange)...)
			m.Checks[c.Name] = c
			for _, r := range c.DataResources {
				key := r.Addr().String()
				diags = append(diags, checkDuplicate(m.DataResources, key, "check data", r.DeclRange)...)
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
	prev, ok := existing[name]
	if !ok {
		return nil
	}
	return hcl.Diagnostics{duplicateDiag(what, name, declRangeOf(prev), rng)}
}

// declRangeOf returns the DeclRange field of a pointer to a configuration
// object.
func declRangeOf(v any) hcl.Range {
	f := reflect.ValueOf(v).Elem().FieldByName("DeclRange")
	if r, ok := f.Interface().(hcl.Range); ok {
		return r
	}
	return hcl.Range{}
}

// duplicateDiag reports a second declaration of name (a what) at rng, the
// first being at prev, in Terraform's words for each kind of object.
func duplicateDiag(what, name string, prev, rng hcl.Range) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Subject: rng.Ptr()}
	switch what {
	case "variable":
		d.Summary = "Duplicate variable declaration"
		d.Detail = fmt.Sprintf("A variable named %q was already declared at %s. Variable names must be unique within a module.", name, prev)
	case "local value":
		d.Summary = "Duplicate local value definition"
		d.Detail = fmt.Sprintf("A local value named %q was already defined at %s. Local value names must be unique within a module.", name, prev)
	case "output":
		d.Summary = "Duplicate output definition"
		d.Detail = fmt.Sprintf("An output named %q was already defined at %s. Output names must be unique within a module.", name, prev)
	case "module call":
		d.Summary = "Duplicate module call"
		d.Detail = fmt.Sprintf("A module call named %q was already defined at %s. Module calls must have unique names within a module.", name, prev)
	case "check block":
		d.Summary = fmt.Sprintf("Duplicate check %q configuration", name)
		d.Detail = fmt.Sprintf("A check block named %q was already declared at %s. Check blocks must be unique within each module.", name, prev)
	case "provider configuration":
		d.Summary = "Duplicate provider configuration"
		if local, alias, ok := strings.Cut(name, "."); ok {
			d.Detail = fmt.Sprintf("A provider configuration for %q with alias %q was already given at %s. Each configuration for the same provider must have a distinct alias.", local, alias, prev)
		} else {
			d.Detail = fmt.Sprintf("A default (non-aliased) provider configuration for %q was already given at %s. If multiple configurations are required, set the \"alias\" argument for alternative configurations.", name, prev)
		}
	case "resource", "data", "ephemeral", "check data":
		// name is the resource's address: TYPE.NAME, data.TYPE.NAME or
		// ephemeral.TYPE.NAME.
		mode, kind := what, what+" resource"
		if what == "resource" {
			kind = "resource"
		}
		parts := strings.Split(name, ".")
		typ, rname := parts[len(parts)-2], parts[len(parts)-1]
		suffix := ""
		if what == "check data" {
			mode, kind, suffix = "data", "data resource", ", including within check blocks"
		}
		d.Summary = fmt.Sprintf("Duplicate %s %q configuration", mode, typ)
		d.Detail = fmt.Sprintf("A %s %s named %q was already declared at %s. Resource names must be unique per type in each module%s.", typ, kind, rname, prev, suffix)
	default:
		d.Summary = fmt.Sprintf("Duplicate %s", what)
		d.Detail = fmt.Sprintf("A %s named %q was already declared at %s. Names must be unique within a module.", what, name, prev)
	}
	return d
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

package configs

import (
	"fmt"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/encryption"
)

// VersionConstraint is a parsed version constraint with its source range.
type VersionConstraint struct {
	Required  version.Constraints
	DeclRange hcl.Range
}

// RequiredProvider is one entry of required_providers.
type RequiredProvider struct {
	Name        string
	Source      addrs.Provider
	Requirement VersionConstraint
	// ConfigurationAliases are the aliased configurations of this provider
	// the module expects its callers to pass in.
	ConfigurationAliases []ProviderRef
	DeclRange            hcl.Range
}

// Backend is a `backend` block inside the terraform block; its body is
// decoded by the chosen backend.
type Backend struct {
	Type      string
	Config    hcl.Body
	DeclRange hcl.Range
}

var terraformBlockSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "required_version"},
		{Name: "experiments"},
		{Name: "language"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "required_providers"},
		{Type: "backend", LabelNames: []string{"type"}},
		{Type: "cloud"},
		{Type: "encryption"},
		{Type: "provider_meta", LabelNames: []string{"provider"}},
	},
}

func (m *Module) loadTerraformBlock(block *hcl.Block) hcl.Diagnostics {
	content, diags := block.Body.Content(terraformBlockSchema)
	if attr, ok := content.Attributes["required_version"]; ok {
		vc, vdiags := decodeVersionConstraint(attr)
		diags = append(diags, vdiags...)
		if !vdiags.HasErrors() {
			m.RequiredVersions = append(m.RequiredVersions, vc)
		}
	}
	diags = append(diags, checkLanguageAndExperiments(content)...)
	for _, b := range content.Blocks {
		switch b.Type {
		case "required_providers":
			if m.requiredProvidersRange != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate required providers configuration",
					Detail:   fmt.Sprintf("A module may have only one required_providers block; one was already given at %s.", m.requiredProvidersRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			m.requiredProvidersRange = b.DefRange.Ptr()
			diags = append(diags, m.loadRequiredProviders(b)...)
		case "backend":
			if m.Backend != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate backend configuration",
					Detail:   fmt.Sprintf("A module may have only one backend configuration; one was already given at %s.", m.Backend.DeclRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			m.Backend = &Backend{Type: b.Labels[0], Config: b.Body, DeclRange: b.DefRange}
		case "encryption":
			if m.Encryption != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Duplicate encryption configuration",
					Detail:   fmt.Sprintf("A module may have only one encryption configuration; one was already given at %s.", m.Encryption.DeclRange),
					Subject:  b.DefRange.Ptr(),
				})
				continue
			}
			enc, ediags := encryption.Decode(b.Body, b.DefRange)
			diags = append(diags, ediags...)
			m.Encryption = enc
		case "cloud":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "HCP Terraform is not supported",
				Detail:   "strata does not support the cloud block. Use a backend block with a supported backend instead.",
				Subject:  b.DefRange.Ptr(),
			})
		}
	}
	return diags
}

func decodeVersionConstraint(attr *hcl.Attribute) (VersionConstraint, hcl.Diagnostics) {
	ret := VersionConstraint{DeclRange: attr.Range}
	var s string
	diags := gohcl.DecodeExpression(attr.Expr, nil, &s)
	if diags.HasErrors() {
		return ret, diags
	}
	c, err := version.NewConstraint(s)
	if err != nil {
		return ret, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid version constraint",
			Detail:   fmt.Sprintf("%q is not a valid version constraint: %s.", s, err),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	ret.Required = c
	return ret, nil
}

func (m *Module) loadRequiredProviders(block *hcl.Block) hcl.Diagnostics {
	attrs, diags := block.Body.JustAttributes()
	for name, attr := range attrs {
		if ndiags := checkProviderLocalName(name, attr.Expr.Range()); ndiags.HasErrors() {
			diags = append(diags, ndiags...)
			continue
		}
		rp := &RequiredProvider{Name: name, Source: addrs.NewDefaultProvider(name), DeclRange: attr.Range}
		if name == "terraform" {
			rp.Source = addrs.NewBuiltInProvider("terraform")
		}
		pairs, mdiags := hcl.ExprMap(attr.Expr)
		if mdiags.HasErrors() {
			// Not an object: the legacy form NAME = "VERSION".
			v, vdiags := attr.Expr.Value(nil)
			if vdiags.HasErrors() {
				diags = append(diags, vdiags...)
				continue
			}
			if v.Type() != cty.String || v.IsNull() {
				diags = append(diags, invalidAttr(attr, "Invalid required_providers entry", "Each entry must be an object with source and version attributes."))
				continue
			}
			c, err := version.NewConstraint(v.AsString())
			if err != nil {
				diags = append(diags, invalidAttr(attr, "Invalid version constraint", err.Error()))
				continue
			}
			rp.Requirement = VersionConstraint{Required: c, DeclRange: attr.Range}
			m.RequiredProviders[name] = rp
			continue
		}
		valid := true
		for _, kv := range pairs {
			key, kdiags := kv.Key.Value(nil)
			if kdiags.HasErrors() || key.Type() != cty.String || key.IsNull() {
				diags = append(diags, invalidRequiredProvidersObject(kv.Key))
				valid = false
				continue
			}
			switch key.AsString() {
			case "source":
				src, sdiags := kv.Value.Value(nil)
				if sdiags.HasErrors() || src.Type() != cty.String || src.IsNull() {
					diags = append(diags, invalidAttr(attr, "Invalid provider source", "source must be a string."))
					valid = false
					continue
				}
				p, err := addrs.ParseProviderSource(src.AsString())
				if err != nil {
					diags = append(diags, invalidAttr(attr, "Invalid provider source", err.Error()))
					valid = false
					continue
				}
				rp.Source = p
			case "version":
				ver, vdiags := kv.Value.Value(nil)
				if vdiags.HasErrors() || ver.Type() != cty.String || ver.IsNull() {
					diags = append(diags, invalidAttr(attr, "Invalid version constraint", "version must be a string."))
					valid = false
					continue
				}
				c, err := version.NewConstraint(ver.AsString())
				if err != nil {
					diags = append(diags, invalidAttr(attr, "Invalid version constraint", err.Error()))
					valid = false
					continue
				}
				rp.Requirement = VersionConstraint{Required: c, DeclRange: attr.Range}
			case "configuration_aliases":
				// Provider configurations a parent module passes in
				// (NAME.ALIAS).
				exprs, ediags := hcl.ExprList(kv.Value)
				diags = append(diags, ediags...)
				for _, e := range exprs {
					// Unlike provider arguments, the quoted form is not
					// accepted here, as in Terraform.
					if _, tdiags := hcl.AbsTraversalForExpr(e); tdiags.HasErrors() {
						diags = append(diags, tdiags...)
						valid = false
						continue
					}
					ref, rdiags := decodeProviderRef(e)
					if d := noProviderKey(ref, "A configuration alias"); d != nil {
						rdiags = append(rdiags, d)
					}
					diags = append(diags, rdiags...)
					if rdiags.HasErrors() {
						valid = false
						continue
					}
					rp.ConfigurationAliases = append(rp.ConfigurationAliases, *ref)
				}
			default:
				diags = append(diags, invalidRequiredProvidersObject(kv.Key))
				valid = false
			}
		}
		if valid {
			m.RequiredProviders[name] = rp
		}
	}
	return diags
}

func invalidRequiredProvidersObject(key hcl.Expression) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid required_providers object",
		Detail:   `A required_providers entry may contain only the attributes "source", "version" and "configuration_aliases". Provider settings belong in a "provider" block.`,
		Subject:  key.Range().Ptr(),
	}
}

func invalidAttr(attr *hcl.Attribute, summary, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: attr.Expr.Range().Ptr()}
}

// ProviderForLocalName returns the provider address a local provider name
// stands for in this module: from required_providers, or the default
// implied one (terraform is always the built-in provider).
func (m *Module) ProviderForLocalName(name string) addrs.Provider {
	if rp, ok := m.RequiredProviders[name]; ok {
		return rp.Source
	}
	if name == "terraform" {
		return addrs.NewBuiltInProvider("terraform")
	}
	return addrs.NewDefaultProvider(name)
}

// checkLanguageAndExperiments checks the terraform block's language and
// experiments arguments as a release of Terraform 1.11 does: the only
// language edition is TF2021, written as a bare keyword, and experiments
// are for alpha releases only.
func checkLanguageAndExperiments(content *hcl.BodyContent) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if attr, ok := content.Attributes["language"]; ok {
		switch kw := hcl.ExprAsKeyword(attr.Expr); kw {
		case "TF2021":
		case "":
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid language edition",
				Detail:   "The language argument expects a bare language edition keyword. strata supports only language edition TF2021, which is the default.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported language edition",
				Detail:   "strata only supports language edition TF2021. This module requires a newer version of strata.",
				Subject:  attr.Expr.Range().Ptr(),
			})
		}
	}
	if attr, ok := content.Attributes["experiments"]; ok {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Module uses experimental features",
			Detail:   "Experimental features are intended only for gathering early feedback on new language designs, and so are available only in alpha releases of Terraform.",
			Subject:  attr.NameRange.Ptr(),
		})
	}
	return diags
}

package backend

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// Block is a configuration's backend block, undecoded.
type Block struct {
	Type  string
	Body  hcl.Body
	Range hcl.Range
}

// Decode checks the block and returns its configuration, before any
// -backend-config options.
func (b *Block) Decode() (*Config, hcl.Diagnostics) {
	return DecodeBlock(b.Type, b.Body, b.Range)
}

// Resolve returns the backend configuration commands other than init use:
// the one init recorded at savedPath, as long as block (nil: none) still
// matches it. nil is the default local backend.
//
// A backend block init never recorded is an error until init has run, as
// in Terraform: tools rely on commands failing in a directory that was
// never initialised.
func Resolve(savedPath string, block *Block) (*Config, hcl.Diagnostics) {
	saved, diags := ReadSaved(savedPath)
	if diags.HasErrors() {
		return nil, diags
	}
	if block == nil {
		if saved != nil {
			return nil, initRequired(",", fmt.Sprintf("Unsetting the previously set backend %q", saved.Type))
		}
		return nil, nil
	}
	cfg, cdiags := block.Decode()
	diags = append(diags, cdiags...)
	if cdiags.HasErrors() {
		return nil, diags
	}
	if saved == nil {
		return nil, append(diags, initRequired(",", fmt.Sprintf("Initial configuration of the requested backend %q", cfg.Type))...)
	}
	if saved.Type != cfg.Type {
		return nil, append(diags, initRequired(":", fmt.Sprintf("Backend type changed from %q to %q", saved.Type, cfg.Type))...)
	}
	cached, err := saved.Value()
	if err == nil && (saved.Hash == cfg.Hash || cached.Equals(cfg.Value).True()) {
		cfg.Value = cached
		return cfg, diags
	}
	return nil, append(diags, initRequired(":", "Backend configuration block has changed")...)
}

// initRequired is Terraform's error for a backend configuration that init
// has not recorded. Terraform words it two ways: "please run" follows a
// comma for a first configuration or an unset backend, and a colon for a
// changed one.
func initRequired(sep, reason string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Backend initialization required" + sep + " please run \"strata init\"",
		Detail: "Reason: " + reason + `

The "backend" is the interface that strata uses to store state,
perform operations, etc. If this message is showing up, it means that the
strata configuration you're using is using a custom configuration for
the strata backend.

Changes to backend configurations require reinitialization. This allows
strata to set up the new configuration, copy existing state, etc. Please run
"strata init" with either the "-reconfigure" or "-migrate-state" flags to
use the current configuration.

If the change reason above is incorrect, please verify your configuration
hasn't changed and try again. At this point, no changes to your existing
configuration or state have been made.`,
	}}
}

package providercache

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
)

// EnsureProviders installs every provider cfg needs, skipping built-in
// providers, those with a development override and the unmanaged ones
// (already running, handed over by TF_REATTACH_PROVIDERS), whose lock
// entries are kept as they were, and returns the new lock entries.
//
// As in Terraform, it goes in phases: first the built-in providers are
// reported, then every provider's version is selected (querying the
// sources), then the selected versions are installed. A provider that
// fails does not stop the others; the diagnostics report every failure.
// When every provider is installed and one was signed by its developer
// rather than HashiCorp, a note about signing ends the log, as in
// Terraform.
func (in *Installer) EnsureProviders(ctx context.Context, cfg *configs.Config, locks depsfile.Locks, devOverrides map[addrs.Provider]string) (depsfile.Locks, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	newLocks := depsfile.Locks{}
	var managed []addrs.Provider
	for _, p := range NeededProviders(cfg) {
		if p.IsBuiltIn() {
			in.log(fmt.Sprintf("- %s is built in to strata\n", p.String()), p.String()+" is built in to strata")
			continue
		}
		if in.Unmanaged[p] {
			// As Terraform: nothing to install and nothing said.
			if old := locks[p]; old != nil {
				newLocks[p] = old
			}
			continue
		}
		if dir, ok := devOverrides[p]; ok {
			in.log(fmt.Sprintf("- Skipping %s: development override in %s\n", p.ForDisplay(), dir), fmt.Sprintf("%s: Skipping, development override in %s", p.ForDisplay(), dir))
			if old := locks[p]; old != nil {
				newLocks[p] = old
			}
			continue
		}
		managed = append(managed, p)
	}
	var selected []*selection
	for _, p := range managed {
		constraints, cstr, cdiags := Constraints(cfg, p)
		diags = append(diags, cdiags...)
		if cdiags.HasErrors() {
			continue
		}
		sel, qdiags := in.query(ctx, p, constraints, cstr, locks[p])
		diags = append(diags, qdiags...)
		if !qdiags.HasErrors() {
			selected = append(selected, sel)
		}
	}
	for _, sel := range selected {
		nl, idiags := in.install(ctx, sel)
		diags = append(diags, idiags...)
		if !idiags.HasErrors() {
			newLocks[sel.provider] = nl
		}
	}
	if in.community && !diags.HasErrors() {
		const partner = "Partner and community providers are signed by their developers.\n" +
			"If you'd like to know more about provider signing, you can read about it here:\n" +
			"https://developer.hashicorp.com/terraform/cli/plugins/signing"
		in.log("\n"+partner+"\n", partner)
	}
	return newLocks, diags
}

// LocksChanged reports whether the lock entries differ: another set of
// providers, or a provider with another version, constraints or set of
// checksums.
func LocksChanged(old, new depsfile.Locks) bool {
	if len(old) != len(new) {
		return true
	}
	for p, nl := range new {
		ol := old[p]
		if ol == nil || ol.Version != nl.Version || ol.Constraints != nl.Constraints || !sameHashes(ol.Hashes, nl.Hashes) {
			return true
		}
	}
	return false
}

// SameSelections reports whether the lock entries select the same
// providers at the same versions, whatever their checksums.
func SameSelections(old, new depsfile.Locks) bool {
	if len(old) != len(new) {
		return false
	}
	for p, nl := range new {
		if ol := old[p]; ol == nil || ol.Version != nl.Version {
			return false
		}
	}
	return true
}

func sameHashes(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	set := map[string]bool{}
	for _, h := range a {
		set[h] = true
	}
	for _, h := range b {
		if !set[h] {
			return false
		}
	}
	return true
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

func errorDiag(summary string, err error) hcl.Diagnostics {
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: err.Error()}}
}

package providercache

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
)

// The dependency lock file (.terraform.lock.hcl) as commands check it
// before they start providers, and as init records it.

// Uninstalled lists, as Terraform does before it starts any provider, the
// providers locks selects whose package is not installed, or is installed
// but matches none of the lock's h1: checksums (altered since init):
// installed returns a provider version's package directory ("" when it is
// not installed), and skip reports the providers that need no package
// (reattached, development overrides). Built-in providers are skipped too.
// dir is the providers directory, for the messages.
func Uninstalled(locks depsfile.Locks, installed func(p addrs.Provider, version string) string, skip func(addrs.Provider) bool, dir string) []string {
	var problems []string
	for _, p := range sortedProviders(providerSet(locks)) {
		l := locks[p]
		if p.IsBuiltIn() || skip(p) {
			continue
		}
		pkg := installed(p, l.Version)
		if pkg == "" {
			problems = append(problems, fmt.Sprintf("%s: there is no package for %s %s cached in %s", p, p, l.Version, dir))
			continue
		}
		if !matchesLock(pkg, l) {
			problems = append(problems, fmt.Sprintf("%s: the cached package for %s %s (in %s) does not match any of the checksums recorded in the dependency lock file", p, p, l.Version, dir))
		}
	}
	return problems
}

// matchesLock reports whether the package directory pkg matches one of the
// h1: checksums of l; a lock that records none cannot be checked.
func matchesLock(pkg string, l *depsfile.Lock) bool {
	checkable := false
	for _, h := range l.Hashes {
		checkable = checkable || strings.HasPrefix(h, "h1:")
	}
	if !checkable {
		return true
	}
	h, err := getproviders.Hash(pkg)
	return err == nil && l.HasHash(h)
}

func providerSet(locks depsfile.Locks) map[addrs.Provider]bool {
	out := make(map[addrs.Provider]bool, len(locks))
	for p := range locks {
		out[p] = true
	}
	return out
}

// UninstalledDiags reports Uninstalled's problems as the commands that
// open the backend's state do (plan, apply, output, state list...); nil
// when there are none. In automation (TF_IN_AUTOMATION), as in Terraform,
// the advice does not name a command to run.
func UninstalledDiags(problems []string, automation bool) hcl.Diagnostics {
	if len(problems) == 0 {
		return nil
	}
	advice := "To download the plugins required for this configuration, run:\n  strata init"
	if automation {
		advice = "You must install the required plugins before running strata operations."
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Required plugins are not installed",
		Detail:   "The installed provider plugins are not consistent with the packages selected in the dependency lock file:\n  - " + strings.Join(problems, "\n  - ") + "\n\nstrata uses external plugins to integrate with a variety of different infrastructure services. " + advice,
	}}
}

// UninstalledEach reports each of Uninstalled's problems as an error of
// its own, with no detail, as Terraform does where it needs the providers'
// schemas without opening the backend (show FILE, test) and before it
// applies a saved plan.
func UninstalledEach(problems []string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, problem := range problems {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: problem})
	}
	return diags
}

// CheckLocks reports, as Terraform does before plan, apply, refresh,
// destroy, import and console, the providers cfg needs that locks selects
// no version of, or a version its constraints no longer allow. Built-in
// providers and those skip reports (reattached ones, development
// overrides) need no selection.
func CheckLocks(cfg *configs.Config, locks depsfile.Locks, skip func(addrs.Provider) bool) hcl.Diagnostics {
	problems := lockProblems(cfg, locks, skip)
	if len(problems) == 0 {
		return nil
	}
	advice := "To update the locked dependency selections to match a changed configuration, run:\n  strata init -upgrade"
	if len(locks) == 0 {
		advice = "To make the initial dependency selections that will initialize the dependency lock file, run:\n  strata init"
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Inconsistent dependency lock file",
		Detail:   "The following dependency selections recorded in the lock file are inconsistent with the current configuration:\n  - " + strings.Join(problems, "\n  - ") + "\n\n" + advice,
	}}
}

// CheckMirrorLocks reports, as Terraform's providers mirror does before it
// starts, the providers cfg needs that the lock file selects no version
// of, or a version their constraints no longer allow, in that command's
// words. Without a lock file (locks empty) there is nothing to check.
func CheckMirrorLocks(cfg *configs.Config, locks depsfile.Locks) hcl.Diagnostics {
	if len(locks) == 0 {
		return nil
	}
	problems := lockProblems(cfg, locks, func(addrs.Provider) bool { return false })
	if len(problems) == 0 {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Inconsistent dependency lock file",
		Detail:   "To update the locked dependency selections to match a changed configuration, run:\n  strata init -upgrade\n got:[" + strings.Join(problems, " ") + "]",
	}}
}

// CheckSavedPlanLocks reports, as Terraform does before it applies a saved
// plan, the providers the plan's configuration cfg needs that the current
// lock file (locks) selects no version of or a version its constraints do
// not allow, and whether the lock file selects other providers or versions
// than the one the plan was made with (planLocks).
func CheckSavedPlanLocks(cfg *configs.Config, locks, planLocks depsfile.Locks, skip func(addrs.Provider) bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if problems := lockProblems(cfg, locks, skip); len(problems) > 0 {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Inconsistent dependency lock file",
			Detail:   "The following dependency selections recorded in the lock file are inconsistent with the configuration in the saved plan:\n  - " + strings.Join(problems, "\n  - ") + "\n\nA saved plan can be applied only to the same configuration it was created from. Create a new plan from the updated configuration.",
		})
	}
	if !SameSelections(planLocks, locks) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Inconsistent dependency lock file",
			Detail:   "The given plan file was created with a different set of external dependency selections than the current configuration. A saved plan can be applied only to the same configuration it was created from.\n\nCreate a new plan from the updated configuration.",
		})
	}
	return diags
}

// lockProblems lists what CheckLocks reports.
func lockProblems(cfg *configs.Config, locks depsfile.Locks, skip func(addrs.Provider) bool) []string {
	var problems []string
	for _, p := range NeededProviders(cfg) {
		if p.IsBuiltIn() || skip(p) {
			continue
		}
		lock := locks[p]
		if lock == nil {
			problems = append(problems, fmt.Sprintf("provider %s: required by this configuration but no version is selected", p))
			continue
		}
		constraints, cstr, _ := Constraints(cfg, p)
		v, err := version.NewVersion(lock.Version)
		if err == nil && len(constraints) > 0 && !constraints.Check(v) {
			problems = append(problems, fmt.Sprintf("provider %s: locked version selection %s doesn't match the updated version constraints %q", p, lock.Version, cstr))
		}
	}
	return problems
}

// LockUpdate is what SaveLocks did with the lock file.
type LockUpdate int

const (
	// LocksUnchanged: the selections are those of the file, which is
	// left alone.
	LocksUnchanged LockUpdate = iota
	// LocksCreated: the file was written for the first time.
	LocksCreated
	// LocksUpdated: the file was rewritten with other selections or
	// checksums.
	LocksUpdated
	// LocksNotSaved: the selections differ, and the file is read-only.
	LocksNotSaved
)

// SaveLocks records newLocks, init's selections, in the lock file at path,
// which held old. With readonly (-lockfile=readonly) the file is left as
// it is: another selection is an error, new checksums only a warning, as
// in Terraform.
func SaveLocks(path string, old, newLocks depsfile.Locks, readonly bool) (LockUpdate, hcl.Diagnostics) {
	if !LocksChanged(old, newLocks) {
		return LocksUnchanged, nil
	}
	if readonly {
		if !SameSelections(old, newLocks) {
			return LocksNotSaved, hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Provider dependency changes detected",
				Detail:   "Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"strata init\" without the \"-lockfile=readonly\" flag.",
			}}
		}
		return LocksNotSaved, hcl.Diagnostics{{
			Severity: hcl.DiagWarning,
			Summary:  "Provider lock file not updated",
			Detail:   "Changes to the provider selections were detected, but not saved in the .terraform.lock.hcl file. To record these selections, run \"strata init\" without the \"-lockfile=readonly\" flag.",
		}}
	}
	if err := depsfile.Save(path, newLocks); err != nil {
		return LocksUnchanged, errorDiag("Failed to write the dependency lock file", err)
	}
	if len(old) == 0 {
		return LocksCreated, nil
	}
	return LocksUpdated, nil
}

// IncompleteLockWarning is Terraform's warning that the lock file only
// has checksums for this platform for the providers the installer
// installed from a mirror or a directory, which strata on other platforms
// cannot verify; nil when there are none.
func (in *Installer) IncompleteLockWarning(locks depsfile.Locks) hcl.Diagnostics {
	var names []string
	for _, p := range in.incomplete {
		if locks[p] != nil {
			names = append(names, "  - "+p.ForDisplay())
		}
	}
	if len(names) == 0 {
		return nil
	}
	// As in Terraform, by the names shown (hashicorp/null before
	// i.com/acme/ii).
	sort.Strings(names)
	platform := getproviders.Platform()
	return hcl.Diagnostics{{
		Severity: hcl.DiagWarning,
		Summary:  "Incomplete lock file information for providers",
		Detail: fmt.Sprintf("Due to your customized provider installation methods, strata was forced to calculate lock file checksums locally for the following providers:\n%s\n\n"+
			"The current .terraform.lock.hcl file only includes checksums for %s, so strata running on another platform will fail to install these providers.\n\n"+
			"To calculate additional checksums for another platform, run:\n  strata providers lock -platform=%s\n(where %s is the platform to generate)",
			strings.Join(names, "\n"), platform, platform, platform),
	}}
}

// Missing reports, as Terraform's validation does before it starts, each
// provider cfg needs that is not available (built-in providers always
// are).
func Missing(cfg *configs.Config, available func(addrs.Provider) bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range NeededProviders(cfg) {
		if p.IsBuiltIn() || available(p) {
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required provider",
			Detail:   fmt.Sprintf("This configuration requires provider %s, but that provider isn't available. You may be able to install it automatically by running:\n  strata init", p),
		})
	}
	return diags
}

package views

import (
	"encoding/json"
	"fmt"
	"sort"
)

// VersionInfo is what `strata version` reports.
type VersionInfo struct {
	Strata, Terraform, Platform string
	// Providers are the versions the dependency lock file selects, by
	// provider address.
	Providers map[string]string
}

// Version is the view of `strata version`.
type Version interface {
	Show(info VersionInfo) error
}

// NewVersion returns the JSON view when json is set, else the human one.
func NewVersion(json bool, v *View) Version {
	if json {
		return &VersionJSON{View: v}
	}
	return &VersionHuman{View: v}
}

// VersionHuman prints the versions and the selected providers.
type VersionHuman struct{ *View }

var _ Version = (*VersionHuman)(nil)

// Show implements Version.
func (h *VersionHuman) Show(info VersionInfo) error {
	lines := make([]string, 0, len(info.Providers))
	for p, v := range info.Providers {
		lines = append(lines, fmt.Sprintf("+ provider %s v%s\n", p, v))
	}
	sort.Strings(lines)
	h.Raw(fmt.Sprintf("strata v%s\n(implements Terraform v%s)\non %s\n", info.Strata, info.Terraform, info.Platform))
	for _, l := range lines {
		h.Raw(l)
	}
	return nil
}

// VersionJSON prints the version object of `version -json`.
type VersionJSON struct{ *View }

var _ Version = (*VersionJSON)(nil)

// Show implements Version.
func (j *VersionJSON) Show(info VersionInfo) error {
	enc := json.NewEncoder(j.Stdout)
	enc.SetIndent("", "  ")
	// Terraform's members in Terraform's order, strata's own last.
	return enc.Encode(struct {
		Terraform string            `json:"terraform_version"`
		Platform  string            `json:"platform"`
		Providers map[string]string `json:"provider_selections"`
		Outdated  bool              `json:"terraform_outdated"`
		Strata    string            `json:"strata_version"`
	}{info.Terraform, info.Platform, info.Providers, false, info.Strata})
}

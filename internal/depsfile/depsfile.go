// Package depsfile reads and writes the dependency lock file,
// .terraform.lock.hcl, in exactly the form Terraform writes it: one
// provider block per provider with its selected version, the version
// constraints it was chosen under, and the checksums of its packages.
//
// It imports addrs.
package depsfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// FileName is the lock file's name in the working directory.
const FileName = ".terraform.lock.hcl"

// Lock is one provider's entry.
type Lock struct {
	Provider addrs.Provider
	Version  string
	// Constraints is the version constraint string it was selected under,
	// or "".
	Constraints string
	// Hashes are checksums such as "h1:..." and "zh:...", sorted.
	Hashes []string
}

// HasHash reports whether h is one of the lock's checksums.
func (l *Lock) HasHash(h string) bool {
	for _, have := range l.Hashes {
		if have == h {
			return true
		}
	}
	return false
}

// Locks maps providers to their entries.
type Locks map[addrs.Provider]*Lock

// Load reads a lock file. A missing file is an empty set of locks.
func Load(path string) (Locks, hcl.Diagnostics) { return LoadIn("", path) }

// LoadIn is Load for a path relative to the directory dir (empty: the
// process's working directory); diagnostics name the path as given.
func LoadIn(dir, path string) (Locks, hcl.Diagnostics) {
	locks := Locks{}
	file := path
	if dir != "" && !filepath.IsAbs(path) {
		file = filepath.Join(dir, path)
	}
	src, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return locks, nil
	}
	if err != nil {
		return locks, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to read dependency lock file", Detail: err.Error()}}
	}
	return Parse(src, path)
}

// Parse reads the content of a lock file (such as the copy a saved plan
// holds); filename names it in diagnostics. Empty content is an empty set
// of locks.
func Parse(src []byte, filename string) (Locks, hcl.Diagnostics) {
	locks := Locks{}
	f, diags := hclparse.NewParser().ParseHCL(src, filename)
	if diags.HasErrors() {
		return locks, diags
	}
	content, cdiags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "provider", LabelNames: []string{"source"}}}})
	diags = append(diags, cdiags...)
	for _, b := range content.Blocks {
		p, err := addrs.ParseProviderSource(b.Labels[0])
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid provider source address", Detail: err.Error(), Subject: b.LabelRanges[0].Ptr()})
			continue
		}
		attrs, adiags := b.Body.JustAttributes()
		diags = append(diags, adiags...)
		l := &Lock{Provider: p}
		for name, a := range attrs {
			v, vdiags := a.Expr.Value(nil)
			diags = append(diags, vdiags...)
			if vdiags.HasErrors() {
				continue
			}
			switch name {
			case "version", "constraints":
				if v.Type() != cty.String || v.IsNull() {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid " + name, Detail: "A string is required.", Subject: a.Expr.Range().Ptr()})
					continue
				}
				if name == "version" {
					l.Version = v.AsString()
				} else {
					l.Constraints = v.AsString()
				}
			case "hashes":
				if !v.CanIterateElements() {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid hashes", Detail: "A list of strings is required.", Subject: a.Expr.Range().Ptr()})
					continue
				}
				for it := v.ElementIterator(); it.Next(); {
					_, h := it.Element()
					if h.Type() == cty.String && !h.IsNull() {
						l.Hashes = append(l.Hashes, h.AsString())
					}
				}
			}
		}
		locks[p] = l
	}
	return locks, diags
}

// Save writes locks as Terraform does: providers sorted by address,
// hashes sorted, the header comment first.
func Save(path string, locks Locks) error {
	var b strings.Builder
	b.WriteString("# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n")
	ps := make([]addrs.Provider, 0, len(locks))
	for p := range locks {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].String() < ps[j].String() })
	for _, p := range ps {
		l := locks[p]
		fmt.Fprintf(&b, "\nprovider %q {\n", p.String())
		if l.Constraints != "" {
			// hclwrite aligns the equals signs of adjacent attributes.
			fmt.Fprintf(&b, "  version     = %q\n  constraints = %q\n", l.Version, l.Constraints)
		} else {
			fmt.Fprintf(&b, "  version = %q\n", l.Version)
		}
		hashes := append([]string(nil), l.Hashes...)
		sort.Strings(hashes)
		b.WriteString("  hashes = [\n")
		for _, h := range hashes {
			fmt.Fprintf(&b, "    %q,\n", h)
		}
		b.WriteString("  ]\n}\n")
	}
	out := b.String()
	return os.WriteFile(path, []byte(out), 0o644)
}

package providercache

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
)

// Mirrorer copies provider packages into a directory in the packed layout
// with the JSON index files of the network mirror protocol, as "providers
// mirror" does: HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip,
// HOST/NAMESPACE/TYPE/index.json and HOST/NAMESPACE/TYPE/VERSION.json. The
// directory then works as a filesystem mirror, or, served over HTTPS, as
// a network mirror.
type Mirrorer struct {
	Source getproviders.Source
	Client *http.Client
	// Dir is the target directory, as the user gave it (messages name it
	// so).
	Dir string
	// WorkDir is what a relative Dir is relative to (empty: the
	// process's working directory).
	WorkDir string
	// Platforms are the OS_ARCH platforms to mirror.
	Platforms []string
	// Log reports one progress line, as Installer.Log.
	Log func(human, plain string)
}

// dir is the target directory to write in.
func (m *Mirrorer) dir() string {
	if m.WorkDir == "" || filepath.IsAbs(m.Dir) {
		return m.Dir
	}
	return filepath.Join(m.WorkDir, m.Dir)
}

func (m *Mirrorer) log(format string, args ...any) {
	if m.Log != nil {
		line := fmt.Sprintf(format, args...)
		m.Log(line+"\n", strings.TrimSpace(line))
	}
}

// MirrorAll mirrors every provider cfg needs but the built-in ones, as
// "providers mirror" does: the version locks selects when it has one,
// else the newest the configuration allows. It stops at the first
// provider that fails.
func (m *Mirrorer) MirrorAll(ctx context.Context, cfg *configs.Config, locks depsfile.Locks) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range NeededProviders(cfg) {
		if p.IsBuiltIn() {
			continue
		}
		constraints, cstr, cdiags := Constraints(cfg, p)
		if cdiags.HasErrors() {
			return append(diags, cdiags...)
		}
		var locked *version.Version
		if l := locks[p]; l != nil {
			locked, _ = version.NewVersion(l.Version)
		}
		// As Terraform, a provider that fails does not stop the others.
		if err := m.Mirror(ctx, p, constraints, cstr, locked); err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Provider not available",
				Detail:   fmt.Sprintf("Failed to download %s from its origin registry: %s.", p.String(), strings.TrimSuffix(err.Error(), ".")),
			})
		}
	}
	// Terraform then indexes what the output directory holds, and
	// fails when nothing made it (a provider failed, or the
	// configuration needs none).
	if _, err := os.Lstat(m.dir()); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = &os.PathError{Op: pe.Op, Path: m.Dir, Err: pe.Err}
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Failed to update indexes",
			Detail:   fmt.Sprintf("Could not scan the output directory to get package metadata for the JSON indexes: cannot search %s: %s.", m.Dir, err),
		})
	}
	return diags
}

// Mirror selects a version of p (locked, when set, else the newest that
// constraints allow) and mirrors its packages for every platform.
func (m *Mirrorer) Mirror(ctx context.Context, p addrs.Provider, constraints version.Constraints, cstr string, locked *version.Version) error {
	m.log("- Mirroring %s...", p.ForDisplay())
	// As Terraform, the versions are asked for a locked provider too.
	available, _, err := m.Source.AvailableVersions(ctx, p)
	if err != nil {
		return err
	}
	selected := locked
	if selected != nil {
		m.log("  - Selected v%s to match dependency lock file", selected)
	} else {
		if selected = selectVersion(available, constraints, nil); selected == nil {
			return fmt.Errorf("no available releases match the given constraints %s", cstr)
		}
		if cstr == "" {
			m.log("  - Selected v%s with no constraints", selected)
		} else {
			m.log("  - Selected v%s to meet constraints %s", selected, cstr)
		}
	}
	base := filepath.Join(m.dir(), p.Hostname, p.Namespace, p.Type)
	if err := os.MkdirAll(base, 0o755); err != nil {
		return err
	}
	for _, platform := range m.Platforms {
		m.log("  - Downloading package for %s...", platform)
		meta, err := m.Source.PackageMeta(ctx, p, selected, platform)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("terraform-provider-%s_%s_%s.zip", p.Type, selected, platform)
		target := filepath.Join(base, name)
		if meta.Dir != "" {
			if err := zipDir(meta.Dir, target); err != nil {
				return err
			}
		} else {
			archive, res, err := getproviders.FetchArchive(ctx, m.Client, meta)
			if err != nil {
				return err
			}
			err = moveFile(archive, target)
			os.Remove(archive)
			if err != nil {
				return err
			}
			if res.Summary != "unauthenticated" {
				summary, _, _ := strings.Cut(res.Summary, ", key ID")
				m.log("  - Package authenticated: %s", summary)
			}
		}
		h1, err := getproviders.ArchiveHash(target)
		if err != nil {
			return err
		}
		if err := addArchive(filepath.Join(base, selected.String()+".json"), platform, name, h1); err != nil {
			return err
		}
	}
	return addVersion(filepath.Join(base, "index.json"), selected.String())
}

// addArchive records an archive in a VERSION.json document.
func addArchive(path, platform, name, h1 string) error {
	type archive struct {
		Hashes []string `json:"hashes"`
		URL    string   `json:"url"`
	}
	var doc struct {
		Archives map[string]archive `json:"archives"`
	}
	if src, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(src, &doc)
	}
	if doc.Archives == nil {
		doc.Archives = map[string]archive{}
	}
	doc.Archives[platform] = archive{Hashes: []string{h1}, URL: name}
	return writeJSON(path, doc)
}

// addVersion records a version in an index.json document.
func addVersion(path, v string) error {
	var doc struct {
		Versions map[string]struct{} `json:"versions"`
	}
	if src, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(src, &doc)
	}
	if doc.Versions == nil {
		doc.Versions = map[string]struct{}{}
	}
	doc.Versions[v] = struct{}{}
	return writeJSON(path, doc)
}

func writeJSON(path string, v any) error {
	src, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, src, 0o644)
}

func moveFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// zipDir packs an unpacked package directory into a zip archive.
func zipDir(dir, target string) error {
	f, err := os.Create(target)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		hdr, err := zip.FileInfoHeader(info)
		if err != nil {
			return err
		}
		hdr.Name, hdr.Method = filepath.ToSlash(rel), zip.Deflate
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(w, src)
		return err
	})
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

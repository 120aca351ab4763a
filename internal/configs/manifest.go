package configs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/datadir"
)

// ManifestPath is where init records the installed modules, as Terraform
// does, with the default data directory: .terraform/modules/modules.json,
// relative to the working directory. ManifestPathIn names it in another
// data directory (TF_DATA_DIR).
func ManifestPath() string { return ManifestPathIn(datadir.Default) }

// ManifestPathIn is the module manifest in dataDir, the data directory as
// the user names it (relative to the working directory, or absolute).
func ManifestPathIn(dataDir string) string {
	return filepath.Join(dataDir, "modules", "modules.json")
}

// ModuleManifest is the content of modules.json: where each module call of
// the configuration was installed.
type ModuleManifest struct {
	Modules []ModuleRecord `json:"Modules"`
}

// ModuleRecord is one installed module. Key is the module path without
// "module." prefixes, joined with dots ("" for the root, "net.subnets"
// for module.net.module.subnets).
type ModuleRecord struct {
	Key     string `json:"Key"`
	Source  string `json:"Source"`
	Version string `json:"Version,omitempty"`
	Dir     string `json:"Dir"`
}

// ManifestKey returns the manifest key of a static module path.
func ManifestKey(p addrs.Module) string {
	return strings.Join(p, ".")
}

// Record returns the record for key. A nil manifest has none.
func (m *ModuleManifest) Record(key string) (ModuleRecord, bool) {
	if m == nil {
		return ModuleRecord{}, false
	}
	for _, r := range m.Modules {
		if r.Key == key {
			return r, true
		}
	}
	return ModuleRecord{}, false
}

// ReadModuleManifest reads a manifest file; a missing file is an empty
// manifest.
func ReadModuleManifest(path string) (*ModuleManifest, error) {
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return &ModuleManifest{}, nil
	}
	if err != nil {
		return nil, err
	}
	return parseModuleManifest(src)
}

func parseModuleManifest(src []byte) (*ModuleManifest, error) {
	var m ModuleManifest
	if err := json.Unmarshal(src, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// Marshal returns the manifest as Terraform writes it.
func (m *ModuleManifest) Marshal() ([]byte, error) {
	return json.Marshal(m)
}

func readFile(path string) ([]byte, error) { return os.ReadFile(path) }

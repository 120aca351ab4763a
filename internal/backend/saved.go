package backend

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/states/statemgr"
)

// As Terraform does, init records the backend configuration of a working
// directory in .terraform/terraform.tfstate (the "backend state file",
// format version 3), and later commands use the recorded configuration as
// long as the block is unchanged.

// savedFile is .terraform/terraform.tfstate as Terraform writes it.
type savedFile struct {
	Version          int    `json:"version"`
	TerraformVersion string `json:"terraform_version"`
	Backend          *Saved `json:"backend,omitempty"`
}

// Saved is the backend configuration init recorded.
type Saved struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
	Hash   uint64          `json:"hash"`
}

// ReadSaved reads the backend configuration recorded at path; nil when
// there is none.
func ReadSaved(path string) (*Saved, hcl.Diagnostics) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(strings.TrimSpace(string(data))) == 0) {
		return nil, nil
	}
	var f savedFile
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to load the backend state",
			Detail:   fmt.Sprintf("Error reading %s: %s. Run \"strata init -reconfigure\" to record the backend configuration again.", path, err),
		}}
	}
	if f.Backend == nil || f.Backend.Type == "" {
		return nil, nil
	}
	return f.Backend, nil
}

// Value decodes the recorded configuration with the type's schema.
func (s *Saved) Value() (cty.Value, error) {
	t, ok := Lookup(s.Type)
	if !ok {
		return cty.NilVal, fmt.Errorf("the backend %q is not supported by this version of strata", s.Type)
	}
	return ctyjson.Unmarshal(s.Config, cty.Object(t.Schema))
}

// Configured is the recorded configuration as a Config (with no range).
func (s *Saved) Configured() (*Config, error) {
	v, err := s.Value()
	if err != nil {
		return nil, err
	}
	return &Config{Type: s.Type, Value: v, Hash: s.Hash}, nil
}

// WriteSaved records c at path as the working directory's backend; nil
// records that there is none (the default local backend). version is
// the Terraform version recorded in the file.
func WriteSaved(path string, c *Config, version string) error {
	f := savedFile{Version: 3, TerraformVersion: version}
	if c != nil {
		raw, err := ctyjson.Marshal(c.Value, c.Value.Type())
		if err != nil {
			return err
		}
		f.Backend = &Saved{Type: c.Type, Config: raw, Hash: c.Hash}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return statemgr.WriteFileAtomic(path, data, 0o644)
}

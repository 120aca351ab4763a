package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// The backend configuration a working directory uses is the backend block
// merged with init's -backend-config options. As Terraform does, init
// records it in .terraform/terraform.tfstate (the "backend state file",
// format version 3), and later commands use the recorded configuration
// as long as the block is unchanged.

// backendStatePath is the file init records the backend configuration in,
// in the data directory (.terraform, or TF_DATA_DIR).
func backendStatePath() string { return datadir.Join("terraform.tfstate") }

// backendSchemas are the arguments of each backend type, with the types
// Terraform's schemas give them: the saved configuration and its hash
// cover exactly these, so that strata and Terraform agree on the file.
var backendSchemas = map[string]map[string]cty.Type{
	"local": {
		"path":          cty.String,
		"workspace_dir": cty.String,
	},
	"pg": {
		"conn_str":             cty.String,
		"schema_name":          cty.String,
		"skip_schema_creation": cty.Bool,
		"skip_table_creation":  cty.Bool,
		"skip_index_creation":  cty.Bool,
	},
	"inmem": {
		"lock_id": cty.String,
	},
	"http": {
		"address":                   cty.String,
		"update_method":             cty.String,
		"lock_address":              cty.String,
		"lock_method":               cty.String,
		"unlock_address":            cty.String,
		"unlock_method":             cty.String,
		"username":                  cty.String,
		"password":                  cty.String,
		"skip_cert_verification":    cty.Bool,
		"retry_max":                 cty.Number,
		"retry_wait_min":            cty.Number,
		"retry_wait_max":            cty.Number,
		"client_ca_certificate_pem": cty.String,
		"client_certificate_pem":    cty.String,
		"client_private_key_pem":    cty.String,
	},
}

// backendConfig is an effective backend configuration.
type backendConfig struct {
	Type string
	// Config is an object with every argument of the type's schema, null
	// where unset (the PG_* and TF_HTTP_* variables then apply).
	Config cty.Value
	// Hash is Terraform's hash of the backend block alone, without the
	// -backend-config options.
	Hash uint64
	// Range is the backend block, for diagnostics.
	Range hcl.Range
}

// attrs returns the arguments that are set.
func (b *backendConfig) attrs() map[string]cty.Value {
	out := map[string]cty.Value{}
	for name, v := range b.Config.AsValueMap() {
		if !v.IsNull() {
			out[name] = v
		}
	}
	return out
}

// typeName is the backend's type, "local" for the implicit default.
func (b *backendConfig) typeName() string {
	if b == nil {
		return "local"
	}
	return b.Type
}

func backendObjectType(schema map[string]cty.Type) cty.Type {
	return cty.Object(schema)
}

// backendObject makes the full configuration object from the arguments
// that are set.
func backendObject(schema map[string]cty.Type, set map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, ty := range schema {
		if v, ok := set[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(ty)
		}
	}
	return cty.ObjectVal(vals)
}

// backendHash is Terraform's hash of a backend block: cty's hash of the
// tuple of the type and the block decoded with every argument optional.
func backendHash(typ string, body hcl.Body, schema map[string]cty.Type) uint64 {
	spec := hcldec.ObjectSpec{}
	for name, ty := range schema {
		spec[name] = &hcldec.AttrSpec{Name: name, Type: ty}
	}
	val, _ := hcldec.Decode(body, spec, nil)
	if val == cty.NilVal {
		val = cty.UnknownVal(backendObjectType(schema))
	}
	return uint64(cty.TupleVal([]cty.Value{cty.StringVal(typ), val}).Hash())
}

// unsupportedBackend is the error for a backend type strata lacks.
func unsupportedBackend(typ string, rng *hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported backend type",
		Detail:   fmt.Sprintf("The backend %q is not supported by this version of strata. Supported backends: local, pg, http (and inmem, for testing).", typ),
		Subject:  rng,
	}
}

// decodeBackendBlock checks a backend block and returns its
// configuration, before any -backend-config options.
func decodeBackendBlock(b *configs.Backend) (*backendConfig, hcl.Diagnostics) {
	schema, ok := backendSchemas[b.Type]
	if !ok {
		return nil, hcl.Diagnostics{unsupportedBackend(b.Type, b.DeclRange.Ptr())}
	}
	set, diags := backendAttrs(b.Config, schema)
	if diags.HasErrors() {
		return nil, diags
	}
	return &backendConfig{
		Type:   b.Type,
		Config: backendObject(schema, set),
		Hash:   backendHash(b.Type, b.Config, schema),
		Range:  b.DeclRange,
	}, diags
}

// backendStateFile is .terraform/terraform.tfstate as Terraform writes it.
type backendStateFile struct {
	Version          int           `json:"version"`
	TerraformVersion string        `json:"terraform_version"`
	Backend          *savedBackend `json:"backend,omitempty"`
}

type savedBackend struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config"`
	Hash   uint64          `json:"hash"`
}

// readBackendState reads the recorded backend configuration; nil when
// there is none.
func readBackendState() (*savedBackend, hcl.Diagnostics) {
	data, err := os.ReadFile(backendStatePath())
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(strings.TrimSpace(string(data))) == 0) {
		return nil, nil
	}
	var f backendStateFile
	if err == nil {
		err = json.Unmarshal(data, &f)
	}
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to load the backend state",
			Detail:   fmt.Sprintf("Error reading %s: %s. Run \"strata init -reconfigure\" to record the backend configuration again.", backendStatePath(), err),
		}}
	}
	if f.Backend == nil || f.Backend.Type == "" {
		return nil, nil
	}
	return f.Backend, nil
}

// config decodes the recorded configuration with the type's schema.
func (s *savedBackend) config() (cty.Value, error) {
	schema, ok := backendSchemas[s.Type]
	if !ok {
		return cty.NilVal, fmt.Errorf("the backend %q is not supported by this version of strata", s.Type)
	}
	return ctyjson.Unmarshal(s.Config, backendObjectType(schema))
}

// writeBackendState records b as the working directory's backend; nil
// records that there is none (the default local backend).
func writeBackendState(b *backendConfig) error {
	f := backendStateFile{Version: 3, TerraformVersion: TerraformCompatVersion}
	if b != nil {
		raw, err := ctyjson.Marshal(b.Config, b.Config.Type())
		if err != nil {
			return err
		}
		f.Backend = &savedBackend{Type: b.Type, Config: raw, Hash: b.Hash}
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(backendStatePath()), 0o755); err != nil {
		return err
	}
	return statemgr.WriteFileAtomic(backendStatePath(), data, 0o644)
}

// backendInitRequired is Terraform's error for a backend configuration
// that init has not recorded. Terraform words it two ways: "please run"
// follows a comma for a first configuration or an unset backend, and a
// colon for a changed one.
func backendInitRequired(sep, reason string) hcl.Diagnostics {
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

// resolveBackend returns the backend configuration commands other than
// init use: the one init recorded, as long as the backend block still
// matches it. nil is the default local backend.
//
// A backend block init never recorded is an error until init has run, as
// in Terraform: tools rely on commands failing in a directory that was
// never initialised.
func resolveBackend(mod *configs.Module) (*backendConfig, hcl.Diagnostics) {
	saved, diags := readBackendState()
	if diags.HasErrors() {
		return nil, diags
	}
	var block *configs.Backend
	if mod != nil {
		block = mod.Backend
	}
	if block == nil {
		if saved != nil {
			return nil, backendInitRequired(",", fmt.Sprintf("Unsetting the previously set backend %q", saved.Type))
		}
		return nil, nil
	}
	cfg, cdiags := decodeBackendBlock(block)
	diags = append(diags, cdiags...)
	if cdiags.HasErrors() {
		return nil, diags
	}
	if saved == nil {
		return nil, append(diags, backendInitRequired(",", fmt.Sprintf("Initial configuration of the requested backend %q", cfg.Type))...)
	}
	if saved.Type != cfg.Type {
		return nil, append(diags, backendInitRequired(":", fmt.Sprintf("Backend type changed from %q to %q", saved.Type, cfg.Type))...)
	}
	cached, err := saved.config()
	if err == nil && (saved.Hash == cfg.Hash || cached.Equals(cfg.Config).True()) {
		cfg.Config = cached
		return cfg, diags
	}
	return nil, append(diags, backendInitRequired(":", "Backend configuration block has changed")...)
}

// localStateExists reports whether the local backend b (nil: the default)
// holds a non-empty state file in any workspace.
func localStateExists(b *backendConfig) bool {
	for _, ws := range localWorkspaces(b) {
		if st, err := os.Stat(localStatePath(b, ws)); err == nil && st.Size() > 0 {
			return true
		}
	}
	return false
}

// localPaths returns the local backend's state path and workspace
// directory.
func localPaths(b *backendConfig) (path, workspaceDir string) {
	path, workspaceDir = DefaultStatePath, "terraform.tfstate.d"
	if b == nil {
		return
	}
	a := b.attrs()
	if v, ok := a["path"]; ok {
		path = v.AsString()
	}
	if v, ok := a["workspace_dir"]; ok {
		workspaceDir = v.AsString()
	}
	return
}

// localStatePath is the state file of a workspace of the local backend b.
func localStatePath(b *backendConfig, ws string) string {
	path, dir := localPaths(b)
	if ws == statemgr.DefaultWorkspace {
		return path
	}
	return filepath.Join(dir, ws, DefaultStatePath)
}

// localWorkspaces lists the local backend's workspaces: default and the
// directories of the workspace directory, sorted.
func localWorkspaces(b *backendConfig) []string {
	_, dir := localPaths(b)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return withDefault(names)
}

// parseBackendOverrides reads init's -backend-config options for a
// backend of type typ: files of arguments, and KEY=VALUE pairs whose
// value is taken as a string and converted to the argument's type. Later
// options win.
func parseBackendOverrides(typ string, items []string) (map[string]cty.Value, hcl.Diagnostics) {
	schema := backendSchemas[typ]
	out := map[string]cty.Value{}
	var diags hcl.Diagnostics
	for _, item := range items {
		if item == "" {
			continue
		}
		eq := strings.Index(item, "=")
		if eq < 0 {
			vals, fdiags := backendConfigFile(item, schema)
			diags = append(diags, fdiags...)
			for name, v := range vals {
				out[name] = v
			}
			continue
		}
		name, raw := item[:eq], item[eq+1:]
		ty, ok := schema[name]
		if !ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration argument",
				Detail:   fmt.Sprintf("The backend configuration argument %q given on the command line is not expected for the selected backend type.", name),
			})
			continue
		}
		v, err := convert.Convert(cty.StringVal(raw), ty)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid backend configuration value",
				Detail:   fmt.Sprintf("Invalid backend configuration value for %s: %s required, not %q.", item, strings.TrimSuffix(typeNoun(ty), " is"), raw),
			})
			continue
		}
		out[name] = v
	}
	return out, diags
}

// backendConfigFile reads a -backend-config file: HCL, or JSON when its
// name ends in .json.
func backendConfigFile(path string, schema map[string]cty.Type) (map[string]cty.Value, hcl.Diagnostics) {
	p := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if _, err := os.Stat(path); err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("The file %q could not be read.", path),
		}}
	}
	if strings.HasSuffix(path, ".json") {
		f, diags = p.ParseJSONFile(path)
	} else {
		f, diags = p.ParseHCLFile(path)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	vals, adiags := backendAttrs(f.Body, schema)
	return vals, append(diags, adiags...)
}

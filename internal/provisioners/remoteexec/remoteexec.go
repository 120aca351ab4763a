// Package remoteexec is the remote-exec provisioner: it connects to the
// object it provisions over SSH, uploads each script — the inline
// commands joined into one, or the local files script and scripts name —
// and runs it, showing what it prints. Only the engine imports it.
package remoteexec

//lint:file-ignore ST1005 errors users read, in Terraform's words

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/provisioners"
)

// Provisioner is the remote-exec provisioner.
type Provisioner struct{}

var _ provisioners.Provisioner = Provisioner{}

var schema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"inline":  {Type: cty.List(cty.String), Optional: true},
	"script":  {Type: cty.String, Optional: true},
	"scripts": {Type: cty.List(cty.String), Optional: true},
}}

// Schema implements provisioners.Provisioner.
func (Provisioner) Schema() *configschema.Block { return schema }

// Validate implements provisioners.Provisioner: exactly one of inline,
// script and scripts must be set.
func (Provisioner) Validate(cfg cty.Value) hcl.Diagnostics {
	set := 0
	for _, name := range []string{"inline", "script", "scripts"} {
		if !cfg.GetAttr(name).IsNull() {
			set++
		}
	}
	if set != 1 {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid remote-exec provisioner configuration",
			Detail:   `Only one of "inline", "script", or "scripts" must be set`,
		}}
	}
	return nil
}

// Provision implements provisioners.Provisioner.
func (Provisioner) Provision(ctx context.Context, req provisioners.Request) hcl.Diagnostics {
	if err := provision(ctx, req); err != nil {
		return provisioners.Error("remote-exec", err)
	}
	return nil
}

func provision(ctx context.Context, req provisioners.Request) error {
	scripts, err := collectScripts(req.Config, req.WorkDir)
	if err != nil {
		return err
	}
	comm, err := provisioners.Communicator(req)
	if err != nil {
		return err
	}
	if err := comm.Connect(ctx, req.Output); err != nil {
		return err
	}
	defer comm.Disconnect()
	cfg := comm.Config()
	for _, script := range scripts {
		path := cfg.NewScriptPath()
		if err := comm.UploadScript(ctx, path, bytes.NewReader(script)); err != nil {
			return fmt.Errorf("Failed to upload script: %v", err)
		}
		out := &provisioners.LineWriter{Output: req.Output}
		err := comm.Run(ctx, path, out, out)
		out.Flush()
		if err != nil {
			return fmt.Errorf("error executing %q: %v", path, err)
		}
		// Overwrite the script, so that what it held does not stay on
		// the host. This is best effort, as in Terraform.
		_ = comm.Upload(ctx, path, bytes.NewReader(nil))
	}
	return nil
}

// collectScripts returns the scripts to run: the inline commands, one a
// line, or the contents of the script files (relative to workDir, the
// process's directory when empty).
func collectScripts(cfg cty.Value, workDir string) ([][]byte, error) {
	if v := cfg.GetAttr("inline"); !v.IsNull() {
		var lines []string
		for _, l := range v.AsValueSlice() {
			if l.IsNull() {
				return nil, errors.New("invalid null string in 'inline'")
			}
			lines = append(lines, l.AsString())
		}
		return [][]byte{[]byte(strings.Join(lines, "\n") + "\n")}, nil
	}
	var files []string
	if v := cfg.GetAttr("script"); !v.IsNull() {
		files = append(files, v.AsString())
	}
	if v := cfg.GetAttr("scripts"); !v.IsNull() {
		for _, f := range v.AsValueSlice() {
			if f.IsNull() {
				return nil, errors.New("invalid null string in 'scripts'")
			}
			files = append(files, f.AsString())
		}
	}
	var scripts [][]byte
	for _, f := range files {
		data, err := readScript(workDir, f)
		if err != nil {
			return nil, err
		}
		scripts = append(scripts, data)
	}
	return scripts, nil
}

func readScript(workDir, name string) ([]byte, error) {
	path := name
	if workDir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(workDir, path)
	}
	f, err := os.Open(path)
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		err = &os.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	if err != nil {
		return nil, fmt.Errorf("Failed to open script '%s': %v", name, err)
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Package file is the file provisioner: it connects to the object it
// provisions over SSH and copies a local file or directory (source), or
// a string (content), to destination with scp, with Terraform's rules
// for directories and trailing slashes. Only the engine imports it.
package file

//lint:file-ignore ST1005 errors users read, in Terraform's words

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/provisioners"
)

// Provisioner is the file provisioner.
type Provisioner struct{}

var _ provisioners.Provisioner = Provisioner{}

var schema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"source":      {Type: cty.String, Optional: true},
	"content":     {Type: cty.String, Optional: true},
	"destination": {Type: cty.String, Required: true},
}}

// Schema implements provisioners.Provisioner.
func (Provisioner) Schema() *configschema.Block { return schema }

// Validate implements provisioners.Provisioner: one of source and
// content must be set.
func (Provisioner) Validate(cfg cty.Value) hcl.Diagnostics {
	source, content := !cfg.GetAttr("source").IsNull(), !cfg.GetAttr("content").IsNull()
	switch {
	case source && content:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot set both 'source' and 'content'"}}
	case !source && !content:
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Must provide one of 'source' or 'content'"}}
	}
	return nil
}

// Provision implements provisioners.Provisioner.
func (Provisioner) Provision(ctx context.Context, req provisioners.Request) hcl.Diagnostics {
	if err := provision(ctx, req); err != nil {
		return provisioners.Error("file", err)
	}
	return nil
}

func provision(ctx context.Context, req provisioners.Request) error {
	dst := req.Config.GetAttr("destination").AsString()
	var src *os.File
	var srcDir string
	if v := req.Config.GetAttr("source"); !v.IsNull() {
		name, err := expandHome(v.AsString())
		if err != nil {
			return err
		}
		display := name
		if req.WorkDir != "" && !filepath.IsAbs(name) {
			name = filepath.Join(req.WorkDir, name)
		}
		fi, err := os.Stat(name)
		if err != nil {
			return renamed(err, display)
		}
		if fi.IsDir() {
			srcDir = name
			if strings.HasSuffix(v.AsString(), "/") && !strings.HasSuffix(srcDir, "/") {
				srcDir += "/"
			}
		} else if src, err = os.Open(name); err != nil {
			return renamed(err, display)
		}
	}
	if src != nil {
		defer src.Close()
	}
	comm, err := provisioners.Communicator(req)
	if err != nil {
		return err
	}
	// The file provisioner says nothing while it connects, as in
	// Terraform.
	if err := comm.Connect(ctx, nil); err != nil {
		return err
	}
	defer comm.Disconnect()
	switch {
	case srcDir != "":
		err = comm.UploadDir(ctx, dst, srcDir)
	case src != nil:
		err = comm.Upload(ctx, dst, src)
	default:
		err = comm.Upload(ctx, dst, strings.NewReader(req.Config.GetAttr("content").AsString()))
	}
	if err != nil {
		return fmt.Errorf("Upload failed: %v", err)
	}
	return nil
}

// expandHome replaces a leading ~ with the user's home directory.
func expandHome(p string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand %q: %v", p, err)
	}
	return filepath.Join(home, p[1:]), nil
}

// renamed reports a file error under the path as the configuration gives
// it, not as resolved against the working directory.
func renamed(err error, display string) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &os.PathError{Op: pe.Op, Path: display, Err: pe.Err}
	}
	return err
}

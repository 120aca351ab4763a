// Package localexec is the local-exec provisioner: it runs a command on
// the machine strata runs on, showing what it prints. Only the engine
// imports it.
package localexec

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/provisioners"
	"github.com/strata-dev/strata/internal/tailbuf"
)

// Provisioner is the local-exec provisioner.
type Provisioner struct{}

var _ provisioners.Provisioner = Provisioner{}

// schema is the local-exec provisioner's configuration.
var schema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"command":     {Type: cty.String, Required: true},
	"interpreter": {Type: cty.List(cty.String), Optional: true},
	"working_dir": {Type: cty.String, Optional: true},
	"environment": {Type: cty.Map(cty.String), Optional: true},
	"quiet":       {Type: cty.Bool, Optional: true},
}}

// outputMax is how much of a failed command's output the error repeats:
// its last 8 KiB, as Terraform.
const outputMax = 8 * 1024

// Schema implements provisioners.Provisioner.
func (Provisioner) Schema() *configschema.Block { return schema }

// Validate implements provisioners.Provisioner: the schema says it all.
func (Provisioner) Validate(cty.Value) hcl.Diagnostics { return nil }

// Provision implements provisioners.Provisioner. The connection, if any,
// is not used.
func (Provisioner) Provision(ctx context.Context, req provisioners.Request) hcl.Diagnostics {
	if d := run(ctx, req, req.Config, req.Output, req.Sensitive); d != nil {
		return hcl.Diagnostics{d}
	}
	return nil
}

// run runs a local-exec provisioner's command, configured as schema
// describes, sending output each line the command prints
// on stdout or stderr. It returns the error diagnostic, without subject,
// when the command cannot run or fails. When ctx is cancelled (Ctrl-C),
// the command's whole process group is killed.
func run(ctx context.Context, req provisioners.Request, cfg cty.Value, output func(string), sensitive bool) *hcl.Diagnostic {
	command := ""
	if v := cfg.GetAttr("command"); !v.IsNull() {
		command = v.AsString()
	}
	if command == "" {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid local-exec provisioner command",
			Detail:   "The command must be a non-empty string.",
		}
	}
	args := []string{"/bin/sh", "-c"}
	if v := cfg.GetAttr("interpreter"); !v.IsNull() && v.LengthInt() > 0 {
		args = nil
		for _, a := range v.AsValueSlice() {
			if !a.IsNull() {
				args = append(args, a.AsString())
			}
		}
	}
	args = append(args, command)
	env := req.Environ
	if env == nil {
		env = os.Environ()
	}
	env = append([]string(nil), env...)
	if v := cfg.GetAttr("environment"); !v.IsNull() {
		for k, e := range v.AsValueMap() {
			if !e.IsNull() {
				env = append(env, k+"="+e.AsString())
			}
		}
	}
	failed := func(format string, a ...any) *hcl.Diagnostic {
		return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "local-exec provisioner error", Detail: fmt.Sprintf(format, a...)}
	}

	// The command writes to a pipe, not to a Go writer, so that Wait does
	// not wait for processes it started in the background that keep the
	// pipe open.
	pr, pw, err := os.Pipe()
	if err != nil {
		return failed("Failed to initialize pipe for output: %s", err)
	}
	defer pr.Close()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.Env = env
	cmd.Dir = req.WorkDir
	if v := cfg.GetAttr("working_dir"); !v.IsNull() {
		cmd.Dir = v.AsString()
		if req.WorkDir != "" && !filepath.IsAbs(cmd.Dir) {
			cmd.Dir = filepath.Join(req.WorkDir, cmd.Dir)
		}
	}
	// Its own process group, so that Ctrl-C, which cancels ctx, stops the
	// command and everything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second

	tail := tailbuf.New(outputMax)
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		r := bufio.NewReader(io.TeeReader(pr, tail))
		for {
			line, err := r.ReadString('\n')
			if line != "" {
				output(line)
			}
			if err != nil {
				return
			}
		}
	}()
	if q := cfg.GetAttr("quiet"); !q.IsNull() && q.True() {
		output("local-exec: Executing: Suppressed by quiet=true")
	} else {
		output(fmt.Sprintf("Executing: %q", args))
	}
	err = cmd.Start()
	if err == nil {
		err = cmd.Wait()
	}
	pw.Close()
	select {
	case <-copied:
	case <-ctx.Done():
		// Something the command started may hold the pipe open.
	}
	if err != nil {
		if sensitive {
			// Unlike Terraform, which repeats both.
			return failed("Error running command '(sensitive value)': %v. Output: (output suppressed due to sensitive value in config)", err)
		}
		return failed("Error running command '%s': %v. Output: %s", command, err, tail.String())
	}
	return nil
}

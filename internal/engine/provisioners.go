package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/tailbuf"
)

// Provisioners: strata runs local-exec, the one provisioner that needs no
// connection to the object, as Terraform does. Creation-time provisioners
// run right after their object is created, before the apply of the
// instance is reported complete; a failure taints the object unless
// on_failure = continue. Destroy-time provisioners run right before the
// object is deleted; a failure keeps it. Configuration decoding (types,
// when, on_failure, what destroy-time ones may refer to) is in
// internal/configs.

// localExecSchema is the local-exec provisioner's configuration.
var localExecSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"command":     {Type: cty.String, Required: true},
	"interpreter": {Type: cty.List(cty.String), Optional: true},
	"working_dir": {Type: cty.String, Optional: true},
	"environment": {Type: cty.Map(cty.String), Optional: true},
	"quiet":       {Type: cty.Bool, Optional: true},
}}

// localExecOutputMax is how much of a failed command's output the error
// repeats: its last 8 KiB, as Terraform.
const localExecOutputMax = 8 * 1024

// suppressedOutput replaces each line a provisioner prints when its
// configuration holds a sensitive value.
const suppressedOutput = "(output suppressed due to sensitive value in config)"

// suppressedEphemeralOutput replaces them when it holds an ephemeral one.
const suppressedEphemeralOutput = "(output suppressed due to ephemeral value in config)"

// provisionersWhen returns those of provs that run at when.
func provisionersWhen(provs []*configs.Provisioner, when configs.ProvisionerWhen) []*configs.Provisioner {
	var out []*configs.Provisioner
	for _, p := range provs {
		if p.When == when {
			out = append(out, p)
		}
	}
	return out
}

// resourceProvisioners returns the provisioners of a configured resource.
func resourceProvisioners(n *resourceNode) []*configs.Provisioner {
	if n == nil || n.cfg.Managed == nil {
		return nil
	}
	return n.cfg.Managed.Provisioners
}

// removedProvisioners returns the provisioners of the removed block for
// an instance whose resource is no longer configured.
func (w *walker) removedProvisioners(addr addrs.AbsResourceInstance) []*configs.Provisioner {
	if rm := removedBlock(w.e.Config, addr); rm != nil && rm.Destroy {
		return rm.Provisioners
	}
	return nil
}

// validateProvisioners checks a resource's provisioner blocks against the
// local-exec schema once per module instance, with self and the instance
// key unknown, as Terraform's validation does.
func (w *walker) validateProvisioners(n *resourceNode, rt *resourceType) hcl.Diagnostics {
	provs := resourceProvisioners(n)
	if len(provs) == 0 {
		return nil
	}
	key := lang.InstanceKeyData{}
	if n.cfg.Count != nil {
		key.CountIndex = cty.UnknownVal(cty.Number)
	}
	if n.cfg.ForEach != nil {
		key.EachKey, key.EachValue = cty.UnknownVal(cty.String), cty.DynamicVal
	}
	scope := w.ev.scope(rt.addr.Module).WithKey(key).WithSelf(cty.UnknownVal(rt.ty))
	var diags hcl.Diagnostics
	for _, p := range provs {
		_, d := scope.EvalBlock(p.Config, localExecSchema)
		diags = append(diags, d...)
	}
	return diags
}

// destroyKeyData is what a destroy-time provisioner sees of its instance
// key: count.index or each.key (each.value is not allowed there).
func destroyKeyData(k addrs.InstanceKey) lang.InstanceKeyData {
	switch k.(type) {
	case addrs.IntKey:
		return lang.InstanceKeyData{CountIndex: k.Value()}
	case addrs.StringKey:
		return lang.InstanceKeyData{EachKey: k.Value(), EachValue: cty.DynamicVal}
	}
	return lang.InstanceKeyData{}
}

// provision runs provisioners for the object of addr in order, with scope
// giving self and the instance key. It stops at the first failure of a
// provisioner with on_failure = fail and returns its error; failures of
// the others are ignored, as on_failure = continue asks.
func (w *walker) provision(ctx context.Context, addr addrs.AbsResourceInstance, provs []*configs.Provisioner, scope *lang.Scope) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, p := range provs {
		cfg, d := scope.EvalBlock(p.Config, localExecSchema)
		diags = append(diags, withObject(d, addr)...)
		if d.HasErrors() {
			return diags
		}
		w.hook(func(h hooks.Hook) { h.PreProvision(addr, p.Type) })
		ephemeral := marks.ContainsEphemeral(cfg)
		unmarked, paths := marks.Paths(cfg)
		output := func(line string) { w.hook(func(h hooks.Hook) { h.ProvisionOutput(addr, p.Type, line) }) }
		if len(paths) > 0 || ephemeral {
			// The command or its environment holds a secret the command
			// may well print.
			msg := suppressedOutput
			if ephemeral {
				msg = suppressedEphemeralOutput
			}
			output = func(string) {
				w.hook(func(h hooks.Hook) { h.ProvisionOutput(addr, p.Type, msg) })
			}
		}
		pd := runLocalExec(ctx, unmarked, output)
		var err error
		if pd != nil {
			pd.Subject = p.Config.MissingItemRange().Ptr()
			err = errors.New(pd.Summary)
		}
		w.hook(func(h hooks.Hook) { h.PostProvision(addr, p.Type, err) })
		if pd != nil && p.OnFailure == configs.ProvisionerOnFailureFail {
			return append(diags, withObject(hcl.Diagnostics{pd}, addr)...)
		}
	}
	return diags
}

// provisionCreated runs the creation-time provisioners of a newly created
// object, recorded as obj, and taints it when one fails: the next plan
// replaces it. It returns the provisioners' diagnostics.
func (aw *applyWalk) provisionCreated(ctx context.Context, n *resourceNode, rt *resourceType, addr addrs.AbsResourceInstance, key lang.InstanceKeyData, newVal cty.Value, obj *states.ObjectSrc) hcl.Diagnostics {
	provs := provisionersWhen(resourceProvisioners(n), configs.ProvisionerWhenCreate)
	if len(provs) == 0 {
		return nil
	}
	diags := aw.provision(ctx, addr, provs, aw.ev.scope(addr.Module).WithKey(key).WithSelf(newVal))
	if diags.HasErrors() {
		tainted := *obj
		tainted.Status = states.ObjectTainted
		diags = append(diags, aw.record(addr, "", &tainted, rt.provider)...)
	}
	return diags
}

// destroyProvisioning returns what runs before the current object of addr
// is deleted: its destroy-time provisioners, from its resource block or,
// when the resource is no longer configured, from a removed block. A
// tainted object is not provisioned. It returns nil when there is nothing
// to run.
func (aw *applyWalk) destroyProvisioning(ctx context.Context, n *resourceNode, addr addrs.AbsResourceInstance, prior cty.Value) func() hcl.Diagnostics {
	provs := resourceProvisioners(n)
	if n == nil {
		provs = aw.removedProvisioners(addr)
	}
	provs = provisionersWhen(provs, configs.ProvisionerWhenDestroy)
	if obj := aw.state.Object(addr); len(provs) == 0 || obj == nil || obj.Status == states.ObjectTainted {
		return nil
	}
	return func() hcl.Diagnostics {
		scope := aw.ev.scope(addr.Module).WithKey(destroyKeyData(addr.Resource.Key)).WithSelf(prior)
		return aw.provision(ctx, addr, provs, scope)
	}
}

// runLocalExec runs a local-exec provisioner's command, configured as
// localExecSchema describes, sending output each line the command prints
// on stdout or stderr. It returns the error diagnostic, without subject,
// when the command cannot run or fails. When ctx is cancelled (Ctrl-C),
// the command's whole process group is killed.
func runLocalExec(ctx context.Context, cfg cty.Value, output func(string)) *hcl.Diagnostic {
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
	env := os.Environ()
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
	if v := cfg.GetAttr("working_dir"); !v.IsNull() {
		cmd.Dir = v.AsString()
	}
	// Its own process group, so that Ctrl-C, which cancels ctx, stops the
	// command and everything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second

	tail := tailbuf.New(localExecOutputMax)
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
		return failed("Error running command '%s': %v. Output: %s", command, err, tail.String())
	}
	return nil
}

// provisionerReferences returns the references provisioner blocks make:
// a creation-time provisioner runs after what its command refers to.
func provisionerReferences(provs []*configs.Provisioner) ([]*lang.Reference, hcl.Diagnostics) {
	var refs []*lang.Reference
	var diags hcl.Diagnostics
	for _, p := range provs {
		r, d := lang.BlockReferences(p.Config, localExecSchema)
		refs, diags = append(refs, r...), append(diags, d...)
	}
	return refs, diags
}

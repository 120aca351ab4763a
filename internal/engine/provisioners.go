package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/engine/hooks"
	"github.com/strata-dev/strata/internal/lang"
	"github.com/strata-dev/strata/internal/lang/marks"
	"github.com/strata-dev/strata/internal/provisioners"
	"github.com/strata-dev/strata/internal/provisioners/file"
	"github.com/strata-dev/strata/internal/provisioners/localexec"
	"github.com/strata-dev/strata/internal/provisioners/remoteexec"
	"github.com/strata-dev/strata/internal/states"
)

// Provisioners: strata runs local-exec, remote-exec and file, as
// Terraform does; internal/provisioners and its subpackages implement
// them, and the engine evaluates their blocks and connection blocks and
// picks one by type. Creation-time provisioners
// run right after their object is created, before the apply of the
// instance is reported complete; a failure taints the object unless
// on_failure = continue. Destroy-time provisioners run right before the
// object is deleted; a failure keeps it. Configuration decoding (types,
// when, on_failure, what destroy-time ones may refer to) is in
// internal/configs.

// builtinProvisioners are the provisioners strata has by type; the others
// are plugins (Engine.Provisioners).
var builtinProvisioners = map[string]provisioners.Provisioner{
	"local-exec":  localexec.Provisioner{},
	"remote-exec": remoteexec.Provisioner{},
	"file":        file.Provisioner{},
}

// provisioner returns the provisioner of a type, or nil when neither
// strata nor a plugin provides it.
func (e *Engine) provisioner(typeName string) provisioners.Provisioner {
	if p, ok := builtinProvisioners[typeName]; ok {
		return p
	}
	return e.Provisioners[typeName]
}

// provisionerSchema returns the schema of a provisioner block: an empty
// one for a type nothing provides (provisionerPluginDiags reports it).
func (e *Engine) provisionerSchema(p *configs.Provisioner) *configschema.Block {
	if prov := e.provisioner(p.Type); prov != nil {
		return prov.Schema()
	}
	return &configschema.Block{}
}

// pluginLoader is a provisioner that must start before it can be used (a
// plugin); Load says why it cannot.
type pluginLoader interface {
	Load() hcl.Diagnostics
}

// provisionerPluginDiags reports, as Terraform does before validating
// (validating) or planning, the provisioner types of the configuration
// that no plugin provides (worded as Terraform words them in each case)
// and the plugins that cannot start.
func (e *Engine) provisionerPluginDiags(validating bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]bool{}
	e.Config.DeepEach(func(c *configs.Config) {
		var provs []*configs.Provisioner
		for _, name := range sortedKeys(c.Module.ManagedResources) {
			provs = append(provs, c.Module.ManagedResources[name].Managed.Provisioners...)
		}
		for _, rm := range c.Module.Removed {
			provs = append(provs, rm.Provisioners...)
		}
		for _, p := range provs {
			prov := e.provisioner(p.Type)
			if prov == nil && validating {
				// validate reports each block of a missing type.
				diags = append(diags, missingProvisionerDiag(p.Type))
				continue
			}
			if seen[p.Type] {
				continue
			}
			seen[p.Type] = true
			switch {
			case prov == nil:
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Failed to load plugin schemas",
					Detail:   fmt.Sprintf("Error while loading schemas for plugin components: Failed to obtain provisioner schema: Could not load the schema for provisioner %q: failed to instantiate provisioner %q to obtain schema: unavailable provisioner %q..", p.Type, p.Type, p.Type),
				})
			default:
				if l, ok := prov.(pluginLoader); ok {
					diags = append(diags, l.Load()...)
				}
			}
		}
	})
	return diags
}

// missingProvisionerDiag is Terraform's error for a provisioner type that
// no plugin provides.
func missingProvisionerDiag(typeName string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Missing required provisioner plugin",
		Detail:   fmt.Sprintf("This configuration requires provisioner plugin %q, which isn't available. If you're intending to use an external provisioner plugin, you must install it manually into one of the plugin search directories before running strata.", typeName),
	}
}

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

// validateProvisioners checks a resource's provisioner blocks and their
// connection blocks against their schemas, and the provisioners' own
// rules, once per module instance, with self and the instance key
// unknown, as Terraform's validation does: up to the first provisioner
// with errors.
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
		// As Terraform: self's attributes are checked against the schema
		// first, and a block naming one that does not exist is not
		// evaluated.
		sd := staticSelfBodyDiags(p.Config, w.e.provisionerSchema(p), rt.schema)
		if p.Connection != nil {
			sd = append(sd, staticSelfBodyDiags(p.Connection, provisioners.ConnectionSchema, rt.schema)...)
		}
		if sd.HasErrors() {
			return append(diags, sd...)
		}
		cfg, d := scope.EvalBlock(p.Config, w.e.provisionerSchema(p))
		diags = append(diags, d...)
		if !d.HasErrors() {
			var vd hcl.Diagnostics
			if prov := w.e.provisioner(p.Type); prov != nil {
				vd = prov.Validate(cfg)
			}
			for _, diag := range vd {
				diag.Subject = p.DeclRange.Ptr()
			}
			diags = append(diags, vd...)
		}
		if p.Connection != nil {
			_, d := scope.EvalBlock(p.Connection, provisioners.ConnectionSchema)
			diags = append(diags, d...)
		}
		if diags.HasErrors() {
			// The rest would repeat the errors of a shared connection
			// block; Terraform stops here too.
			return diags
		}
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
		cfg, d := scope.EvalBlock(p.Config, w.e.provisionerSchema(p))
		diags = append(diags, withObject(d, addr)...)
		if d.HasErrors() {
			return diags
		}
		// The connection's marks do not matter: its secrets are shown
		// only as whether they are set.
		conn := cty.NullVal(provisioners.ConnectionSchema.ImpliedType())
		if p.Connection != nil {
			conn, d = scope.EvalBlock(p.Connection, provisioners.ConnectionSchema)
			diags = append(diags, withObject(d, addr)...)
			if d.HasErrors() {
				return diags
			}
			conn = marks.UnmarkDeep(conn)
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
		prov := w.e.provisioner(p.Type)
		if prov == nil {
			// The plugin was there when the plan was made.
			return append(diags, missingProvisionerDiag(p.Type))
		}
		pd := prov.Provision(ctx, provisioners.Request{Config: unmarked, Connection: conn, Output: output, Sensitive: len(paths) > 0 || ephemeral, WorkDir: w.e.WorkDir, Environ: w.e.Environ})
		maskSensitive(pd, unmarked, paths)
		var err error
		if pd.HasErrors() {
			for _, d := range pd {
				d.Subject = p.Config.MissingItemRange().Ptr()
			}
			err = errors.New(pd[0].Summary)
		}
		w.hook(func(h hooks.Hook) { h.PostProvision(addr, p.Type, err) })
		if pd.HasErrors() && p.OnFailure == configs.ProvisionerOnFailureFail {
			return append(diags, withObject(pd, addr)...)
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

// provisionerReferences returns the references provisioner blocks and
// their connection blocks make: a creation-time provisioner runs after
// what it refers to.
func (e *Engine) provisionerReferences(provs []*configs.Provisioner) ([]*lang.Reference, hcl.Diagnostics) {
	var refs []*lang.Reference
	var diags hcl.Diagnostics
	for _, p := range provs {
		r, d := lang.BlockReferences(p.Config, e.provisionerSchema(p))
		refs, diags = append(refs, r...), append(diags, d...)
		if p.Connection != nil {
			r, d := lang.BlockReferences(p.Connection, provisioners.ConnectionSchema)
			refs, diags = append(refs, r...), append(diags, d...)
		}
	}
	return refs, diags
}

// maskSensitive replaces, in the provisioner's diagnostics, every string
// of its configuration that is sensitive (at paths of v) by "(sensitive
// value)": a provisioner's error may quote its configuration, and
// Terraform's do, secrets included.
func maskSensitive(diags hcl.Diagnostics, v cty.Value, paths []cty.Path) {
	if len(diags) == 0 || len(paths) == 0 {
		return
	}
	var secrets []string
	for _, p := range paths {
		sv, err := p.Apply(v)
		if err != nil {
			continue
		}
		_ = cty.Walk(sv, func(_ cty.Path, leaf cty.Value) (bool, error) {
			if leaf.IsKnown() && !leaf.IsNull() && leaf.Type() == cty.String && len(leaf.AsString()) >= 3 {
				secrets = append(secrets, leaf.AsString())
			}
			return true, nil
		})
	}
	// The longest first, so that a secret within another is not left
	// half-masked.
	sort.Slice(secrets, func(i, j int) bool { return len(secrets[i]) > len(secrets[j]) })
	for _, d := range diags {
		for _, s := range secrets {
			d.Summary = strings.ReplaceAll(d.Summary, s, "(sensitive value)")
			d.Detail = strings.ReplaceAll(d.Detail, s, "(sensitive value)")
		}
	}
}

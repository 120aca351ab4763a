package statecmd

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// stateMvOptions are the flags of `strata state mv`.
type stateMvOptions struct {
	view      viewFlags
	state     stateFlags
	stateOut  string
	backupOut string
	dryRun    bool
}

func newStateMvCommand(d *Env, runF func(*stateMvOptions, []string) error) *cobra.Command {
	opts := &stateMvOptions{}
	cmd := &cobra.Command{
		Use:   "mv [options] SOURCE DESTINATION",
		Short: "Move an item in the state",
		Long: `Usage: strata [global options] state mv [options] SOURCE DESTINATION

  This command will move an item matched by the address given to the
  destination address. This command can also move to a destination address
  in a completely different state file.

  This can be used for simple resource renaming, moving items to and from
  a module, moving entire modules, and more. And because this command can also
  move data to a completely new state, it can also be used for refactoring
  one configuration into multiple separately managed strata configurations.

  This command will output a backup copy of the state prior to saving any
  changes. Due to the destructive nature of this command, backups are
  written by default.

  If you're moving an item to a different state file, a backup will be created
  for each state file.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usageError(d, cmd, "Exactly two arguments expected.\n")
			}
			if runF != nil {
				return runF(opts, args)
			}
			return runStateMv(cmd.Context(), d, opts, args[0], args[1])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&opts.dryRun, "dry-run", false, "If set, prints out what would've been moved but doesn't\nactually move anything.")
	fs.StringVar(&opts.state.statePath, "state", "", "Path to the source state file. Defaults to the current\nworkspace state. Legacy option for the local backend only.")
	fs.StringVar(&opts.stateOut, "state-out", "", "Path to the destination state file to write to. If this\nisn't specified, the source state file will be used. This\ncan be a new or existing path.")
	fs.StringVar(&opts.state.backupPath, "backup", "", "Path where strata should write the backup for the\noriginal state. Defaults to the state path with a\ntimestamp and \".backup\" appended.")
	fs.StringVar(&opts.backupOut, "backup-out", "", "Path where strata should write the backup for the\ndestination state. Defaults to the destination path\nwith a timestamp and \".backup\" appended.")
	registerLockFlags(fs, &opts.state)
	registerIgnoreRemoteVersion(fs)
	opts.view.register(fs)
	return cmd
}

func runStateMv(ctx context.Context, d *Env, opts *stateMvOptions, fromArg, toArg string) error {
	v := d.newView(opts.view)
	// As Terraform, both addresses' errors are reported.
	from, diags := parseStateTarget(fromArg)
	to, toDiags := parseStateTarget(toArg)
	if hasErrors(v, append(diags, toDiags...)) {
		return d.Reported
	}
	mgr, src, release, ok := d.open(ctx, v, &opts.state, openOptions{configAbs: true, operation: "state-mv", lock: true, timestampedBackup: true, requireFile: true, direct: true})
	defer release()
	if !ok {
		return d.Reported
	}

	dst, dmgr, where := src, (*statemgr.Local)(nil), "the current state"
	if opts.stateOut != "" && !samePath(d.Dir, opts.stateOut, localOutPath(mgr)) {
		backup := opts.backupOut
		if backup == "" {
			backup = timestampedBackup(opts.stateOut)
		}
		dmgr = statemgr.NewLocal(opts.stateOut, "", backup, d.StateVersion)
		dmgr.Dir = d.Dir
		if d.Encrypt != nil {
			d.Encrypt(dmgr)
		}
		var drelease func()
		dst, drelease, ok = d.read(ctx, v, dmgr, &opts.state, "state-mv", false)
		defer drelease()
		if !ok {
			return d.Reported
		}
		where = "the destination state"
	}

	moved, diags := moveInState(src, dst, from, to, where)
	if hasErrors(v, diags) {
		return d.Reported
	}
	var b strings.Builder
	verb := "Move"
	if opts.dryRun {
		verb = "Would move"
	}
	for _, m := range moved {
		fmt.Fprintf(&b, "%s %q to %q\n", verb, m.from, m.to)
	}
	if opts.dryRun {
		v.Raw(b.String())
		return nil
	}
	if !d.packagesBeforeWrite(v, &opts.state, b.String()) {
		return d.Reported
	}
	// The destination first: should writing the source then fail, the
	// object is in both states rather than in neither.
	if dmgr != nil && !write(v, dmgr, dst) {
		return d.Reported
	}
	if !write(v, mgr, src) {
		return d.Reported
	}
	fmt.Fprintf(&b, "Successfully moved %d object(s).\n", len(moved))
	v.Raw(b.String())
	return nil
}

// movedObject is one line of state mv's report.
type movedObject struct {
	from, to string
	depth    int // of a module instance, for the order of the report
}

// moveInState moves what from selects in src to the address to in dst,
// which may be src itself, and returns what moved: the instance or
// resource, or each module instance of a moved module. On error neither
// state has changed. where names dst in messages.
func moveInState(src, dst *states.State, from, to stateTarget, where string) ([]movedObject, hcl.Diagnostics) {
	invalid := func(summary, format string, args ...any) ([]movedObject, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...)}}
	}
	noSource := func() ([]movedObject, hcl.Diagnostics) {
		return invalid("Invalid source address", "Cannot move %s: does not match anything in the current state.", from)
	}
	if !from.isModule() && !from.hasKey {
		// As with Terraform, a resource with a single unkeyed instance
		// moves as that instance, so it can become one of another
		// resource's instances.
		if r := src.Resource(from.absResource()); r != nil && len(r.Instances) == 1 && r.Instances[addrs.NoKey] != nil {
			from.hasKey = true
		}
	}

	switch {
	case from.isModule():
		var moving []*states.Resource
		for _, r := range src.SortedResources() {
			if moduleHasPrefix(r.Addr.Module, from.module) {
				moving = append(moving, r)
			}
		}
		if len(moving) == 0 {
			return noSource()
		}
		if !to.isModule() {
			return invalid("Invalid target address", "Cannot move %s to %s: the target must also be a module.", from, to)
		}
		for _, r := range dst.Resources {
			if moduleHasPrefix(r.Addr.Module, to.module) {
				return invalid("Invalid target address", "Cannot move to %s: there is already a module at that address in %s.", to, where)
			}
		}
		// Terraform reports each module instance moved, outermost first.
		var moved []movedObject
		seen := map[string]bool{}
		for _, r := range moving {
			delete(src.Resources, r.Addr.String())
		}
		for _, r := range moving {
			old := r.Addr.Module
			r.Addr.Module = append(append(addrs.ModuleInstance{}, to.module...), old[len(from.module):]...)
			dst.Resources[r.Addr.String()] = r
			if !seen[old.String()] {
				seen[old.String()] = true
				moved = append(moved, movedObject{from: old.String(), to: r.Addr.Module.String(), depth: len(old)})
			}
		}
		sort.SliceStable(moved, func(i, j int) bool { return moved[i].depth < moved[j].depth })
		return moved, nil

	case !from.isInstance():
		r := src.Resource(from.absResource())
		if r == nil {
			return noSource()
		}
		if to.isModule() || to.hasKey {
			return invalid("Invalid target address", "Cannot move %s to %s: the source is a whole resource (not a resource instance) so the target must also be a whole resource.", from, to)
		}
		if diags := checkMoveKind(from, to); diags.HasErrors() {
			return nil, diags
		}
		if dst.Resource(to.absResource()) != nil {
			return invalid("Invalid target address", "Cannot move to %s: there is already a resource at that address in %s.", to, where)
		}
		delete(src.Resources, r.Addr.String())
		r.Addr = to.absResource()
		dst.Resources[r.Addr.String()] = r
		return []movedObject{{from: from.String(), to: to.String()}}, nil

	default:
		r := src.Resource(from.absResource())
		if r == nil || r.Instances[from.key] == nil {
			return noSource()
		}
		if to.isModule() {
			return invalid("Invalid target address", "Cannot move %s to %s: the target must also be a resource instance.", from, to)
		}
		if diags := checkMoveKind(from, to); diags.HasErrors() {
			return nil, diags
		}
		// An address without an index names the resource's single
		// instance.
		dr := dst.Resource(to.absResource())
		if dr != nil && dr.Instances[to.key] != nil {
			return invalid("Invalid target address", "Cannot move to %s: there is already a resource instance at that address in %s.", to.instance(), where)
		}
		inst := r.Instances[from.key]
		removeInstance(src, from.instance())
		if dr = dst.Resource(to.absResource()); dr == nil {
			dr = &states.Resource{Addr: to.absResource(), ProviderConfig: r.ProviderConfig, Instances: map[addrs.InstanceKey]*states.ResourceInstance{}}
			dst.Resources[dr.Addr.String()] = dr
		}
		dr.Instances[to.key] = inst
		return []movedObject{{from: from.String(), to: to.String()}}, nil
	}
}

// checkMoveKind refuses moves between resource modes or types: the object
// would not fit the new resource's schema.
func checkMoveKind(from, to stateTarget) hcl.Diagnostics {
	fr, tr := *from.resource, *to.resource
	var detail string
	switch {
	case fr.Mode != tr.Mode && fr.Mode == addrs.ManagedResourceMode:
		detail = fmt.Sprintf("Cannot move %s to %s: a managed resource can be moved only to another managed resource address.", from, to)
	case fr.Mode != tr.Mode:
		detail = fmt.Sprintf("Cannot move %s to %s: a data resource can be moved only to another data resource address.", from, to)
	case fr.Type != tr.Type:
		detail = fmt.Sprintf("Cannot move %s to %s: resource types don't match.", from, to)
	default:
		return nil
	}
	return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid state move request", Detail: detail}}
}

package command

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/strata-dev/strata/internal/cliconfig"
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
	"github.com/strata-dev/strata/internal/providercache"
)

type providersLockOptions struct {
	view              viewFlags
	platforms         []string
	fsMirror          string
	netMirror         string
	enablePluginCache bool
	providers         []string
}

func newProvidersLockCommand(d *Deps) *cobra.Command {
	opts := &providersLockOptions{}
	cmd := &cobra.Command{
		Use:   "lock [options] [providers...]",
		Short: "Write out dependency locks for the configured providers",
		Long: `
Usage: strata [global options] providers lock [options] [providers...]

  Normally the dependency lock file (.terraform.lock.hcl) is updated
  automatically by "strata init", but the information available to the
  normal provider installer can be constrained when you're installing providers
  from filesystem or network mirrors, and so the generated lock file can end
  up incomplete.

  The "providers lock" subcommand addresses that by updating the lock file
  based on the official packages available in the origin registry, ignoring
  the currently-configured installation strategy.

  After this command succeeds, the lock file will contain suitable checksums
  to allow installation of the providers needed by the current configuration
  on all of the selected platforms.

  By default this command updates the lock file for every provider declared
  in the configuration. You can override that behavior by providing one or
  more provider source addresses on the command line.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.providers = args
			return runProvidersLock(cmd.Context(), d, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.fsMirror, "fs-mirror", "", "Consult the given filesystem mirror directory instead\nof the origin registry for each of the given providers.")
	f.StringVar(&opts.netMirror, "net-mirror", "", "Consult the given network mirror (given as a base URL)\ninstead of the origin registry for each of the given\nproviders.")
	f.StringArrayVar(&opts.platforms, "platform", nil, "Choose a target platform to request package checksums\nfor (OS_ARCH, repeatable). By default, the platform\nwhere you run this command.")
	f.BoolVar(&opts.enablePluginCache, "enable-plugin-cache", false, "Accepted for compatibility: strata fetches each package\nonly to checksum it.")
	opts.view.register(f)
	return cmd
}

// runProvidersLock writes the lock file entries of the configuration's
// providers, with checksums for every requested platform.
func runProvidersLock(ctx context.Context, d *Deps, opts *providersLockOptions) error {
	v := d.newView(viewFlags{noColor: opts.view.noColor})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	view := views.NewProvidersLock(v)
	platforms, diags := providercache.ParsePlatforms(opts.platforms)
	if hasErrors(v, diags) {
		return errReported
	}
	if opts.fsMirror != "" && opts.netMirror != "" {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid installation method options",
			Detail:   "The -fs-mirror and -net-mirror command line options are mutually-exclusive.",
		}})
		return errReported
	}
	cli, cdiags := cliconfig.Load(d.Getenv)
	if hasErrors(v, cdiags) {
		return errReported
	}
	creds := cli.Tokens(d.environ())
	var source getproviders.Source
	switch {
	case opts.fsMirror != "":
		source = getproviders.DirSource{opts.fsMirror}
	case opts.netMirror != "":
		nm, err := getproviders.NewNetworkMirror(opts.netMirror, d.httpClient())
		if err != nil {
			v.Diagnostics(errorDiag("Invalid network mirror URL", err))
			return errReported
		}
		nm.Credentials = creds
		source = nm
	default:
		// The origin registries, whatever provider_installation says.
		reg := getproviders.NewRegistry(cli.Hosts, creds, d.Getenv)
		reg.Client = d.httpClient()
		source = reg
	}
	cfg, _, ldiags := loadConfig(d, v)
	ldiags = dropNoConfigFiles(ldiags) // as Terraform: no providers
	if hasErrors(v, ldiags) {
		return errReported
	}
	only, odiags := providercache.OnlyProviders(cfg, opts.providers)
	if hasErrors(v, odiags) {
		return errReported
	}
	locks, ldiags2 := depsfile.LoadIn(d.Dir, depsfile.FileName)
	if hasErrors(v, ldiags2) {
		return errReported
	}
	locker := &providercache.Locker{Source: source, Client: creds.Client(d.httpClient()), Platforms: platforms, Log: view.Log}
	newLocks, changed, diags := locker.Lock(ctx, cfg, only, locks)
	if hasErrors(v, diags) {
		return errReported
	}
	// As Terraform, the file is written even when its selections stay
	// the same: in the canonical form (created, for a configuration
	// without providers).
	if err := depsfile.Save(d.abs(depsfile.FileName), newLocks); err != nil {
		v.Diagnostics(errorDiag("Failed to update dependency lock file", err))
		return errReported
	}
	if !changed {
		view.Unchanged()
		return nil
	}
	view.Updated()
	return nil
}

type providersMirrorOptions struct {
	view      viewFlags
	platforms []string
	lockFile  bool
}

func newProvidersMirrorCommand(d *Deps) *cobra.Command {
	opts := &providersMirrorOptions{}
	cmd := &cobra.Command{
		Use:   "mirror [options] <target-dir>",
		Short: "Save local copies of all required provider plugins",
		Long: `
Usage: strata [global options] providers mirror [options] <target-dir>

  Populates a local directory with copies of the provider plugins needed for
  the current configuration, so that the directory can be used either directly
  as a filesystem mirror or as the basis for a network mirror and thus obtain
  those providers without access to their origin registries in future.

  The mirror directory will contain JSON index files that can be published
  along with the mirrored packages on a static HTTP file server to produce
  a network mirror. Those index files will be ignored if the directory is
  used instead as a local filesystem mirror.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProvidersMirror(cmd.Context(), d, opts, args)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.platforms, "platform", nil, "Choose which target platform to build a mirror for\n(OS_ARCH, repeatable). By default, the platform where\nyou run this command.")
	f.BoolVar(&opts.lockFile, "lock-file", true, "Ignore the provider lock file when fetching providers.")
	opts.view.register(f)
	return cmd
}

// runProvidersMirror copies the configuration's providers into a mirror
// directory, from their origin registries.
func runProvidersMirror(ctx context.Context, d *Deps, opts *providersMirrorOptions, args []string) error {
	v := d.newView(viewFlags{noColor: opts.view.noColor})
	v.Legacy = true // as Terraform's older UI layer: a blank line after each diagnostic
	if len(args) != 1 {
		v.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No output directory specified",
			Detail:   "The providers mirror command requires an output directory as a command-line argument.",
		}})
		return errReported
	}
	platforms, diags := providercache.ParsePlatforms(opts.platforms)
	if hasErrors(v, diags) {
		return errReported
	}
	cli, cdiags := cliconfig.Load(d.Getenv)
	if hasErrors(v, cdiags) {
		return errReported
	}
	creds := cli.Tokens(d.environ())
	// As in Terraform, the packages come from the origin registries,
	// whatever provider_installation says.
	source := getproviders.NewRegistry(cli.Hosts, creds, d.Getenv)
	source.Client = d.httpClient()
	cfg, _, ldiags := loadConfig(d, v)
	ldiags = dropNoConfigFiles(ldiags) // as Terraform: no providers
	if hasErrors(v, ldiags) {
		return errReported
	}
	var locks depsfile.Locks
	if opts.lockFile {
		var lkdiags hcl.Diagnostics
		if locks, lkdiags = depsfile.LoadIn(d.Dir, depsfile.FileName); hasErrors(v, lkdiags) {
			return errReported
		}
		if hasErrors(v, providercache.CheckMirrorLocks(cfg, locks)) {
			return errReported
		}
	}
	m := &providercache.Mirrorer{Source: source, Client: creds.Client(d.httpClient()), Dir: args[0], WorkDir: d.Dir, Platforms: platforms, Log: mirrorLog(v)}
	if hasErrors(v, m.MirrorAll(ctx, cfg, locks)) {
		return errReported
	}
	return nil
}

// mirrorLog prints the mirror's progress lines as they are.
func mirrorLog(v *views.View) func(human, plain string) {
	return func(human, _ string) { v.Raw(human) }
}

package command

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/backend"
	"github.com/strata-dev/strata/internal/cliconfig"
	"github.com/strata-dev/strata/internal/datadir"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/builtin"
	"github.com/strata-dev/strata/internal/providers/plugin"
)

// Deps is what commands need from the outside world. Tests replace parts
// of it.
type Deps struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Environ is the whole environment, for the processes commands start
	// (local-exec) and the variables they read by prefix (TF_VAR_...);
	// nil means the process's.
	Environ []string
	// Dir is the absolute working directory: where the configuration,
	// the data directory and relative paths the user gives are, and
	// path.cwd. -chdir changes it.
	Dir string
	// Version is strata's version.
	Version string
	// Providers returns the provider factories available in a working
	// directory.
	Providers func(dir string) map[addrs.Provider]providers.Factory
	// Interrupts delivers Ctrl-C presses; nil means none.
	Interrupts <-chan os.Signal
	// StdinIsTerminal reports whether prompts can be answered.
	StdinIsTerminal bool
	// Exit ends the process at once (a second Ctrl-C).
	Exit func(code int)
	// noColor is the -no-color every command accepts, as in Terraform;
	// commands that list it in their help also take it as their own flag.
	noColor bool
	// backends are the backends configured by this command, by type and
	// configuration (see configuredBackend).
	backends map[string]backend.Backend
	// log is the core log (TF_LOG, TF_LOG_CORE), set up by Run.
	log hclog.Logger
	// args are the command's arguments after the global options, for
	// the run record (set by Run).
	args []string
	// encryption is the state and plan encryption (see encryptionFor).
	encryption encryptionState
	// originalDir is Dir before -chdir (path.cwd), set by Run.
	originalDir string
	// plugins are the plugin processes this run started, ended when Run
	// returns (set by Run).
	plugins *plugin.Tracker
}

// environ is the command's whole environment.
func (d *Deps) environ() []string {
	if d == nil || d.Environ == nil {
		return os.Environ()
	}
	return d.Environ
}

// logger is the core log; silent when Run did not set one up.
func (d *Deps) logger() hclog.Logger {
	if d.log == nil {
		return hclog.NewNullLogger()
	}
	return d.log
}

// DefaultDeps returns Deps for the real process.
func DefaultDeps(version string, interrupts <-chan os.Signal) *Deps {
	fi, err := os.Stdin.Stat()
	tty := err == nil && fi.Mode()&os.ModeCharDevice != 0
	// The one place strata asks the process for its directory.
	wd, _ := os.Getwd()
	d := &Deps{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv:          os.Getenv,
		Dir:             wd,
		Version:         version,
		Interrupts:      interrupts,
		StdinIsTerminal: tty,
		Exit: func(code int) {
			// os.Exit skips deferred calls: end plugin processes first.
			plugin.CleanupClients()
			os.Exit(code)
		},
	}
	d.Providers = func(dir string) map[addrs.Provider]providers.Factory {
		m := installedProviders(d.abs(dir), d.Getenv,
			plugin.WithDir(d.Dir), plugin.WithGetenv(d.Getenv), plugin.WithLogOutput(d.logOutput()),
			plugin.WithEnviron(d.Environ), plugin.WithTracker(d.plugins))
		for p, f := range builtin.FactoriesWith(builtin.Options{RemoteStateEncryption: d.remoteStateEncryption, WorkDir: d.Dir, Getenv: d.Getenv}) {
			m[p] = f
		}
		return m
	}
	return d
}

// interruptContext returns a context cancelled at the first interrupt, and
// calls hard on the second.
func (d *Deps) interruptContext(parent context.Context, first func(), hard func()) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	if d.Interrupts == nil {
		return ctx, cancel
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-d.Interrupts:
		case <-done:
			return
		}
		if first != nil {
			first()
		}
		cancel()
		select {
		case <-d.Interrupts:
			if hard != nil {
				hard()
			}
		case <-done:
		}
	}()
	return ctx, func() { close(done); cancel() }
}

// installedProviders returns the built-in providers and the plugin
// providers installed under dir/.terraform/providers: the version the
// dependency lock file selects, or the newest one when nothing is locked.
// The CLI configuration's dev_overrides replace them with the binaries in
// the directories it names, and TF_REATTACH_PROVIDERS with processes
// already running.
//
// Plugin processes start with opts: the command's working directory and
// environment, and the run's tracker.
func installedProviders(dir string, getenv func(string) string, opts ...plugin.Option) map[addrs.Provider]providers.Factory {
	m := builtin.Factories()
	found, _ := plugin.FindInstalled(datadir.InEnv(getenv, dir, "providers"))
	locks, _ := depsfile.Load(filepath.Join(dir, depsfile.FileName))
	// Schemas of providers that allow it are kept beside the installed
	// providers, so that a command need not ask a large provider for them.
	schemaCache := plugin.WithSchemaCacheDir(datadir.InEnv(getenv, dir, "schemas"))
	for _, inst := range found { // sorted oldest to newest
		if inst.Provider.IsBuiltIn() {
			continue
		}
		if l := locks[inst.Provider]; l != nil && l.Version != inst.Version.String() {
			continue
		}
		m[inst.Provider] = plugin.Factory(inst.Path, append([]plugin.Option{plugin.WithName(inst.Provider.ForDisplay() + " v" + inst.Version.String()), schemaCache}, opts...)...)
	}
	// Run has refused a TF_REATTACH_PROVIDERS it cannot parse.
	reattach, _ := plugin.ParseReattach(getenv(plugin.ReattachEnv))
	for p, r := range reattach {
		m[p] = plugin.ReattachFactory(p.ForDisplay()+" (unmanaged)", r)
	}
	cli, _ := cliconfig.Load(getenv)
	for p, over := range cli.DevOverrides {
		if exe := devOverrideExecutable(over, p.Type); exe != "" {
			m[p] = plugin.Factory(exe, append([]plugin.Option{plugin.WithName(p.ForDisplay() + " (development override)")}, opts...)...)
		}
	}
	return m
}

// unmanagedProviders are the providers handed over already running by
// TF_REATTACH_PROVIDERS, which init leaves alone.
func unmanagedProviders(getenv func(string) string) map[addrs.Provider]bool {
	reattach, _ := plugin.ParseReattach(getenv(plugin.ReattachEnv))
	out := make(map[addrs.Provider]bool, len(reattach))
	for p := range reattach {
		out[p] = true
	}
	return out
}

// devOverrideExecutable finds terraform-provider-TYPE in a dev_overrides
// directory.
func devOverrideExecutable(dir, typ string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".exe")
		if !e.IsDir() && (name == "terraform-provider-"+typ || strings.HasPrefix(name, "terraform-provider-"+typ+"_")) {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

// abs is p resolved against the working directory.
func (d *Deps) abs(p string) string {
	if filepath.IsAbs(p) || d.Dir == "" {
		return p
	}
	return filepath.Join(d.Dir, p)
}

// logOutput is where the core log goes when TF_LOG_PATH is not set: the
// command's stderr, unless that is the process's own (then nil, which
// lets TF_LOG_PATH choose).
func (d *Deps) logOutput() io.Writer {
	if d.Getenv("TF_LOG_PATH") != "" {
		return nil
	}
	return d.Stderr
}

// dataDir is a path inside the working directory's data directory
// (.terraform or TF_DATA_DIR), absolute.
func (d *Deps) dataDir(elem ...string) string {
	return datadir.InEnv(d.Getenv, d.Dir, elem...)
}

// readFile reads path, relative to the working directory; an error names
// the path as the user gave it.
func (d *Deps) readFile(path string) ([]byte, error) {
	data, err := os.ReadFile(d.abs(path))
	return data, d.asGiven(err, path)
}

// stat is os.Stat of path, relative to the working directory; an error
// names the path as the user gave it.
func (d *Deps) stat(path string) (os.FileInfo, error) {
	fi, err := os.Stat(d.abs(path))
	return fi, d.asGiven(err, path)
}

// asGiven puts back the path the user gave into a *os.PathError about
// its absolute form.
func (d *Deps) asGiven(err error, path string) error {
	var pe *os.PathError
	if errors.As(err, &pe) && pe.Path == d.abs(path) {
		return &os.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return err
}

// httpClient is the HTTP client for registries and downloads: nil
// (http.DefaultClient) when the command's SSL_CERT_FILE is the process's,
// as for the binary; otherwise one that also trusts the certificates of
// the command's SSL_CERT_FILE, which Go reads once per process, so that a
// command run in process with another environment trusts what the binary
// would.
func (d *Deps) httpClient() *http.Client {
	file := d.Getenv("SSL_CERT_FILE")
	if file == "" || file == os.Getenv("SSL_CERT_FILE") {
		return nil
	}
	pem, err := os.ReadFile(d.abs(file))
	if err != nil {
		return nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	pool.AppendCertsFromPEM(pem)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: pool}
	return &http.Client{Transport: tr}
}

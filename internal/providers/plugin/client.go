package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/strata-dev/strata/internal/logging"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin6"
	"github.com/strata-dev/strata/internal/tailbuf"
)

// Handshake is the go-plugin handshake of Terraform's provider plugins:
// a provider binary refuses to serve unless it finds this cookie in its
// environment.
var Handshake = plugin.HandshakeConfig{
	MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
	MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
}

// ProtocolVersions are the plugin protocol major versions strata speaks;
// the plugin chooses the highest it supports.
var ProtocolVersions = []int{5, 6}

// pluginName is the name under which providers register their gRPC
// service with go-plugin.
const pluginName = "provider"

// Option configures NewClient.
type Option func(*options)

type options struct {
	logger         hclog.Logger
	logOutput      io.Writer
	getenv         func(string) string
	startTimeout   time.Duration
	name           string
	versions       []int
	schemaCacheDir string
	dir            string
	environ        []string
	tracker        *Tracker
}

// WithEnviron starts the plugin process with env (as os.Environ returns
// it) rather than strata's own environment.
func WithEnviron(env []string) Option {
	return func(o *options) { o.environ = env }
}

// WithDir starts the plugin process in dir (default: strata's own working
// directory), so that a provider resolving relative paths (local_file)
// sees the directory the command works in.
func WithDir(dir string) Option {
	return func(o *options) { o.dir = dir }
}

// WithLogger sends the plugin's log output (its stderr, parsed by level)
// and go-plugin's own messages to logger, instead of the logger NewClient
// builds from TF_LOG.
func WithLogger(logger hclog.Logger) Option {
	return func(o *options) { o.logger = logger }
}

// WithLogOutput sets where the default logger writes when TF_LOG or
// TF_LOG_PROVIDER is set (default: the file TF_LOG_PATH names, or
// os.Stderr).
func WithLogOutput(w io.Writer) Option {
	return func(o *options) { o.logOutput = w }
}

// WithGetenv reads TF_LOG, TF_LOG_PROVIDER and TF_LOG_PATH through getenv
// rather than os.Getenv. The plugin process itself still inherits the real
// environment.
func WithGetenv(getenv func(string) string) Option {
	return func(o *options) { o.getenv = getenv }
}

// WithStartTimeout bounds how long the plugin may take to start and
// complete the handshake (default one minute).
func WithStartTimeout(d time.Duration) Option {
	return func(o *options) { o.startTimeout = d }
}

// WithName sets the name the provider goes by in logs and messages
// (default: the binary's file name).
func WithName(name string) Option {
	return func(o *options) { o.name = name }
}

// WithProtocolVersions restricts the protocol versions offered to the
// plugin, for tests and for troubleshooting.
func WithProtocolVersions(versions ...int) Option {
	return func(o *options) { o.versions = versions }
}

// Factory returns a providers.Factory that starts a new process of the
// provider binary at path each time it is called. When the schema cache
// (WithSchemaCacheDir) holds the binary's schemas, the process starts only
// once a call needs it (see lazy.go).
func Factory(path string, opts ...Option) providers.Factory {
	return func() (providers.Interface, error) {
		if l := newLazyClient(path, opts); l != nil {
			return l, nil
		}
		return NewClient(path, opts...)
	}
}

// NewClient starts the provider binary at path, negotiates the protocol
// version and returns a providers.Interface speaking it (a *Client). The
// caller must Close the result to end the process. An error means no
// process is left running.
func NewClient(path string, opts ...Option) (providers.Interface, error) {
	o := options{getenv: os.Getenv, versions: ProtocolVersions}
	for _, opt := range opts {
		opt(&o)
	}
	versioned := map[int]plugin.PluginSet{}
	for _, v := range o.versions {
		switch v {
		case 5:
			versioned[5] = plugin.PluginSet{pluginName: grpcPlugin5{}}
		case 6:
			versioned[6] = plugin.PluginSet{pluginName: grpcPlugin6{}}
		default:
			return nil, fmt.Errorf("unsupported plugin protocol version %d", v)
		}
	}
	config, logFile, tail, err := processConfig("provider", path, &o, versioned)
	if err != nil {
		return nil, err
	}
	p, err := connect(o.name, logFile, tail, config)
	if err != nil {
		return nil, err
	}
	if key := binaryKey(path); key != "" {
		p.binary = fmt.Sprintf("%s\x00v%d", key, p.version)
		p.schemaCacheDir = o.schemaCacheDir
	}
	if o.tracker != nil {
		o.tracker.add(p)
	}
	return p, nil
}

// connect starts or reattaches to the plugin config describes, dispenses
// its provider service and wraps it in a Client. On error nothing started
// here is left running.
func connect(name string, logFile *os.File, tail *tailbuf.Buffer, config *plugin.ClientConfig) (*Client, error) {
	client, raw, err := startPlugin("provider", name, pluginName, logFile, tail, config)
	if err != nil {
		return nil, err
	}
	w, ok := raw.(wire)
	if !ok {
		return nil, startFailed(client, "provider", name, logFile, tail, fmt.Errorf("unexpected plugin client type %T", raw))
	}
	p := &Client{
		name:    name,
		version: client.NegotiatedVersion(),
		wire:    w,
		client:  client,
		stderr:  tail,
		logFile: logFile,
	}
	if rc := client.ReattachConfig(); rc != nil {
		p.pid = rc.Pid
	}
	return p, nil
}

// CleanupClients ends every plugin process started by NewClient that has
// not been closed yet. A command calls it once as it exits, including on
// errors and interrupts, so that no provider process outlives strata. It
// is safe to call more than once.
func CleanupClients() {
	cleanupOnce.Do(plugin.CleanupClients)
}

var cleanupOnce sync.Once

// defaultLogger builds the logger for plugin output from TF_LOG_PROVIDER
// (or TF_LOG) and TF_LOG_PATH, as Terraform does.
func defaultLogger(o options) (hclog.Logger, *os.File) {
	return logging.New(o.getenv, "provider", o.logOutput, "TF_LOG_PROVIDER", "TF_LOG")
}

// maxMessageSize bounds one gRPC message. The default of 4 MiB is too
// small for the schemas of the largest providers and for large states.
const maxMessageSize = 256 << 20

// stderrTail is how much of the end of a plugin's stderr is kept for
// reporting a crash.
const stderrTail = 16 << 10

// grpcPlugin5 and grpcPlugin6 are the go-plugin plugin types for the two
// protocol versions; strata is only ever a client.
type grpcPlugin5 struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin5) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("strata does not serve provider plugins")
}

func (grpcPlugin5) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &wire5{client: tfplugin5.NewProviderClient(conn)}, nil
}

type grpcPlugin6 struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin6) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("strata does not serve provider plugins")
}

func (grpcPlugin6) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return &wire6{client: tfplugin6.NewProviderClient(conn)}, nil
}

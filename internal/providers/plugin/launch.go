package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/go-hclog"
	plugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/strata-dev/strata/internal/tailbuf"
)

// Providers and provisioners are started the same way: the plugin binary
// as a go-plugin process over gRPC with mutual TLS (mtls.go), its stderr's
// end kept for error messages, its log lines sent to the logger.

// processConfig is the go-plugin configuration that starts the plugin
// binary at path (a "provider" or "provisioner", for messages) serving
// versioned, with o's options. It returns the log file it opened (nil:
// none) and the buffer that keeps the end of the plugin's stderr.
func processConfig(kind, path string, o *options, versioned map[int]plugin.PluginSet) (*plugin.ClientConfig, *os.File, *tailbuf.Buffer, error) {
	if o.name == "" {
		o.name = filepath.Base(path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil, nil, fmt.Errorf("%s plugin %s: %w", kind, o.name, err)
	}
	var logFile *os.File
	logger := o.logger
	if logger == nil {
		logger, logFile = defaultLogger(*o)
	}
	cert, err := clientCert()
	if err != nil {
		if logFile != nil {
			_ = logFile.Close()
		}
		return nil, nil, nil, fmt.Errorf("%s plugin %s: a certificate for its TLS connection: %w", kind, o.name, err)
	}
	cmd := pluginCommand(path, o.getenv, o.environ, o.dir)
	cmd.Env = append(cmd.Env, "PLUGIN_CLIENT_CERT="+cert.pem)
	tail := tailbuf.New(stderrTail)
	debugWriter := logger.StandardWriter(&hclog.StandardLoggerOptions{ForceLevel: hclog.Debug})
	return &plugin.ClientConfig{
		HandshakeConfig:  Handshake,
		VersionedPlugins: versioned,
		Cmd:              cmd,
		// cmd.Env is the whole environment (the command's, not
		// necessarily this process's).
		SkipHostEnv:      true,
		AllowedProtocols: []plugin.Protocol{plugin.ProtocolGRPC},
		Managed:          true,
		TLSConfig:        cert.tlsConfig(),
		Logger:           logger,
		StartTimeout:     o.startTimeout,
		Stderr:           tail,
		SyncStdout:       debugWriter,
		SyncStderr:       debugWriter,
	}, logFile, tail, nil
}

// startPlugin starts (or reattaches to) the plugin config describes and
// dispenses its service. On error nothing started here is left running,
// logFile is closed, and the message carries the end of the plugin's
// output.
func startPlugin(kind, name, service string, logFile *os.File, tail *tailbuf.Buffer, config *plugin.ClientConfig) (*plugin.Client, any, error) {
	config.GRPCDialOptions = []grpc.DialOption{grpc.WithDefaultCallOptions(
		grpc.MaxCallRecvMsgSize(maxMessageSize), grpc.MaxCallSendMsgSize(maxMessageSize))}
	client := plugin.NewClient(config)
	rpc, err := client.Client()
	var raw any
	if err == nil {
		raw, err = rpc.Dispense(service)
	}
	if err != nil {
		return nil, nil, startFailed(client, kind, name, logFile, tail, err)
	}
	return client, raw, nil
}

// startFailed ends a plugin that did not start as expected and returns
// the error to report.
func startFailed(client *plugin.Client, kind, name string, logFile *os.File, tail *tailbuf.Buffer, err error) error {
	client.Kill()
	if logFile != nil {
		_ = logFile.Close()
	}
	msg := err.Error()
	if out := strings.TrimSpace(tail.String()); out != "" {
		msg += "\n\nThe plugin's output:\n" + out
	}
	return fmt.Errorf("failed to start %s plugin %s: %s", kind, name, msg)
}

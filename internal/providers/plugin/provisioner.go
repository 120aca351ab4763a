package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	plugin "github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/grpc"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/providers/plugin/convert"
	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
	"github.com/strata-dev/strata/internal/tailbuf"
)

// Provisioner is a provisioner plugin (a terraform-provisioner-NAME
// binary) served over protocol 5, the only one provisioners speak, under
// go-plugin's plugin name "provisioner". NewProvisioner starts its process;
// Close ends it.
type Provisioner struct {
	name    string
	client  *plugin.Client
	rpc     tfplugin5.ProvisionerClient
	stderr  *tailbuf.Buffer
	logFile *os.File
	once    sync.Once
}

// NewProvisioner starts the provisioner plugin at path. Of the options,
// WithLogger, WithLogOutput, WithGetenv, WithStartTimeout, WithName,
// WithDir, WithEnviron and WithTracker apply. An error means no process is left
// running.
func NewProvisioner(path string, opts ...Option) (*Provisioner, error) {
	o := options{getenv: os.Getenv}
	for _, opt := range opts {
		opt(&o)
	}
	config, logFile, tail, err := processConfig("provisioner", path, &o, map[int]plugin.PluginSet{5: {provisionerPluginName: grpcProvisioner5{}}})
	if err != nil {
		return nil, err
	}
	client, raw, err := startPlugin("provisioner", o.name, provisionerPluginName, logFile, tail, config)
	if err != nil {
		return nil, err
	}
	pc, ok := raw.(tfplugin5.ProvisionerClient)
	if !ok {
		return nil, startFailed(client, "provisioner", o.name, logFile, tail, fmt.Errorf("unexpected plugin client type %T", raw))
	}
	p := &Provisioner{name: o.name, client: client, rpc: pc, stderr: tail, logFile: logFile}
	if o.tracker != nil {
		o.tracker.addClose(p.Close)
	}
	return p, nil
}

// provisionerPluginName is the name under which provisioners register
// their gRPC service with go-plugin.
const provisionerPluginName = "provisioner"

type grpcProvisioner5 struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcProvisioner5) GRPCServer(*plugin.GRPCBroker, *grpc.Server) error {
	return errors.New("strata does not serve provisioner plugins")
}

func (grpcProvisioner5) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, conn *grpc.ClientConn) (any, error) {
	return tfplugin5.NewProvisionerClient(conn), nil
}

// Schema returns the schema of the provisioner's block.
func (p *Provisioner) Schema(ctx context.Context) (*configschema.Block, providers.Diagnostics, error) {
	resp, err := p.rpc.GetSchema(ctx, &tfplugin5.GetProvisionerSchema_Request{})
	if err != nil {
		return nil, nil, p.callError("GetSchema", err)
	}
	diags := convert.Diagnostics5(resp.GetDiagnostics())
	if diags.HasErrors() {
		return nil, diags, nil
	}
	s, err := convert.ProviderSchema5(resp.GetProvisioner())
	if err != nil {
		return nil, diags, fmt.Errorf("the schema of provisioner plugin %s: %w", p.name, err)
	}
	if s.Block == nil {
		s.Block = &configschema.Block{}
	}
	return s.Block, diags, nil
}

// Validate asks the provisioner to check a configuration conforming to
// ty, which may hold unknown values.
func (p *Provisioner) Validate(ctx context.Context, config cty.Value, ty cty.Type) (providers.Diagnostics, error) {
	mp, err := convert.EncodeValue(config, ty)
	if err != nil {
		return nil, fmt.Errorf("encoding the configuration of provisioner plugin %s: %w", p.name, err)
	}
	resp, err := p.rpc.ValidateProvisionerConfig(ctx, &tfplugin5.ValidateProvisionerConfig_Request{Config: &tfplugin5.DynamicValue{Msgpack: mp}})
	if err != nil {
		return nil, p.callError("ValidateProvisionerConfig", err)
	}
	return convert.Diagnostics5(resp.GetDiagnostics()), nil
}

// Provision runs the provisioner with config (conforming to configTy)
// and connection (conforming to connTy, or null), passing each message
// it streams to output. Cancelling ctx asks the plugin to stop.
func (p *Provisioner) Provision(ctx context.Context, config cty.Value, configTy cty.Type, connection cty.Value, connTy cty.Type, output func(string)) (providers.Diagnostics, error) {
	cfg, err := convert.EncodeValue(config, configTy)
	if err != nil {
		return nil, fmt.Errorf("encoding the configuration of provisioner plugin %s: %w", p.name, err)
	}
	conn, err := convert.EncodeValue(connection, connTy)
	if err != nil {
		return nil, fmt.Errorf("encoding the connection of provisioner plugin %s: %w", p.name, err)
	}
	stop := context.AfterFunc(ctx, func() {
		_, _ = p.rpc.Stop(context.WithoutCancel(ctx), &tfplugin5.Stop_Request{})
	})
	defer stop()
	stream, err := p.rpc.ProvisionResource(context.WithoutCancel(ctx), &tfplugin5.ProvisionResource_Request{
		Config: &tfplugin5.DynamicValue{Msgpack: cfg}, Connection: &tfplugin5.DynamicValue{Msgpack: conn},
	})
	if err != nil {
		return nil, p.callError("ProvisionResource", err)
	}
	var diags providers.Diagnostics
	for {
		resp, err := stream.Recv()
		if resp != nil {
			// Every message is output, an empty one too (plugins end with
			// one), as Terraform passes them on: its view shows an empty
			// message as an empty line.
			output(resp.GetOutput())
			diags = append(diags, convert.Diagnostics5(resp.GetDiagnostics())...)
		}
		if err == io.EOF {
			return diags, nil
		}
		if err != nil {
			return diags, p.callError("ProvisionResource", err)
		}
	}
}

// callError describes a failed call, with the end of the plugin's output
// when it crashed.
func (p *Provisioner) callError(method string, err error) error {
	msg := fmt.Sprintf("provisioner plugin %s: %s: %v", p.name, method, err)
	if p.client.Exited() {
		if out := strings.TrimSpace(p.stderr.String()); out != "" {
			msg += "\n\nThe plugin's output:\n" + out
		}
	}
	return errors.New(msg)
}

// Close ends the plugin process. It may be called more than once.
func (p *Provisioner) Close() {
	p.once.Do(func() {
		p.client.Kill()
		if p.logFile != nil {
			_ = p.logFile.Close()
		}
	})
}

// Command provisioner is a provisioner plugin for tests: installed as
// terraform-provisioner-echo, it serves protocol 5's Provisioner service.
// Its block takes message (required) and fail; it prints the message, the
// connection's host when there is one, and ends with an empty message as
// Terraform's own plugins do. A message of "invalid" fails validation and
// fail = true fails the run.
package main

import (
	"context"
	"fmt"

	plugin "github.com/hashicorp/go-plugin"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
	"google.golang.org/grpc"

	"github.com/strata-dev/strata/internal/providers/plugin/proto/tfplugin5"
)

func main() {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: plugin.HandshakeConfig{
			MagicCookieKey:   "TF_PLUGIN_MAGIC_COOKIE",
			MagicCookieValue: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
		},
		VersionedPlugins: map[int]plugin.PluginSet{5: {"provisioner": grpcPlugin{}}},
		GRPCServer:       plugin.DefaultGRPCServer,
	})
}

type grpcPlugin struct{ plugin.NetRPCUnsupportedPlugin }

func (grpcPlugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	tfplugin5.RegisterProvisionerServer(s, &server{})
	return nil
}

func (grpcPlugin) GRPCClient(context.Context, *plugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, fmt.Errorf("not a client")
}

type server struct {
	tfplugin5.UnimplementedProvisionerServer
}

func (*server) GetSchema(context.Context, *tfplugin5.GetProvisionerSchema_Request) (*tfplugin5.GetProvisionerSchema_Response, error) {
	return &tfplugin5.GetProvisionerSchema_Response{Provisioner: &tfplugin5.Schema{Block: &tfplugin5.Schema_Block{
		Attributes: []*tfplugin5.Schema_Attribute{
			{Name: "message", Type: []byte(`"string"`), Required: true},
			{Name: "fail", Type: []byte(`"bool"`), Optional: true},
		},
	}}}, nil
}

var (
	configT = cty.Object(map[string]cty.Type{"message": cty.String, "fail": cty.Bool})
	connT   = cty.Map(cty.String)
)

// decode decodes a value of type ty; unknown and null attributes come
// back as "".
func decode(dv *tfplugin5.DynamicValue, ty cty.Type) (map[string]string, error) {
	out := map[string]string{}
	if dv == nil || len(dv.Msgpack) == 0 {
		return out, nil
	}
	v, err := ctymsgpack.Unmarshal(dv.Msgpack, ty)
	if err != nil || v.IsNull() {
		return out, err
	}
	for k, e := range v.AsValueMap() {
		if !e.IsKnown() || e.IsNull() {
			continue
		}
		switch e.Type() {
		case cty.String:
			out[k] = e.AsString()
		case cty.Bool:
			out[k] = fmt.Sprint(e.True())
		}
	}
	return out, nil
}

func errorDiag(summary, detail string) []*tfplugin5.Diagnostic {
	return []*tfplugin5.Diagnostic{{Severity: tfplugin5.Diagnostic_ERROR, Summary: summary, Detail: detail}}
}

func (*server) ValidateProvisionerConfig(_ context.Context, req *tfplugin5.ValidateProvisionerConfig_Request) (*tfplugin5.ValidateProvisionerConfig_Response, error) {
	cfg, err := decode(req.Config, configT)
	if err != nil {
		return &tfplugin5.ValidateProvisionerConfig_Response{Diagnostics: errorDiag("Invalid configuration", err.Error())}, nil
	}
	if cfg["message"] == "invalid" {
		return &tfplugin5.ValidateProvisionerConfig_Response{Diagnostics: errorDiag("Invalid message", `The message "invalid" is not allowed.`)}, nil
	}
	return &tfplugin5.ValidateProvisionerConfig_Response{}, nil
}

func (*server) ProvisionResource(req *tfplugin5.ProvisionResource_Request, stream tfplugin5.Provisioner_ProvisionResourceServer) error {
	cfg, err := decode(req.Config, configT)
	if err != nil {
		return stream.Send(&tfplugin5.ProvisionResource_Response{Diagnostics: errorDiag("Invalid configuration", err.Error())})
	}
	conn, err := decode(req.Connection, connT)
	if err != nil {
		return stream.Send(&tfplugin5.ProvisionResource_Response{Diagnostics: errorDiag("Invalid connection", err.Error())})
	}
	if err := stream.Send(&tfplugin5.ProvisionResource_Response{Output: "message: " + cfg["message"]}); err != nil {
		return err
	}
	if host, ok := conn["host"]; ok {
		if err := stream.Send(&tfplugin5.ProvisionResource_Response{Output: "host: " + host}); err != nil {
			return err
		}
	}
	end := &tfplugin5.ProvisionResource_Response{}
	if cfg["fail"] == "true" {
		end.Diagnostics = errorDiag("Echo failed", "The echo provisioner was asked to fail.")
	}
	return stream.Send(end)
}

func (*server) Stop(context.Context, *tfplugin5.Stop_Request) (*tfplugin5.Stop_Response, error) {
	return &tfplugin5.Stop_Response{}, nil
}

// Command tftest is a stand-in, served over plugin protocol 6, for the
// in-process provider that Terraform's own `terraform test` fixtures use
// (hashicorp/test). It is written from the behaviour those fixtures expect,
// so that the fixtures can be run through terraform and strata alike from a
// filesystem mirror (see internal/command/e2e_tffixtures_test.go).
//
// Provider configuration: data_prefix and resource_prefix, which prefix
// the keys under which data sources and resources are looked up and stored.
//
// Resource test_resource: id (optional, computed: a UUID when not set),
// value, interrupt_count (on create, send SIGINT to the calling process
// that many times, then wait a second), destroy_fail (optional, computed:
// false when not set; true makes its destroy fail), create_wait_seconds and
// destroy_wait_seconds (sleep on create or destroy), write_only (a write-only
// string). Created objects are kept in a store shared by every instance of
// the provider that the same command starts, so that refreshes find them
// and data sources can read them.
//
// Data source test_data_source: reads the object stored under its id (a
// resource's id), and fails with "not found" when there is none.
//
// Ephemeral resource test_ephemeral_resource: value is always "bar".
//
// Function is_true(input bool) bool returns its argument.
//
// The store is a directory: $TFTEST_STORE_DIR when set, otherwise one per
// calling process under the system's temporary directory (each command
// starts with an empty store, as Terraform's in-process provider does).
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"math/big"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func main() {
	debug := flag.Bool("debug", false, "run as an unmanaged provider")
	flag.Parse()
	var opts []tf6server.ServeOpt
	if *debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve("registry.terraform.io/hashicorp/test", func() tfprotov6.ProviderServer {
		return &server{store: newStore()}
	}, opts...)
	if err != nil {
		log.Fatal(err)
	}
}

// objectAttrs are the attributes of test_resource and test_data_source:
// the two have the same type, so that a data source can read what a
// resource stored.
var objectAttrs = map[string]tftypes.Type{
	"id":                   tftypes.String,
	"value":                tftypes.String,
	"interrupt_count":      tftypes.Number,
	"destroy_fail":         tftypes.Bool,
	"create_wait_seconds":  tftypes.Number,
	"destroy_wait_seconds": tftypes.Number,
	"write_only":           tftypes.String,
}

var (
	objectType    = tftypes.Object{AttributeTypes: objectAttrs}
	providerType  = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"data_prefix": tftypes.String, "resource_prefix": tftypes.String}}
	ephemeralType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"value": tftypes.String}}
)

func schemas() *tfprotov6.GetProviderSchemaResponse {
	attr := func(name string, t tftypes.Type, mode string) *tfprotov6.SchemaAttribute {
		a := &tfprotov6.SchemaAttribute{Name: name, Type: t}
		for _, m := range strings.Split(mode, ",") {
			switch m {
			case "optional":
				a.Optional = true
			case "computed":
				a.Computed = true
			case "required":
				a.Required = true
			case "writeonly":
				a.WriteOnly = true
			}
		}
		return a
	}
	return &tfprotov6.GetProviderSchemaResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{},
		Provider: &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
			attr("data_prefix", tftypes.String, "optional"),
			attr("resource_prefix", tftypes.String, "optional"),
		}}},
		ResourceSchemas: map[string]*tfprotov6.Schema{"test_resource": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
			attr("create_wait_seconds", tftypes.Number, "optional"),
			attr("destroy_fail", tftypes.Bool, "optional,computed"),
			attr("destroy_wait_seconds", tftypes.Number, "optional"),
			attr("id", tftypes.String, "optional,computed"),
			attr("interrupt_count", tftypes.Number, "optional"),
			attr("value", tftypes.String, "optional"),
			attr("write_only", tftypes.String, "optional,writeonly"),
		}}}},
		DataSourceSchemas: map[string]*tfprotov6.Schema{"test_data_source": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
			attr("create_wait_seconds", tftypes.Number, "computed"),
			attr("destroy_fail", tftypes.Bool, "computed"),
			attr("destroy_wait_seconds", tftypes.Number, "computed"),
			attr("id", tftypes.String, "required"),
			attr("interrupt_count", tftypes.Number, "computed"),
			attr("value", tftypes.String, "computed"),
			attr("write_only", tftypes.String, "optional,writeonly"),
		}}}},
		EphemeralResourceSchemas: map[string]*tfprotov6.Schema{"test_ephemeral_resource": {Block: &tfprotov6.SchemaBlock{Attributes: []*tfprotov6.SchemaAttribute{
			attr("value", tftypes.String, "computed"),
		}}}},
		Functions: functions(),
	}
}

func functions() map[string]*tfprotov6.Function {
	return map[string]*tfprotov6.Function{"is_true": {
		Parameters: []*tfprotov6.FunctionParameter{{Name: "input", Type: tftypes.Bool}},
		Return:     &tfprotov6.FunctionReturn{Type: tftypes.Bool},
	}}
}

// server implements the protocol. Methods the fixtures never reach
// (actions, list resources, state stores) are left to the embedded nil
// interface.
type server struct {
	tfprotov6.ProviderServer

	store *store

	mu                         sync.Mutex
	dataPrefix, resourcePrefix string
}

func errDiag(summary, detail string) []*tfprotov6.Diagnostic {
	return []*tfprotov6.Diagnostic{{Severity: tfprotov6.DiagnosticSeverityError, Summary: summary, Detail: detail}}
}

// object decodes v as an object of typ into its attributes.
func object(v *tfprotov6.DynamicValue, typ tftypes.Type) (map[string]tftypes.Value, bool, error) {
	if v == nil {
		return nil, true, nil
	}
	val, err := v.Unmarshal(typ)
	if err != nil {
		return nil, false, err
	}
	if val.IsNull() {
		return nil, true, nil
	}
	var m map[string]tftypes.Value
	if err := val.As(&m); err != nil {
		return nil, false, err
	}
	return m, false, nil
}

func encode(typ tftypes.Type, attrs map[string]tftypes.Value) *tfprotov6.DynamicValue {
	var v tftypes.Value
	if attrs == nil {
		v = tftypes.NewValue(typ, nil)
	} else {
		v = tftypes.NewValue(typ, attrs)
	}
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		panic(err)
	}
	return &dv
}

// str returns a known, non-null string attribute.
func str(v tftypes.Value) (string, bool) {
	if !v.IsKnown() || v.IsNull() {
		return "", false
	}
	var s string
	_ = v.As(&s)
	return s, true
}

func seconds(v tftypes.Value) int64 {
	if !v.IsKnown() || v.IsNull() {
		return 0
	}
	f := new(big.Float)
	if err := v.As(&f); err != nil || f == nil {
		return 0
	}
	n, _ := f.Int64()
	return n
}

func (s *server) GetMetadata(context.Context, *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return &tfprotov6.GetMetadataResponse{
		ServerCapabilities: &tfprotov6.ServerCapabilities{},
		Resources:          []tfprotov6.ResourceMetadata{{TypeName: "test_resource"}},
		DataSources:        []tfprotov6.DataSourceMetadata{{TypeName: "test_data_source"}},
		EphemeralResources: []tfprotov6.EphemeralResourceMetadata{{TypeName: "test_ephemeral_resource"}},
		Functions:          []tfprotov6.FunctionMetadata{{Name: "is_true"}},
	}, nil
}

func (s *server) GetProviderSchema(context.Context, *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return schemas(), nil
}

func (s *server) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{}, nil
}

func (s *server) GetFunctions(context.Context, *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return &tfprotov6.GetFunctionsResponse{Functions: functions()}, nil
}

func (s *server) ValidateProviderConfig(_ context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return &tfprotov6.ValidateProviderConfigResponse{PreparedConfig: req.Config}, nil
}

func (s *server) ConfigureProvider(_ context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	attrs, _, err := object(req.Config, providerType)
	if err != nil {
		return &tfprotov6.ConfigureProviderResponse{Diagnostics: errDiag("Invalid provider configuration", err.Error())}, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dataPrefix, _ = str(attrs["data_prefix"])
	s.resourcePrefix, _ = str(attrs["resource_prefix"])
	return &tfprotov6.ConfigureProviderResponse{}, nil
}

func (s *server) StopProvider(context.Context, *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return &tfprotov6.StopProviderResponse{}, nil
}

func (s *server) resourceKey(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return path.Join(s.resourcePrefix, id)
}

func (s *server) dataKey(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return path.Join(s.dataPrefix, id)
}

func (s *server) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return &tfprotov6.ValidateResourceConfigResponse{}, nil
}

func (s *server) ValidateDataResourceConfig(context.Context, *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return &tfprotov6.ValidateDataResourceConfigResponse{}, nil
}

func (s *server) ValidateEphemeralResourceConfig(context.Context, *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return &tfprotov6.ValidateEphemeralResourceConfigResponse{}, nil
}

func (s *server) UpgradeResourceState(_ context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	v, err := req.RawState.UnmarshalWithOpts(objectType, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag("Invalid state", err.Error())}, nil
	}
	dv, err := tfprotov6.NewDynamicValue(objectType, v)
	if err != nil {
		return &tfprotov6.UpgradeResourceStateResponse{Diagnostics: errDiag("Invalid state", err.Error())}, nil
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &dv}, nil
}

func (s *server) ReadResource(_ context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	prior, _, err := object(req.CurrentState, objectType)
	if err != nil {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errDiag("Invalid state", err.Error())}, nil
	}
	id, _ := str(prior["id"])
	obj, ok := s.store.get(s.resourceKey(id))
	if !ok {
		return &tfprotov6.ReadResourceResponse{Diagnostics: errDiag("not found", id+" does not exist")}, nil
	}
	return &tfprotov6.ReadResourceResponse{NewState: obj, Private: req.Private}, nil
}

func (s *server) PlanResourceChange(_ context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	proposed, null, err := object(req.ProposedNewState, objectType)
	if err != nil {
		return &tfprotov6.PlanResourceChangeResponse{Diagnostics: errDiag("Invalid plan", err.Error())}, nil
	}
	if null {
		return &tfprotov6.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}, nil
	}
	if v := proposed["id"]; !v.IsKnown() || v.IsNull() {
		proposed["id"] = tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	}
	if v := proposed["destroy_fail"]; !v.IsKnown() || v.IsNull() {
		proposed["destroy_fail"] = tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)
	}
	proposed["write_only"] = tftypes.NewValue(tftypes.String, nil)
	return &tfprotov6.PlanResourceChangeResponse{PlannedState: encode(objectType, proposed), PlannedPrivate: req.PriorPrivate}, nil
}

func (s *server) ApplyResourceChange(_ context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	planned, null, err := object(req.PlannedState, objectType)
	if err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Invalid plan", err.Error())}, nil
	}
	if null {
		prior, _, err := object(req.PriorState, objectType)
		if err != nil {
			return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Invalid state", err.Error())}, nil
		}
		if v := prior["destroy_fail"]; v.IsKnown() && !v.IsNull() {
			var fail bool
			_ = v.As(&fail)
			if fail {
				return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Failed to destroy resource", "destroy_fail is set to true")}, nil
			}
		}
		time.Sleep(time.Duration(seconds(prior["destroy_wait_seconds"])) * time.Second)
		id, _ := str(prior["id"])
		s.store.remove(s.resourceKey(id))
		return &tfprotov6.ApplyResourceChangeResponse{NewState: req.PlannedState}, nil
	}
	id, ok := str(planned["id"])
	if !ok {
		id = newUUID()
		planned["id"] = tftypes.NewValue(tftypes.String, id)
	}
	if n := seconds(planned["interrupt_count"]); n > 0 {
		// Terraform's in-process provider interrupts the test command
		// directly; a plugin can only signal the process that runs it.
		for i := int64(0); i < n; i++ {
			_ = syscall.Kill(os.Getppid(), syscall.SIGINT)
		}
		time.Sleep(time.Second)
	}
	time.Sleep(time.Duration(seconds(planned["create_wait_seconds"])) * time.Second)
	if v := planned["destroy_fail"]; !v.IsKnown() {
		planned["destroy_fail"] = tftypes.NewValue(tftypes.Bool, false)
	}
	newState := encode(objectType, planned)
	if err := s.store.put(s.resourceKey(id), newState); err != nil {
		return &tfprotov6.ApplyResourceChangeResponse{Diagnostics: errDiag("Failed to store the object", err.Error())}, nil
	}
	return &tfprotov6.ApplyResourceChangeResponse{NewState: newState, Private: req.PlannedPrivate}, nil
}

func (s *server) ImportResourceState(context.Context, *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return &tfprotov6.ImportResourceStateResponse{Diagnostics: errDiag("Import not supported", "test_resource cannot be imported.")}, nil
}

func (s *server) MoveResourceState(context.Context, *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return &tfprotov6.MoveResourceStateResponse{Diagnostics: errDiag("Move not supported", "test_resource cannot be moved.")}, nil
}

func (s *server) UpgradeResourceIdentity(context.Context, *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return &tfprotov6.UpgradeResourceIdentityResponse{Diagnostics: errDiag("Identity not supported", "test_resource has no identity.")}, nil
}

func (s *server) ReadDataSource(_ context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	cfg, _, err := object(req.Config, objectType)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errDiag("Invalid configuration", err.Error())}, nil
	}
	id, _ := str(cfg["id"])
	obj, ok := s.store.get(s.dataKey(id))
	if !ok {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errDiag("not found", id+" does not exist")}, nil
	}
	attrs, _, err := object(obj, objectType)
	if err != nil {
		return &tfprotov6.ReadDataSourceResponse{Diagnostics: errDiag("Invalid stored object", err.Error())}, nil
	}
	attrs["write_only"] = tftypes.NewValue(tftypes.String, nil)
	return &tfprotov6.ReadDataSourceResponse{State: encode(objectType, attrs)}, nil
}

func (s *server) OpenEphemeralResource(context.Context, *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return &tfprotov6.OpenEphemeralResourceResponse{Result: encode(ephemeralType, map[string]tftypes.Value{"value": tftypes.NewValue(tftypes.String, "bar")})}, nil
}

func (s *server) RenewEphemeralResource(context.Context, *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return &tfprotov6.RenewEphemeralResourceResponse{}, nil
}

func (s *server) CloseEphemeralResource(context.Context, *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return &tfprotov6.CloseEphemeralResourceResponse{}, nil
}

func (s *server) CallFunction(_ context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	if req.Name != "is_true" || len(req.Arguments) != 1 {
		return &tfprotov6.CallFunctionResponse{Error: &tfprotov6.FunctionError{Text: fmt.Sprintf("unknown function %q", req.Name)}}, nil
	}
	return &tfprotov6.CallFunctionResponse{Result: req.Arguments[0]}, nil
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// store keeps objects as files (their msgpack encoding) in a directory
// shared by the provider processes of one command.
type store struct{ dir string }

func newStore() *store {
	dir := os.Getenv("TFTEST_STORE_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("tftest-store-%d", os.Getppid()))
	}
	return &store{dir: dir}
}

func (st *store) file(key string) string {
	return filepath.Join(st.dir, hex.EncodeToString([]byte(key)))
}

func (st *store) get(key string) (*tfprotov6.DynamicValue, bool) {
	data, err := os.ReadFile(st.file(key))
	if err != nil {
		return nil, false
	}
	return &tfprotov6.DynamicValue{MsgPack: data}, true
}

func (st *store) put(key string, v *tfprotov6.DynamicValue) error {
	if err := os.MkdirAll(st.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(st.dir, "tmp-")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(v.MsgPack); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), st.file(key))
}

func (st *store) remove(key string) { _ = os.Remove(st.file(key)) }

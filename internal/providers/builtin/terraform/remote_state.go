package terraform

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/strata-dev/strata/internal/configs/configschema"
	"github.com/strata-dev/strata/internal/providers"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// remoteStateSchema is the schema of the terraform_remote_state data
// source, as Terraform defines it.
func remoteStateSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"backend":   {Type: cty.String, Required: true, Description: "The remote backend to use, e.g. `remote` or `http`.", DescriptionKind: "markdown"},
			"config":    {Type: cty.DynamicPseudoType, Optional: true, Description: "The configuration of the remote backend. Although this is optional, most backends require some configuration.\n\nThe object can use any arguments that would be valid in the equivalent `terraform { backend \"<TYPE>\" { ... } }` block.", DescriptionKind: "markdown"},
			"defaults":  {Type: cty.DynamicPseudoType, Optional: true, Description: "Default values for outputs, in case the state file is empty or lacks a required output.", DescriptionKind: "markdown"},
			"outputs":   {Type: cty.DynamicPseudoType, Computed: true, Description: "An object containing every root-level output in the remote state.", DescriptionKind: "markdown"},
			"workspace": {Type: cty.String, Optional: true, Description: "The Terraform workspace to use, if the backend supports workspaces.", DescriptionKind: "markdown"},
		},
	}
}

// readRemoteState reads the root outputs of another configuration's
// state, from the local, pg or http backend.
func readRemoteState(req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	var resp providers.ReadDataSourceResponse
	cfg := req.Config
	backend := cfg.GetAttr("backend").AsString()
	schema, ok := remoteStateBackends[backend]
	if !ok {
		resp.Diagnostics = resp.Diagnostics.Errorf("Unsupported backend for terraform_remote_state",
			"This version of strata reads remote state from the \"local\", \"pg\" and \"http\" backends, not %q.", backend)
		return resp
	}
	conf, diags := remoteStateConfig(cfg.GetAttr("config"), backend, schema)
	if diags.HasErrors() {
		resp.Diagnostics = diags
		return resp
	}
	workspace := "default"
	if ws := cfg.GetAttr("workspace"); !ws.IsNull() {
		workspace = ws.AsString()
	}
	outputs := map[string]cty.Value{}
	if d := cfg.GetAttr("defaults"); !d.IsNull() {
		if !d.Type().IsObjectType() && !d.Type().IsMapType() {
			resp.Diagnostics = resp.Diagnostics.Errorf("Invalid defaults", "The defaults argument must be an object.")
			return resp
		}
		for it := d.ElementIterator(); it.Next(); {
			k, v := it.Element()
			outputs[k.AsString()] = v
		}
	}
	var s *states.State
	var found bool
	var err error
	switch backend {
	case "local":
		s, found, err = readLocalRemoteState(conf, workspace)
	case "pg":
		s, found, err = readPGRemoteState(conf, workspace)
	case "http":
		s, found, err = readHTTPRemoteState(conf, workspace)
	}
	if err != nil {
		resp.Diagnostics = providers.ErrorDiag("Unable to read remote state", err)
		return resp
	}
	if !found {
		// As in Terraform, even with defaults.
		resp.Diagnostics = resp.Diagnostics.Errorf("Unable to find remote state", "No stored state was found for the given workspace in the given backend.")
		return resp
	}
	for name, o := range s.Outputs {
		outputs[name] = o.Value
	}
	vals := cfg.AsValueMap()
	vals["outputs"] = cty.ObjectVal(outputs)
	resp.State = cty.ObjectVal(vals)
	return resp
}

// remoteStateBackends are the arguments config may give for each backend
// type: those of its backend block.
var remoteStateBackends = map[string]map[string]cty.Type{
	"local": {"path": cty.String, "workspace_dir": cty.String},
	"pg": {
		"conn_str": cty.String, "schema_name": cty.String,
		"skip_schema_creation": cty.Bool, "skip_table_creation": cty.Bool, "skip_index_creation": cty.Bool,
	},
	"http": {
		"address": cty.String, "update_method": cty.String,
		"lock_address": cty.String, "lock_method": cty.String,
		"unlock_address": cty.String, "unlock_method": cty.String,
		"username": cty.String, "password": cty.String,
		"skip_cert_verification": cty.Bool,
		"retry_max":              cty.Number, "retry_wait_min": cty.Number, "retry_wait_max": cty.Number,
		"client_ca_certificate_pem": cty.String, "client_certificate_pem": cty.String, "client_private_key_pem": cty.String,
	},
}

// backendConf is a backend's configuration from the config argument, with
// the backend's environment variables for what it leaves out.
type backendConf struct {
	vals map[string]cty.Value
	env  func(string) string
}

func (c backendConf) str(name, env string) string {
	if v, ok := c.vals[name]; ok {
		return v.AsString()
	}
	if env == "" {
		return ""
	}
	return c.env(env)
}

func (c backendConf) flag(name, env string) (bool, error) {
	if v, ok := c.vals[name]; ok {
		return v.True(), nil
	}
	e := c.env(env)
	if e == "" {
		return false, nil
	}
	on, err := strconv.ParseBool(e)
	if err != nil {
		return false, fmt.Errorf("the environment variable %s must be true or false, not %q", env, e)
	}
	return on, nil
}

func (c backendConf) integer(name, env string, def int) (int, error) {
	if v, ok := c.vals[name]; ok {
		n, acc := v.AsBigFloat().Int64()
		if acc != 0 || n < 0 || n > 1<<31 {
			return 0, fmt.Errorf("%s must be a whole number of at least 0", name)
		}
		return int(n), nil
	}
	e := c.env(env)
	if e == "" {
		return def, nil
	}
	n, err := strconv.Atoi(e)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("the environment variable %s must be a whole number, not %q", env, e)
	}
	return n, nil
}

// remoteStateConfig checks the config argument against the backend's
// arguments, converting each to its type.
func remoteStateConfig(c cty.Value, backend string, schema map[string]cty.Type) (backendConf, providers.Diagnostics) {
	conf := backendConf{vals: map[string]cty.Value{}, env: os.Getenv}
	var diags providers.Diagnostics
	if c.IsNull() {
		return conf, nil
	}
	if !c.Type().IsObjectType() && !c.Type().IsMapType() {
		return conf, diags.Errorf("Invalid backend configuration", "The config argument must be an object of the %q backend's arguments.", backend)
	}
	for it := c.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		ty, ok := schema[name]
		if !ok {
			diags = diags.Errorf("Invalid backend configuration", "The %q backend has no argument named %q.", backend, name)
			continue
		}
		if v.IsNull() {
			continue
		}
		cv, err := convert.Convert(v, ty)
		if err != nil || !cv.IsWhollyKnown() {
			diags = diags.Errorf("Invalid backend configuration", "Inappropriate value for the %q backend's argument %q: a %s is required.", backend, name, ty.FriendlyName())
			continue
		}
		conf.vals[name] = cv
	}
	return conf, diags
}

// readLocalRemoteState reads a workspace's state file of the local
// backend.
func readLocalRemoteState(conf backendConf, workspace string) (*states.State, bool, error) {
	path := conf.str("path", "")
	if path == "" {
		path = "terraform.tfstate"
	}
	workspaceDir := conf.str("workspace_dir", "")
	if workspaceDir == "" {
		workspaceDir = "terraform.tfstate.d"
	}
	if workspace != "default" {
		path = filepath.Join(workspaceDir, workspace, filepath.Base(path))
	}
	src, err := os.ReadFile(path)
	if os.IsNotExist(err) || (err == nil && len(src) == 0) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	s, err := statefile.Read(src)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return s, true, nil
}

// readPGRemoteState reads a workspace's row of the pg backend, without
// creating the workspace or touching any lock.
func readPGRemoteState(conf backendConf, workspace string) (*states.State, bool, error) {
	var cfg statemgr.PGConfig
	var err error
	cfg.ConnStr = conf.str("conn_str", "PG_CONN_STR")
	cfg.SchemaName = conf.str("schema_name", "PG_SCHEMA_NAME")
	for _, f := range []struct {
		dst       *bool
		name, env string
	}{
		{&cfg.SkipSchemaCreation, "skip_schema_creation", "PG_SKIP_SCHEMA_CREATION"},
		{&cfg.SkipTableCreation, "skip_table_creation", "PG_SKIP_TABLE_CREATION"},
		{&cfg.SkipIndexCreation, "skip_index_creation", "PG_SKIP_INDEX_CREATION"},
	} {
		if *f.dst, err = conf.flag(f.name, f.env); err != nil {
			return nil, false, err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mgr := statemgr.NewPG(cfg, workspace, "", "")
	// As Terraform's backend does when configured: the schema and table
	// are created unless skipped, so that a missing state is "not found".
	if err := mgr.Setup(ctx); err != nil {
		return nil, false, err
	}
	s, err := mgr.ReadStored(ctx)
	if err != nil {
		return nil, false, err
	}
	return s, mgr.Exists(), nil
}

// readHTTPRemoteState reads the state at the http backend's address. The
// http backend has only the default workspace.
func readHTTPRemoteState(conf backendConf, workspace string) (*states.State, bool, error) {
	if workspace != "default" {
		return nil, false, fmt.Errorf("the http backend has only the default workspace, not %q", workspace)
	}
	env := func(name string) string { return "TF_HTTP_" + strings.ToUpper(name) }
	cfg := statemgr.HTTPConfig{}
	for _, f := range []struct {
		dst  *string
		name string
	}{
		{&cfg.Address, "address"}, {&cfg.UpdateMethod, "update_method"},
		{&cfg.LockAddress, "lock_address"}, {&cfg.LockMethod, "lock_method"},
		{&cfg.UnlockAddress, "unlock_address"}, {&cfg.UnlockMethod, "unlock_method"},
		{&cfg.Username, "username"}, {&cfg.Password, "password"},
		{&cfg.ClientCACertificatePEM, "client_ca_certificate_pem"},
		{&cfg.ClientCertificatePEM, "client_certificate_pem"},
		{&cfg.ClientPrivateKeyPEM, "client_private_key_pem"},
	} {
		*f.dst = conf.str(f.name, env(f.name))
	}
	var err error
	if cfg.SkipCertVerification, err = conf.flag("skip_cert_verification", env("skip_cert_verification")); err != nil {
		return nil, false, err
	}
	if cfg.RetryMax, err = conf.integer("retry_max", env("retry_max"), statemgr.DefaultHTTPRetryMax); err != nil {
		return nil, false, err
	}
	waitMin, err := conf.integer("retry_wait_min", env("retry_wait_min"), int(statemgr.DefaultHTTPRetryWaitMin/time.Second))
	if err != nil {
		return nil, false, err
	}
	waitMax, err := conf.integer("retry_wait_max", env("retry_wait_max"), int(statemgr.DefaultHTTPRetryWaitMax/time.Second))
	if err != nil {
		return nil, false, err
	}
	cfg.RetryWaitMin, cfg.RetryWaitMax = time.Duration(waitMin)*time.Second, time.Duration(waitMax)*time.Second
	mgr, err := statemgr.NewHTTP(cfg, "", "")
	if err != nil {
		return nil, false, err
	}
	// Without a journal path, Read only fetches the state.
	s, _, err := mgr.Read()
	if err != nil {
		return nil, false, err
	}
	return s, mgr.Exists(), nil
}

// Package http is the http backend: the state of the default workspace
// (the only one) behind a URL, locked with LOCK/UNLOCK requests
// (statemgr.HTTP), configured as Terraform's http backend is, with the
// TF_HTTP_* environment variables for the arguments the block leaves out.
//
// It is registered in internal/backend; only that package imports it.
package http

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Info describes the http backend.
var Info = backendbase.Info{
	Name: "http",
	Schema: backendbase.Schema{
		"address":                   cty.String,
		"update_method":             cty.String,
		"lock_address":              cty.String,
		"lock_method":               cty.String,
		"unlock_address":            cty.String,
		"unlock_method":             cty.String,
		"username":                  cty.String,
		"password":                  cty.String,
		"skip_cert_verification":    cty.Bool,
		"retry_max":                 cty.Number,
		"retry_wait_min":            cty.Number,
		"retry_wait_max":            cty.Number,
		"client_ca_certificate_pem": cty.String,
		"client_certificate_pem":    cty.String,
		"client_private_key_pem":    cty.String,
	},
	SingleState: true,
}

// Backend is a configured http backend.
type Backend struct {
	Config  statemgr.HTTPConfig
	rng     hcl.Range
	dataDir string
	version string
	enc     *encryption.Target // for ReadState
	// persist is how often an apply writes the state reached
	// (TF_STATE_PERSIST_INTERVAL in the command's environment).
	persist time.Duration
}

// New configures an http backend from its arguments, with the TF_HTTP_*
// environment variables for those left out.
func New(s *backendbase.Settings) (*Backend, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	env := func(name string) string { return "TF_HTTP_" + strings.ToUpper(name) }
	str := func(name string) string { return s.String(name, env(name)) }
	integer := func(name string, def int) int { return s.Int(name, env(name), def, &diags) }
	cfg := statemgr.HTTPConfig{
		Address:                str("address"),
		UpdateMethod:           str("update_method"),
		LockAddress:            str("lock_address"),
		LockMethod:             str("lock_method"),
		UnlockAddress:          str("unlock_address"),
		UnlockMethod:           str("unlock_method"),
		Username:               str("username"),
		Password:               str("password"),
		SkipCertVerification:   s.Bool("skip_cert_verification", env("skip_cert_verification"), &diags),
		ClientCACertificatePEM: str("client_ca_certificate_pem"),
		ClientCertificatePEM:   str("client_certificate_pem"),
		ClientPrivateKeyPEM:    str("client_private_key_pem"),
		RetryMax:               integer("retry_max", statemgr.DefaultHTTPRetryMax),
		RetryWaitMin:           time.Duration(integer("retry_wait_min", int(statemgr.DefaultHTTPRetryWaitMin/time.Second))) * time.Second,
		RetryWaitMax:           time.Duration(integer("retry_wait_max", int(statemgr.DefaultHTTPRetryWaitMax/time.Second))) * time.Second,
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return &Backend{Config: cfg, rng: s.Range, dataDir: s.DataDir, version: s.Version, enc: s.Encryption, persist: statemgr.PersistInterval(s.Getenv)}, nil
}

// StateMgr returns the manager of the state. Only the default workspace
// exists. The journal of an apply stays on this machine, in the data
// directory, until the final snapshot is sent.
func (b *Backend) StateMgr(_ context.Context, ws string) (statemgr.Manager, hcl.Diagnostics) {
	if ws != statemgr.DefaultWorkspace {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Workspaces not supported",
			Detail:   fmt.Sprintf("The http backend has only the default workspace, but workspace %q is selected (by TF_WORKSPACE or .terraform/environment).", ws),
			Subject:  b.rng.Ptr(),
		}}
	}
	mgr, err := statemgr.NewHTTP(b.Config, filepath.Join(b.dataDir, "http-default.tfstate.journal"), b.version)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to configure the backend \"http\"",
			Detail:   err.Error() + ".",
			Subject:  b.rng.Ptr(),
		}}
	}
	mgr.PersistInterval = b.persist
	return mgr, nil
}

// Workspaces is default alone.
func (b *Backend) Workspaces(context.Context) ([]string, hcl.Diagnostics) {
	return []string{statemgr.DefaultWorkspace}, nil
}

// DeleteWorkspace fails: the http backend has only the default
// workspace.
func (b *Backend) DeleteWorkspace(context.Context, string) error {
	return backendbase.ErrWorkspacesNotSupported
}

// ReadState fetches the state, without recovering a journal or touching
// the lock.
func (b *Backend) ReadState(_ context.Context, ws string) (*states.State, bool, error) {
	if ws != statemgr.DefaultWorkspace {
		return nil, false, fmt.Errorf("the http backend has only the default workspace, not %q", ws)
	}
	if err := remoteStateConfigError(b.Config); err != nil {
		return nil, false, err
	}
	mgr, err := statemgr.NewHTTP(b.Config, "", "")
	if err != nil {
		return nil, false, err
	}
	mgr.SetEncryption(b.enc)
	// Without a journal path, Read only fetches the state.
	s, _, err := mgr.Read()
	if err != nil {
		return nil, false, err
	}
	return s, mgr.Exists(), nil
}

// remoteStateConfigError is the error Terraform's http backend gives
// terraform_remote_state for addresses it refuses, in its words (a bare
// summary, see backendbase.ConfigError); nil when they are usable.
func remoteStateConfigError(cfg statemgr.HTTPConfig) error {
	if cfg.Address == "" {
		return &backendbase.ConfigError{Msg: "address argument is required"}
	}
	u, err := url.Parse(cfg.Address)
	if err != nil {
		return &backendbase.ConfigError{Msg: fmt.Sprintf("failed to parse address URL: %s", err)}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return &backendbase.ConfigError{Msg: "address must be HTTP or HTTPS"}
	}
	for _, a := range [][2]string{{"lock_address", cfg.LockAddress}, {"unlock_address", cfg.UnlockAddress}} {
		name, addr := a[0], a[1]
		if addr == "" {
			continue
		}
		if _, err := url.Parse(addr); err != nil {
			return &backendbase.ConfigError{Msg: fmt.Sprintf("failed to parse %s URL: %s", name, err)}
		}
	}
	return nil
}

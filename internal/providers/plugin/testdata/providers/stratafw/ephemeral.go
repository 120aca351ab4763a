package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	eschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Ephemeral resource stratafw_token: opening it returns the value
// "token-NAME"; with renew_seconds it asks to be renewed that often. When
// the environment variable STRATAFW_EPHEMERAL_LOG names a directory, each
// open, renew and close appends a line "OP NAME" to the file log there,
// so that tests can see what the tool called.

type tokenResource struct{}

var (
	_ ephemeral.EphemeralResourceWithRenew = (*tokenResource)(nil)
	_ ephemeral.EphemeralResourceWithClose = (*tokenResource)(nil)
)

type tokenModel struct {
	Name         types.String `tfsdk:"name"`
	RenewSeconds types.Int64  `tfsdk:"renew_seconds"`
	Value        types.String `tfsdk:"value"`
}

func (r *tokenResource) Metadata(_ context.Context, _ ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = "stratafw_token"
}

func (r *tokenResource) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = eschema.Schema{Attributes: map[string]eschema.Attribute{
		"name":          eschema.StringAttribute{Required: true},
		"renew_seconds": eschema.Int64Attribute{Optional: true},
		"value":         eschema.StringAttribute{Computed: true, Sensitive: true},
	}}
}

func logEphemeral(op, name string) {
	dir := os.Getenv("STRATAFW_EPHEMERAL_LOG")
	if dir == "" {
		return
	}
	f, err := os.OpenFile(filepath.Join(dir, "log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s %s\n", op, name)
}

type tokenPrivate struct {
	Name  string `json:"name"`
	Renew int64  `json:"renew"`
}

func (r *tokenResource) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m tokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := m.Name.ValueString()
	m.Value = types.StringValue("token-" + name)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
	priv := tokenPrivate{Name: name, Renew: m.RenewSeconds.ValueInt64()}
	b, _ := json.Marshal(priv)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "token", b)...)
	if priv.Renew > 0 {
		resp.RenewAt = time.Now().Add(time.Duration(priv.Renew) * time.Second)
	}
	logEphemeral("open", name)
}

func (r *tokenResource) Renew(ctx context.Context, req ephemeral.RenewRequest, resp *ephemeral.RenewResponse) {
	b, _ := req.Private.GetKey(ctx, "token")
	var p tokenPrivate
	_ = json.Unmarshal(b, &p)
	logEphemeral("renew", p.Name)
	if p.Renew > 0 {
		resp.RenewAt = time.Now().Add(time.Duration(p.Renew) * time.Second)
	}
}

func (r *tokenResource) Close(ctx context.Context, req ephemeral.CloseRequest, _ *ephemeral.CloseResponse) {
	b, _ := req.Private.GetKey(ctx, "token")
	var p tokenPrivate
	_ = json.Unmarshal(b, &p)
	logEphemeral("close", p.Name)
}

package main

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// keyed is stratafw_keyed, a resource with a resource identity (protocol
// 6.9): its identity is its name, required to import it, and its region,
// optional (default "eu"). Its id is "<prefix><region>/<name>"; import
// takes "<region>/<name>" as ID, or the identity.
type keyed struct {
	data *providerData
}

var (
	_ resource.ResourceWithConfigure   = (*keyed)(nil)
	_ resource.ResourceWithIdentity    = (*keyed)(nil)
	_ resource.ResourceWithImportState = (*keyed)(nil)
)

type keyedModel struct {
	ID     types.String `tfsdk:"id"`
	Name   types.String `tfsdk:"name"`
	Region types.String `tfsdk:"region"`
	Note   types.String `tfsdk:"note"`
}

type keyedIdentity struct {
	Name   types.String `tfsdk:"name"`
	Region types.String `tfsdk:"region"`
}

func (r *keyed) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_keyed"
}

func (r *keyed) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if d, ok := req.ProviderData.(*providerData); ok {
		r.data = d
	}
}

func (r *keyed) prefix() string {
	if r.data == nil {
		return "fw-"
	}
	return r.data.prefix
}

func (r *keyed) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id":     rschema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name":   rschema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"region": rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("eu"), PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"note":   rschema.StringAttribute{Optional: true},
	}}
}

func (r *keyed) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"name":   identityschema.StringAttribute{RequiredForImport: true, Description: "The name."},
		"region": identityschema.StringAttribute{OptionalForImport: true},
	}}
}

func (r *keyed) identity(m keyedModel) keyedIdentity {
	return keyedIdentity{Name: m.Name, Region: m.Region}
}

func (r *keyed) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m keyedModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.ID = types.StringValue(r.prefix() + m.Region.ValueString() + "/" + m.Name.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, r.identity(m))...)
}

func (r *keyed) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m keyedModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, r.identity(m))...)
}

func (r *keyed) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m keyedModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, r.identity(m))...)
}

func (r *keyed) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func (r *keyed) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id keyedIdentity
	if req.ID != "" {
		region, name, ok := strings.Cut(req.ID, "/")
		if !ok || region == "" || name == "" {
			resp.Diagnostics.AddError("Invalid import ID", "The ID must be <region>/<name>.")
			return
		}
		id = keyedIdentity{Name: types.StringValue(name), Region: types.StringValue(region)}
	} else {
		resp.Diagnostics.Append(req.Identity.Get(ctx, &id)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if id.Region.IsNull() {
			id.Region = types.StringValue("eu")
		}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), r.prefix()+id.Region.ValueString()+"/"+id.Name.ValueString())...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), id.Name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("region"), id.Region)...)
	resp.Diagnostics.Append(resp.Identity.Set(ctx, id)...)
}

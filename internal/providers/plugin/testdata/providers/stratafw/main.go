// Command stratafw is a test provider speaking plugin protocol version 6,
// written with terraform-plugin-framework. strata's plugin tests build and
// run it.
//
// Resource stratafw_thing has a computed id, a replacement-forcing name,
// an optional+computed size defaulting to 1, a sensitive secret, a
// write-only password, nested attributes (single and list) and a list
// block; its validation reports errors at nested attribute paths, its
// private data records who created it, and a sleep_seconds value makes
// create wait until StopProvider. The data source stratafw_echo echoes its
// input with the provider's prefix. Its functions are in functions.go, its
// ephemeral resource stratafw_token in ephemeral.go, the resource
// stratafw_keyed, which has a resource identity, in keyed.go.
//
// Simulated drift: the provider keeps no remote objects, so Read returns
// the state it is given. To let a test change an object "outside" the
// tool, Read looks, when the environment variable STRATAFW_DRIFT_DIR is
// set, for the file $STRATAFW_DRIFT_DIR/<id>.json (see drift.go). A JSON
// object there sets top-level attributes of the object read (name,
// description, size, labels; null unsets the optional ones); the JSON
// value null means the object was deleted. Without the variable or the
// file, Read changes nothing.
package main

import (
	"context"
	"flag"
	"log"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

func main() {
	// -debug serves in the background and prints TF_REATTACH_PROVIDERS,
	// for the tests of unmanaged providers.
	debug := flag.Bool("debug", false, "run as an unmanaged provider")
	flag.Parse()
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &fwProvider{} },
		providerserver.ServeOpts{Address: "registry.terraform.io/strata/stratafw", ProtocolVersion: 6, Debug: *debug})
	if err != nil {
		log.Fatal(err)
	}
}

type providerData struct {
	prefix string
}

type fwProvider struct{}

var (
	_ provider.Provider                       = (*fwProvider)(nil)
	_ provider.ProviderWithValidateConfig     = (*fwProvider)(nil)
	_ provider.ProviderWithFunctions          = (*fwProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*fwProvider)(nil)
)

type providerModel struct {
	Prefix types.String `tfsdk:"prefix"`
}

func (p *fwProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "stratafw"
}

func (p *fwProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"prefix": pschema.StringAttribute{Optional: true, Description: "Prefix of the IDs of new things."},
	}}
}

func (p *fwProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if strings.ContainsAny(cfg.Prefix.ValueString(), " !") {
		resp.Diagnostics.AddAttributeError(path.Root("prefix"), "Invalid prefix", "The prefix must not contain spaces or '!'.")
	}
}

func (p *fwProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	data := &providerData{prefix: "fw-"}
	switch {
	case cfg.Prefix.IsUnknown():
		resp.Diagnostics.AddAttributeWarning(path.Root("prefix"), "Prefix unknown", "The prefix is not known yet.")
	case !cfg.Prefix.IsNull():
		data.prefix = cfg.Prefix.ValueString()
	}
	tflog.Info(ctx, "stratafw configured", map[string]any{"prefix": data.prefix, "terraform_version": req.TerraformVersion})
	resp.ResourceData = data
	resp.DataSourceData = data
}

func (p *fwProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thing{} }, func() resource.Resource { return &keyed{} }}
}

// EphemeralResources returns stratafw_token (ephemeral.go).
func (p *fwProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{func() ephemeral.EphemeralResource { return &tokenResource{} }}
}

func (p *fwProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &echo{} }}
}

// The thing resource.

type thing struct {
	data *providerData
}

var (
	_ resource.ResourceWithConfigure      = (*thing)(nil)
	_ resource.ResourceWithValidateConfig = (*thing)(nil)
	_ resource.ResourceWithModifyPlan     = (*thing)(nil)
	_ resource.ResourceWithImportState    = (*thing)(nil)
)

type thingModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Size         types.Int64  `tfsdk:"size"`
	Description  types.String `tfsdk:"description"`
	Secret       types.String `tfsdk:"secret"`
	PasswordWO   types.String `tfsdk:"password_wo"`
	PasswordSet  types.Bool   `tfsdk:"password_set"`
	Created      types.String `tfsdk:"created"`
	Labels       types.Map    `tfsdk:"labels"`
	SleepSeconds types.Int64  `tfsdk:"sleep_seconds"`
	Settings     types.Object `tfsdk:"settings"`
	Rules        types.List   `tfsdk:"rules"`
	Tag          types.List   `tfsdk:"tag"`
}

type ruleModel struct {
	Port  types.Int64  `tfsdk:"port"`
	Proto types.String `tfsdk:"proto"`
}

type tagModel struct {
	Key   types.String `tfsdk:"key"`
	Value types.String `tfsdk:"value"`
}

var tagType = types.ObjectType{AttrTypes: map[string]attr.Type{"key": types.StringType, "value": types.StringType}}

func (r *thing) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (r *thing) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if d, ok := req.ProviderData.(*providerData); ok {
		r.data = d
	}
}

func (r *thing) prefix() string {
	if r.data == nil {
		return "fw-"
	}
	return r.data.prefix
}

func (r *thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = rschema.Schema{
		Description: "A thing.",
		Attributes: map[string]rschema.Attribute{
			"id":            rschema.StringAttribute{Computed: true, PlanModifiers: keep},
			"name":          rschema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"size":          rschema.Int64Attribute{Optional: true, Computed: true, Default: int64default.StaticInt64(1)},
			"description":   rschema.StringAttribute{Optional: true},
			"secret":        rschema.StringAttribute{Optional: true, Sensitive: true},
			"password_wo":   rschema.StringAttribute{Optional: true, WriteOnly: true},
			"password_set":  rschema.BoolAttribute{Computed: true},
			"created":       rschema.StringAttribute{Computed: true, PlanModifiers: keep},
			"labels":        rschema.MapAttribute{Optional: true, ElementType: types.StringType},
			"sleep_seconds": rschema.Int64Attribute{Optional: true},
			"settings": rschema.SingleNestedAttribute{Optional: true, Attributes: map[string]rschema.Attribute{
				"mode":  rschema.StringAttribute{Optional: true},
				"level": rschema.Int64Attribute{Optional: true},
			}},
			"rules": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{
				Attributes: map[string]rschema.Attribute{
					"port":  rschema.Int64Attribute{Required: true},
					"proto": rschema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("tcp")},
				},
			}},
		},
		Blocks: map[string]rschema.Block{
			"tag": rschema.ListNestedBlock{NestedObject: rschema.NestedBlockObject{Attributes: map[string]rschema.Attribute{
				"key":   rschema.StringAttribute{Required: true},
				"value": rschema.StringAttribute{Optional: true},
			}}},
		},
	}
}

func (r *thing) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg thingModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Name.ValueString() == "invalid" {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Invalid name", `The name "invalid" is not allowed.`)
	}
	if cfg.Description.ValueString() == "deprecated" {
		resp.Diagnostics.AddAttributeWarning(path.Root("description"), "Deprecated description", "This description is deprecated.")
	}
	if !cfg.Rules.IsNull() && !cfg.Rules.IsUnknown() {
		var rules []ruleModel
		resp.Diagnostics.Append(cfg.Rules.ElementsAs(ctx, &rules, true)...)
		for i, rule := range rules {
			if p := rule.Port; !p.IsUnknown() && !p.IsNull() && (p.ValueInt64() < 1 || p.ValueInt64() > 65535) {
				resp.Diagnostics.AddAttributeError(path.Root("rules").AtListIndex(i).AtName("port"), "Invalid port", "A port must be between 1 and 65535.")
			}
		}
	}
	if !cfg.Labels.IsUnknown() {
		if _, bad := cfg.Labels.Elements()["bad"]; bad {
			resp.Diagnostics.AddAttributeError(path.Root("labels").AtMapKey("bad"), "Invalid label", "The label key bad is not allowed.")
		}
	}
	if !cfg.Tag.IsNull() && !cfg.Tag.IsUnknown() {
		var tags []tagModel
		resp.Diagnostics.Append(cfg.Tag.ElementsAs(ctx, &tags, true)...)
		for i, tag := range tags {
			if tag.Key.ValueString() == "bad" {
				resp.Diagnostics.AddAttributeError(path.Root("tag").AtListIndex(i).AtName("key"), "Invalid tag key", "The tag key bad is not allowed.")
			}
		}
	}
}

func (r *thing) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "planned", []byte(`true`))...)
}

func (r *thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, cfg thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if s := plan.SleepSeconds; !s.IsNull() && !s.IsUnknown() {
		select {
		case <-ctx.Done():
			resp.Diagnostics.AddError("Interrupted", "The create was stopped.")
			return
		case <-time.After(time.Duration(s.ValueInt64()) * time.Second):
		}
	}
	plan.ID = types.StringValue(r.prefix() + plan.Name.ValueString())
	plan.Created = types.StringValue("created")
	plan.PasswordSet = types.BoolValue(!cfg.PasswordWO.IsNull())
	plan.PasswordWO = types.StringNull()
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "created_by", []byte(`"stratafw"`))...)
}

func (r *thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var st thingModel
	resp.Diagnostics.Append(req.State.Get(ctx, &st)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if st.ID.ValueString() == "gone" {
		resp.State.RemoveResource(ctx)
		return
	}
	if gone := applyDrift(&st, &resp.Diagnostics); gone {
		resp.State.RemoveResource(ctx)
		return
	}
	if st.Name.IsNull() {
		// An import stub: fill in what the ID tells.
		st.Name = types.StringValue(strings.TrimPrefix(st.ID.ValueString(), r.prefix()))
		st.Size = types.Int64Value(1)
		st.Created = types.StringValue("imported")
		st.PasswordSet = types.BoolValue(false)
		st.Tag = types.ListValueMust(tagType, []attr.Value{})
	}
	if v, d := req.Private.GetKey(ctx, "created_by"); len(v) == 0 || d.HasError() {
		resp.Diagnostics.AddWarning("Private data missing", "ReadResource received no private data.")
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, st)...)
}

func (r *thing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state, cfg thingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if v, _ := req.Private.GetKey(ctx, "planned"); len(v) == 0 {
		resp.Diagnostics.AddWarning("Private data missing", "The update received no planned private data.")
	}
	plan.ID = state.ID
	plan.Created = state.Created
	plan.PasswordSet = types.BoolValue(!cfg.PasswordWO.IsNull())
	plan.PasswordWO = types.StringNull()
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "updated", []byte(`true`))...)
}

func (r *thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func (r *thing) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" || strings.Contains(req.ID, " ") {
		resp.Diagnostics.AddError("Invalid import ID", "The ID must not be empty or contain spaces.")
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "created_by", []byte(`"import"`))...)
}

// The echo data source.

type echo struct {
	data *providerData
}

var (
	_ datasource.DataSourceWithConfigure      = (*echo)(nil)
	_ datasource.DataSourceWithValidateConfig = (*echo)(nil)
)

type echoModel struct {
	Input  types.String `tfsdk:"input"`
	Result types.String `tfsdk:"result"`
	Length types.Int64  `tfsdk:"length"`
}

func (d *echo) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_echo"
}

func (d *echo) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if pd, ok := req.ProviderData.(*providerData); ok {
		d.data = pd
	}
}

func (d *echo) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{Attributes: map[string]dschema.Attribute{
		"input":  dschema.StringAttribute{Required: true},
		"result": dschema.StringAttribute{Computed: true},
		"length": dschema.Int64Attribute{Computed: true},
	}}
}

func (d *echo) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var cfg echoModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if cfg.Input.ValueString() == "invalid" {
		resp.Diagnostics.AddAttributeError(path.Root("input"), "Invalid input", `The input "invalid" is not allowed.`)
	}
}

func (d *echo) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg echoModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	prefix := "fw-"
	if d.data != nil {
		prefix = d.data.prefix
	}
	cfg.Result = types.StringValue(prefix + cfg.Input.ValueString())
	cfg.Length = types.Int64Value(int64(len(cfg.Input.ValueString())))
	resp.Diagnostics.Append(resp.State.Set(ctx, cfg)...)
}

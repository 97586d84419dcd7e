package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

var databaseUserPresets = []string{"read-only", "read-write", "read-write-safe"}

type databaseUserResource struct{ api *API }

// NewDatabaseUserResource is the strata_database_user resource.
func NewDatabaseUserResource() resource.Resource { return &databaseUserResource{} }

type databaseUserModel struct {
	ID              types.String `tfsdk:"id"`
	ClusterID       types.String `tfsdk:"cluster_id"`
	Name            types.String `tfsdk:"name"`
	Preset          types.String `tfsdk:"preset"`
	KeyPatterns     types.List   `tfsdk:"key_patterns"`
	ChannelPatterns types.List   `tfsdk:"channel_patterns"`
	Password        types.String `tfsdk:"password"`
	CreatedAt       types.String `tfsdk:"created_at"`
}

func (r *databaseUserResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_database_user"
}

func (r *databaseUserResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	patterns := func(what string) schema.ListAttribute {
		return schema.ListAttribute{
			Optional: true, ElementType: types.StringType, PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()},
			Description: fmt.Sprintf("%s globs the user may use (e.g. orders:*); every one when absent.", what),
			Validators:  []validator.List{listvalidator.SizeBetween(1, 32)},
		}
	}
	resp.Schema = schema.Schema{
		Description: "A database user of a cluster: a Redis ACL user on every instance, with rights from a preset narrowed by key and channel patterns. " +
			"Any change replaces the user (its connections are closed). Import with <cluster_id>/<name>.",
		Attributes: map[string]schema.Attribute{
			"id":         schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "<cluster_id>/<name>."},
			"cluster_id": schema.StringAttribute{Required: true, PlanModifiers: replace},
			"name": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Description: "The Redis user name (1-64 letters, digits, _ . -; not default, app or strata*).",
				Validators: []validator.String{stringvalidator.LengthBetween(1, 64)},
			},
			"preset": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Validators: []validator.String{stringvalidator.OneOf(databaseUserPresets...)},
				Description: "read-only, read-write (what the cluster's own user may do) or read-write-safe (no dangerous commands such as KEYS or FLUSHALL).",
			},
			"key_patterns":     patterns("Key"),
			"channel_patterns": patterns("Pub/Sub channel"),
			"password": schema.StringAttribute{
				Optional: true, Computed: true, Sensitive: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplaceIfConfigured()},
				Description:   "At least 16 characters; when absent, Strata generates one (64 hex characters). Known only to the state that created the user (null after import).",
				Validators:    []validator.String{stringvalidator.LengthAtLeast(16)},
			},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep},
		},
	}
}

func (r *databaseUserResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.api = req.ProviderData.(*API)
	}
}

func stringsOf(ctx context.Context, l types.List) (*[]string, error) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	var out []string
	if d := l.ElementsAs(ctx, &out, false); d.HasError() {
		return nil, errors.New("not a list of strings")
	}
	return &out, nil
}

// listOrNull: the API answers [] for "every key"; the configuration leaves the attribute out.
func listOrNull(ctx context.Context, v []string) (types.List, error) {
	if len(v) == 0 {
		return types.ListNull(types.StringType), nil
	}
	l, d := types.ListValueFrom(ctx, types.StringType, v)
	if d.HasError() {
		return l, errors.New("cannot build a list")
	}
	return l, nil
}

func (r *databaseUserResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan databaseUserModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := client.CreateDatabaseUserRequest{Name: plan.Name.ValueString(), Preset: client.CreateDatabaseUserRequestPreset(plan.Preset.ValueString())}
	var err error
	if body.KeyPatterns, err = stringsOf(ctx, plan.KeyPatterns); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("key_patterns"), "Invalid key patterns", err.Error())
		return
	}
	if body.ChannelPatterns, err = stringsOf(ctx, plan.ChannelPatterns); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("channel_patterns"), "Invalid channel patterns", err.Error())
		return
	}
	if !plan.Password.IsNull() && !plan.Password.IsUnknown() {
		p := plan.Password.ValueString()
		body.Password = &p
	}
	u, err := r.api.CreateDatabaseUser(ctx, plan.ClusterID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the database user", err.Error())
		return
	}
	plan.ID = types.StringValue(plan.ClusterID.ValueString() + "/" + u.User.Name)
	plan.Password = types.StringValue(u.Password)
	plan.CreatedAt = types.StringValue(u.User.CreatedAt)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *databaseUserResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state databaseUserModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	u, err := r.api.DatabaseUser(ctx, state.ClusterID.ValueString(), state.Name.ValueString())
	if errors.Is(err, ErrNotFound) {
		resp.State.RemoveResource(ctx) // deleted outside Terraform (or its cluster is gone)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the database user", err.Error())
		return
	}
	state.Preset = types.StringValue(string(u.Preset))
	keys, err1 := listOrNull(ctx, u.KeyPatterns)
	channels, err2 := listOrNull(ctx, u.ChannelPatterns)
	if err := errors.Join(err1, err2); err != nil {
		resp.Diagnostics.AddError("Cannot read the database user", err.Error())
		return
	}
	state.KeyPatterns, state.ChannelPatterns = keys, channels
	state.CreatedAt = types.StringValue(u.CreatedAt)
	if state.Password.IsUnknown() {
		state.Password = types.StringNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *databaseUserResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	// Every attribute forces replacement; nothing to do in place.
	var plan databaseUserModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *databaseUserResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state databaseUserModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.DeleteDatabaseUser(ctx, state.ClusterID.ValueString(), state.Name.ValueString()); err != nil && !errors.Is(err, ErrNotFound) {
		resp.Diagnostics.AddError("Cannot delete the database user", err.Error())
	}
}

// ImportState takes <cluster_id>/<name>.
func (r *databaseUserResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	clusterID, name, ok := strings.Cut(req.ID, "/")
	if !ok || clusterID == "" || name == "" {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("expected <cluster_id>/<name>, got %q", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), clusterID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
}

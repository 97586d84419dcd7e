package provider

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

var scopes = []string{"clusters:read", "clusters:write", "benchmarks:run", "admin"}

type apiTokenResource struct{ api *API }

// NewAPITokenResource is the strata_api_token resource.
func NewAPITokenResource() resource.Resource { return &apiTokenResource{} }

type apiTokenModel struct {
	ID        types.String `tfsdk:"id"`
	Name      types.String `tfsdk:"name"`
	Scopes    types.Set    `tfsdk:"scopes"`
	ExpiresAt types.String `tfsdk:"expires_at"`
	Token     types.String `tfsdk:"token"`
	CreatedAt types.String `tfsdk:"created_at"`
	CreatedBy types.String `tfsdk:"created_by"`
}

func (r *apiTokenResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_api_token"
}

func (r *apiTokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "A Strata API token with scopes (within the role of the user whose token the provider uses). Tokens cannot change: any change creates a new one and revokes the old.",
		Attributes: map[string]schema.Attribute{
			"id":   schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace, Validators: []validator.String{stringvalidator.LengthBetween(1, 60)}},
			"scopes": schema.SetAttribute{
				Required: true, ElementType: types.StringType, PlanModifiers: []planmodifier.Set{setplanmodifier.RequiresReplace()},
				Description: "Any of clusters:read, clusters:write, benchmarks:run, admin (admin implies all).",
				Validators:  []validator.Set{setvalidator.SizeAtLeast(1), setvalidator.ValueStringsAre(stringvalidator.OneOf(scopes...))},
			},
			"expires_at": schema.StringAttribute{
				Optional: true, PlanModifiers: []planmodifier.String{requiresReplaceIfOtherInstant()},
				Description: "RFC 3339 time the token stops working; default never. Read back (and imported) as UTC seconds, e.g. 2030-01-01T00:00:00Z; " +
					"another spelling of the same instant is not a change.",
			},
			"token":      schema.StringAttribute{Computed: true, Sensitive: true, PlanModifiers: keep, Description: "The secret. Known only to the state that created it (null after import)."},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"created_by": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Email of the user the token belongs to; null for owner-less tokens."},
		},
	}
}

func (r *apiTokenResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.api = req.ProviderData.(*API)
	}
}

func (r *apiTokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan apiTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var want []string
	resp.Diagnostics.Append(plan.Scopes.ElementsAs(ctx, &want, false)...)
	body := client.CreateTokenRequest{Name: plan.Name.ValueString()}
	for _, s := range want {
		body.Scopes = append(body.Scopes, client.CreateTokenRequestScopes(s))
	}
	if !plan.ExpiresAt.IsNull() {
		t, err := time.Parse(time.RFC3339, plan.ExpiresAt.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("expires_at"), "Invalid time", "expires_at must be RFC 3339, e.g. 2030-01-01T00:00:00Z.")
			return
		}
		body.ExpiresAt = &t
	}
	t, err := r.api.CreateToken(ctx, body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the API token", err.Error())
		return
	}
	plan.ID = types.StringValue(t.Id.String())
	plan.Token = types.StringValue(t.Token)
	plan.CreatedAt = types.StringValue(t.CreatedAt)
	plan.CreatedBy = types.StringPointerValue(t.CreatedBy)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *apiTokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state apiTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	t, err := r.api.GetToken(ctx, state.ID.ValueString())
	if errors.Is(err, ErrNotFound) || (err == nil && t.RevokedAt != nil) {
		resp.State.RemoveResource(ctx) // revoked or deleted outside Terraform
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the API token", err.Error())
		return
	}
	state.Name = types.StringValue(t.Name)
	got := make([]string, 0, len(t.Scopes))
	for _, s := range t.Scopes {
		got = append(got, string(s))
	}
	sort.Strings(got)
	set, d := types.SetValueFrom(ctx, types.StringType, got)
	resp.Diagnostics.Append(d...)
	state.Scopes = set
	state.ExpiresAt = expiresAtFromAPI(t.ExpiresAt, state.ExpiresAt)
	state.CreatedAt = types.StringValue(t.CreatedAt)
	state.CreatedBy = types.StringPointerValue(t.CreatedBy)
	if state.Token.IsUnknown() {
		state.Token = types.StringNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *apiTokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	// Every attribute forces replacement; nothing to do in place.
	var plan apiTokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *apiTokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state apiTokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.RevokeToken(ctx, state.ID.ValueString()); err != nil && !errors.Is(err, ErrNotFound) {
		resp.Diagnostics.AddError("Cannot revoke the API token", err.Error())
	}
}

func (r *apiTokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// canonicalTime is how expires_at is read back: RFC 3339 in UTC, whole seconds (the API answers
// with milliseconds, 2030-01-01T00:00:00.000Z, which would differ from the documented spelling).
func canonicalTime(v string) (string, bool) {
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return "", false
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339), true
}

func sameInstant(a, b string) bool {
	ca, okA := canonicalTime(a)
	cb, okB := canonicalTime(b)
	return okA && okB && ca == cb
}

// expiresAtFromAPI keeps the configured spelling while it names the API's instant, and otherwise
// (import, or a change outside Terraform) takes the API's value in canonical form.
func expiresAtFromAPI(api *string, prior types.String) types.String {
	if api == nil {
		return types.StringNull()
	}
	if !prior.IsNull() && !prior.IsUnknown() && sameInstant(prior.ValueString(), *api) {
		return prior
	}
	if c, ok := canonicalTime(*api); ok {
		return types.StringValue(c)
	}
	return types.StringValue(*api)
}

// requiresReplaceIfOtherInstant: a token's expiry cannot change, but a new spelling of the same
// instant (e.g. +00:00 for Z) is no reason to replace it.
func requiresReplaceIfOtherInstant() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !(req.StateValue.IsNull() == req.PlanValue.IsNull() && (req.PlanValue.IsNull() || sameInstant(req.StateValue.ValueString(), req.PlanValue.ValueString())))
	}, "replaced when expires_at names another instant", "replaced when `expires_at` names another instant")
}

package provider

import (
	"context"
	"errors"

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

type notificationChannelResource struct{ api *API }

// NewNotificationChannelResource is the strata_notification_channel resource.
func NewNotificationChannelResource() resource.Resource { return &notificationChannelResource{} }

type notificationChannelModel struct {
	ID        types.String `tfsdk:"id"`
	Type      types.String `tfsdk:"type"`
	Name      types.String `tfsdk:"name"`
	URL       types.String `tfsdk:"url"`
	Secret    types.String `tfsdk:"secret"`
	Format    types.String `tfsdk:"format"`
	To        types.List   `tfsdk:"to"`
	CreatedAt types.String `tfsdk:"created_at"`
}

func (r *notificationChannelResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_notification_channel"
}

func (r *notificationChannelResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "Where alert notifications go: a webhook (JSON signed with X-Strata-Signature, or a Slack body) or e-mail recipients " +
			"(through the operator's SMTP server). Channels cannot change in place: any change creates a new one.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"type": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Description: "webhook or email.",
				Validators: []validator.String{stringvalidator.OneOf("webhook", "email")},
			},
			"name": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(), stringplanmodifier.UseStateForUnknown()},
				Description: "Default: the webhook's host, or the recipients.", Validators: []validator.String{stringvalidator.LengthBetween(1, 100)},
			},
			"url": schema.StringAttribute{Optional: true, PlanModifiers: replace, Description: "webhook: the http(s) URL that receives a POST per notification."},
			"secret": schema.StringAttribute{
				Optional: true, Sensitive: true, PlanModifiers: replace,
				Description: "webhook: the HMAC-SHA256 key of X-Strata-Signature (8 to 256 characters). Write-only in the API: kept from the configuration, never read back.",
			},
			"format": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIfConfigured(), stringplanmodifier.UseStateForUnknown()},
				Description: "webhook: json (default) or slack.", Validators: []validator.String{stringvalidator.OneOf("json", "slack")},
			},
			"to": schema.ListAttribute{
				Optional: true, ElementType: types.StringType, PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplace()},
				Description: "email: the recipients.", Validators: []validator.List{listvalidator.SizeBetween(1, 20)},
			},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep},
		},
	}
}

func (r *notificationChannelResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.api = req.ProviderData.(*API)
	}
}

func (r *notificationChannelResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan notificationChannelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var body client.CreateNotificationChannelRequest
	var err error
	var name *string
	if !plan.Name.IsNull() && !plan.Name.IsUnknown() {
		name = plan.Name.ValueStringPointer()
	}
	if plan.Type.ValueString() == "webhook" {
		if plan.URL.IsNull() || plan.Secret.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root("url"), "Missing webhook settings", "A webhook channel needs url and secret.")
			return
		}
		w := client.CreateNotificationChannelRequest0{Type: "webhook", Url: plan.URL.ValueString(), Secret: plan.Secret.ValueString(), Name: name}
		if !plan.Format.IsNull() && !plan.Format.IsUnknown() {
			f := client.CreateNotificationChannelRequest0Format(plan.Format.ValueString())
			w.Format = &f
		}
		err = body.FromCreateNotificationChannelRequest0(w)
	} else {
		var to []string
		resp.Diagnostics.Append(plan.To.ElementsAs(ctx, &to, false)...)
		if len(to) == 0 {
			resp.Diagnostics.AddAttributeError(path.Root("to"), "Missing recipients", "An email channel needs to.")
			return
		}
		err = body.FromCreateNotificationChannelRequest1(client.CreateNotificationChannelRequest1{Type: "email", To: to, Name: name})
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot build the request", err.Error())
		return
	}
	c, err := r.api.CreateNotificationChannel(ctx, body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the notification channel", err.Error())
		return
	}
	resp.Diagnostics.Append(r.fill(ctx, &plan, c)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// fill copies what the API says into the model (the secret stays as configured).
func (r *notificationChannelResource) fill(ctx context.Context, m *notificationChannelModel, c *client.NotificationChannel) (d diagList) {
	m.ID = types.StringValue(c.Id.String())
	m.Type = types.StringValue(string(c.Type))
	m.Name = types.StringValue(c.Name)
	m.URL = types.StringPointerValue(c.Url)
	if c.Format != nil {
		m.Format = types.StringValue(string(*c.Format))
	} else {
		m.Format = types.StringNull()
	}
	if c.To != nil {
		l, diags := types.ListValueFrom(ctx, types.StringType, *c.To)
		d = append(d, diags...)
		m.To = l
	} else {
		m.To = types.ListNull(types.StringType)
	}
	m.CreatedAt = types.StringValue(c.CreatedAt)
	return d
}

func (r *notificationChannelResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state notificationChannelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c, err := r.api.GetNotificationChannel(ctx, state.ID.ValueString())
	if errors.Is(err, ErrNotFound) {
		resp.State.RemoveResource(ctx) // deleted outside Terraform
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the notification channel", err.Error())
		return
	}
	resp.Diagnostics.Append(r.fill(ctx, &state, c)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *notificationChannelResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	// Every configured attribute forces replacement; nothing to do in place.
	var plan notificationChannelModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *notificationChannelResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state notificationChannelModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.DeleteNotificationChannel(ctx, state.ID.ValueString()); err != nil && !errors.Is(err, ErrNotFound) {
		resp.Diagnostics.AddError("Cannot delete the notification channel", err.Error())
	}
}

func (r *notificationChannelResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

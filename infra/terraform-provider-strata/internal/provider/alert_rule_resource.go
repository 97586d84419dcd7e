package provider

import (
	"context"
	"errors"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

type diagList = diag.Diagnostics

var alertMetrics = []string{
	"memory_used_percent", "ops_per_sec", "latency_p99_ms", "replication_lag_bytes", "connected_clients", "evictions",
	"cluster_degraded", "failover", "node_down", "backup_failed",
}

type alertRuleResource struct{ api *API }

// NewAlertRuleResource is the strata_alert_rule resource.
func NewAlertRuleResource() resource.Resource { return &alertRuleResource{} }

type alertRuleModel struct {
	ID         types.String  `tfsdk:"id"`
	ClusterID  types.String  `tfsdk:"cluster_id"`
	Name       types.String  `tfsdk:"name"`
	Metric     types.String  `tfsdk:"metric"`
	Threshold  types.Float64 `tfsdk:"threshold"`
	ForSeconds types.Int64   `tfsdk:"for_seconds"`
	ChannelIDs types.Set     `tfsdk:"channel_ids"`
	Enabled    types.Bool    `tfsdk:"enabled"`
	CreatedAt  types.String  `tfsdk:"created_at"`
}

func (r *alertRuleResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_alert_rule"
}

func (r *alertRuleResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "An alert rule: fires when the metric stays above the threshold for for_seconds (events: more than the threshold within it), " +
			"resolves when it no longer is, and tells its notification channels. Without cluster_id it applies to every cluster of the organization.",
		Attributes: map[string]schema.Attribute{
			"id":         schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"cluster_id": schema.StringAttribute{Optional: true, PlanModifiers: replace, Description: "The cluster; omit for an organization rule."},
			"name": schema.StringAttribute{
				Optional: true, Computed: true, PlanModifiers: keep, Description: "Default: the metric and threshold in words.",
				Validators: []validator.String{stringvalidator.LengthBetween(1, 100)},
			},
			"metric": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Validators: []validator.String{stringvalidator.OneOf(alertMetrics...)},
				Description: "memory_used_percent (%), ops_per_sec, latency_p99_ms, replication_lag_bytes, connected_clients, evictions (keys/s), cluster_degraded, failover, node_down, backup_failed.",
			},
			"threshold": schema.Float64Attribute{
				Required: true, Validators: []validator.Float64{float64validator.AtLeast(0)},
				Description: "Fires while the value is above it (events: more than this many in the window).",
			},
			"for_seconds": schema.Int64Attribute{Required: true, Validators: []validator.Int64{int64validator.Between(1, 86400)}},
			"channel_ids": schema.SetAttribute{
				Optional: true, Computed: true, ElementType: types.StringType, Default: setdefault.StaticValue(types.SetValueMust(types.StringType, nil)),
				Validators: []validator.Set{setvalidator.SizeAtMost(10)}, Description: "strata_notification_channel ids.",
			},
			"enabled":    schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(true)},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep},
		},
	}
}

func (r *alertRuleResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.api = req.ProviderData.(*API)
	}
}

func (r *alertRuleResource) channelIDs(ctx context.Context, m alertRuleModel, d *diagList) []string {
	var ids []string
	d.Append(m.ChannelIDs.ElementsAs(ctx, &ids, false)...)
	return ids
}

func (r *alertRuleResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan alertRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ids, err := uuids(r.channelIDs(ctx, plan, &resp.Diagnostics))
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("channel_ids"), "Invalid channel id", err.Error())
		return
	}
	threshold := float32(plan.Threshold.ValueFloat64())
	enabled := plan.Enabled.ValueBool()
	body := client.CreateAlertRuleRequest{
		Metric: client.CreateAlertRuleRequestMetric(plan.Metric.ValueString()), Threshold: &threshold, ForSeconds: int(plan.ForSeconds.ValueInt64()),
		ChannelIds: &ids, Enabled: &enabled,
	}
	if !plan.Name.IsNull() && !plan.Name.IsUnknown() {
		body.Name = plan.Name.ValueStringPointer()
	}
	a, err := r.api.CreateAlertRule(ctx, plan.ClusterID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the alert rule", err.Error())
		return
	}
	resp.Diagnostics.Append(fillAlertRule(ctx, &plan, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// fillAlertRule copies the API's rule into the model; a threshold the API returns as the float32 of the
// configured one keeps the configured spelling.
func fillAlertRule(ctx context.Context, m *alertRuleModel, a *client.AlertRule) (d diagList) {
	m.ID = types.StringValue(a.Id.String())
	if a.ClusterId != nil {
		m.ClusterID = types.StringValue(a.ClusterId.String())
	} else {
		m.ClusterID = types.StringNull()
	}
	m.Name = types.StringValue(a.Name)
	m.Metric = types.StringValue(string(a.Metric))
	if m.Threshold.IsNull() || m.Threshold.IsUnknown() || float32(m.Threshold.ValueFloat64()) != a.Threshold {
		m.Threshold = types.Float64Value(float64(a.Threshold))
	}
	m.ForSeconds = types.Int64Value(int64(a.ForSeconds))
	ids := make([]string, 0, len(a.ChannelIds))
	for _, u := range a.ChannelIds {
		ids = append(ids, u.String())
	}
	sort.Strings(ids)
	set, diags := types.SetValueFrom(ctx, types.StringType, ids)
	d = append(d, diags...)
	m.ChannelIDs = set
	m.Enabled = types.BoolValue(a.Enabled)
	m.CreatedAt = types.StringValue(a.CreatedAt)
	return d
}

func (r *alertRuleResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state alertRuleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	a, err := r.api.GetAlertRule(ctx, state.ID.ValueString())
	if errors.Is(err, ErrNotFound) {
		resp.State.RemoveResource(ctx) // deleted outside Terraform (or with its cluster)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the alert rule", err.Error())
		return
	}
	resp.Diagnostics.Append(fillAlertRule(ctx, &state, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *alertRuleResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan alertRuleModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ids, err := uuids(r.channelIDs(ctx, plan, &resp.Diagnostics))
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("channel_ids"), "Invalid channel id", err.Error())
		return
	}
	threshold := float32(plan.Threshold.ValueFloat64())
	forSeconds := int(plan.ForSeconds.ValueInt64())
	enabled := plan.Enabled.ValueBool()
	body := client.UpdateAlertRuleRequest{Threshold: &threshold, ForSeconds: &forSeconds, ChannelIds: &ids, Enabled: &enabled}
	if !plan.Name.IsNull() && !plan.Name.IsUnknown() {
		body.Name = plan.Name.ValueStringPointer()
	}
	a, err := r.api.UpdateAlertRule(ctx, plan.ID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot change the alert rule", err.Error())
		return
	}
	resp.Diagnostics.Append(fillAlertRule(ctx, &plan, a)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *alertRuleResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state alertRuleModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.api.DeleteAlertRule(ctx, state.ID.ValueString()); err != nil && !errors.Is(err, ErrNotFound) {
		resp.Diagnostics.AddError("Cannot delete the alert rule", err.Error())
	}
}

func (r *alertRuleResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

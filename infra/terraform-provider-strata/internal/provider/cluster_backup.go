package provider

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/strata/terraform-provider-strata/internal/client"
)

// The cluster's `backup` attribute: its backup schedule and retention (PUT/GET/DELETE /v1/clusters/{id}/backup-schedule).

var backupAttrTypes = map[string]attr.Type{
	"interval_hours": types.Int64Type, "daily_at": types.StringType, "keep_last": types.Int64Type, "keep_days": types.Int64Type, "consistent": types.BoolType,
}

type backupModel struct {
	IntervalHours types.Int64  `tfsdk:"interval_hours"`
	DailyAt       types.String `tfsdk:"daily_at"`
	KeepLast      types.Int64  `tfsdk:"keep_last"`
	KeepDays      types.Int64  `tfsdk:"keep_days"`
	Consistent    types.Bool   `tfsdk:"consistent"`
}

func backupSchemaAttribute() schema.SingleNestedAttribute {
	sibling := func(name string) path.Expression { return path.MatchRelative().AtParent().AtName(name) }
	return schema.SingleNestedAttribute{
		Optional: true,
		Description: "Scheduled backups and their retention. Unset: no schedule (backups already taken are kept until deleted). " +
			"Changes in place, at once. Retention applies to every completed backup of the cluster, taken by hand or on schedule.",
		Attributes: map[string]schema.Attribute{
			"interval_hours": schema.Int64Attribute{
				Optional: true, Description: "Back up every N hours (1-168) from when the schedule is set. Set exactly one of interval_hours and daily_at.",
				Validators: []validator.Int64{int64validator.Between(1, 168), int64validator.ExactlyOneOf(sibling("daily_at"))},
			},
			"daily_at": schema.StringAttribute{
				Optional: true, Description: "Back up once a day at HH:MM (24-hour, UTC).",
				Validators: []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`), "must be HH:MM, 24-hour")},
			},
			"keep_last": schema.Int64Attribute{
				Optional: true, Description: "Keep the newest N completed backups (1-1000). At most one of keep_last and keep_days; neither keeps backups until deleted.",
				Validators: []validator.Int64{int64validator.Between(1, 1000), int64validator.ConflictsWith(sibling("keep_days"))},
			},
			"keep_days": schema.Int64Attribute{
				Optional: true, Description: "Keep completed backups N days (1-3650), also after the cluster is deleted.",
				Validators: []validator.Int64{int64validator.Between(1, 3650)},
			},
			"consistent": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				Description: "Scheduled backups take one point in time across every shard (writes pause for milliseconds). Default false.",
			},
		},
	}
}

// backupSchedule reads the `backup` attribute as the API's schedule; nil when it is not set.
func backupSchedule(ctx context.Context, o types.Object) (*client.BackupSchedule, diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() {
		return nil, nil
	}
	var m backupModel
	d := o.As(ctx, &m, basetypes.ObjectAsOptions{})
	optInt := func(v types.Int64) *int {
		if v.IsNull() || v.IsUnknown() {
			return nil
		}
		n := int(v.ValueInt64())
		return &n
	}
	consistent := m.Consistent.ValueBool()
	return &client.BackupSchedule{
		IntervalHours: optInt(m.IntervalHours), DailyAt: m.DailyAt.ValueStringPointer(), KeepLast: optInt(m.KeepLast), KeepDays: optInt(m.KeepDays), Consistent: &consistent,
	}, d
}

// backupValue is the API's schedule as the `backup` attribute (null: none).
func backupValue(s *client.BackupSchedule) types.Object {
	if s == nil {
		return types.ObjectNull(backupAttrTypes)
	}
	optInt := func(n *int) types.Int64 {
		if n == nil {
			return types.Int64Null()
		}
		return types.Int64Value(int64(*n))
	}
	return types.ObjectValueMust(backupAttrTypes, map[string]attr.Value{
		"interval_hours": optInt(s.IntervalHours), "daily_at": types.StringPointerValue(s.DailyAt), "keep_last": optInt(s.KeepLast), "keep_days": optInt(s.KeepDays),
		"consistent": types.BoolValue(s.Consistent != nil && *s.Consistent),
	})
}

// applyBackup makes the cluster's schedule what `want` says (set, replaced or removed).
func (r *clusterResource) applyBackup(ctx context.Context, clusterID string, want types.Object) diag.Diagnostics {
	s, diags := backupSchedule(ctx, want)
	if diags.HasError() {
		return diags
	}
	if s == nil {
		if err := r.api.DeleteBackupSchedule(ctx, clusterID); err != nil {
			diags.AddError("Cannot remove the backup schedule", err.Error())
		}
		return diags
	}
	if err := r.api.SetBackupSchedule(ctx, clusterID, *s); err != nil {
		diags.AddError("Cannot set the backup schedule", err.Error())
	}
	return diags
}

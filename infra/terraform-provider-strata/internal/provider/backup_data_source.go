package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type backupDataSource struct{ api *API }

// NewBackupDataSource is the strata_backup data source (by id).
func NewBackupDataSource() datasource.DataSource { return &backupDataSource{} }

type backupDataModel struct {
	ID             types.String `tfsdk:"id"`
	ClusterID      types.String `tfsdk:"cluster_id"`
	ClusterName    types.String `tfsdk:"cluster_name"`
	ClusterDeleted types.Bool   `tfsdk:"cluster_deleted"`
	Status         types.String `tfsdk:"status"`
	Consistent     types.Bool   `tfsdk:"consistent"`
	Shards         types.Int64  `tfsdk:"shards"`
	SizeBytes      types.Int64  `tfsdk:"size_bytes"`
	Keys           types.Int64  `tfsdk:"keys"`
	EngineVersion  types.String `tfsdk:"engine_version"`
	StartedAt      types.String `tfsdk:"started_at"`
	FinishedAt     types.String `tfsdk:"finished_at"`
	ExpiresAt      types.String `tfsdk:"expires_at"`
	Error          types.String `tfsdk:"error"`
}

func (d *backupDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_backup"
}

func (d *backupDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, Description: desc}
	}
	resp.Schema = schema.Schema{
		Description: "Reads a backup by id (GET /v1/backups/{id}); restore it with strata_cluster's restore_from.",
		Attributes: map[string]schema.Attribute{
			"id":              schema.StringAttribute{Required: true, Description: "Backup id (UUID)."},
			"cluster_id":      computed("The cluster it was taken of (for an import: the backup's own id)."),
			"cluster_name":    computed("That cluster's name (for an import: the name given, or host:port)."),
			"cluster_deleted": schema.BoolAttribute{Computed: true, Description: "The cluster is gone; the backup is kept until its retention ends."},
			"status":          computed("running, completed or failed."),
			"consistent":      schema.BoolAttribute{Computed: true, Description: "One point in time across every shard."},
			"shards":          schema.Int64Attribute{Computed: true, Description: "Files in the backup, one per shard (0 until completed)."},
			"size_bytes":      schema.Int64Attribute{Computed: true, Description: "Every file's size together (0 until completed)."},
			"keys":            schema.Int64Attribute{Computed: true, Description: "Keys in the backup (0 until completed)."},
			"engine_version":  computed("redis_version of the sources (null until completed)."),
			"started_at":      computed("When it started (RFC 3339)."),
			"finished_at":     computed("When it ended (RFC 3339), null while it runs."),
			"expires_at":      computed("When retention deletes it, null when kept until deleted (or until keep_last pushes it out)."),
			"error":           computed("Why it failed (code: message), null otherwise."),
		},
	}
}

func (d *backupDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if req.ProviderData != nil {
		d.api = req.ProviderData.(*API)
	}
}

func (d *backupDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m backupDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	b, err := d.api.GetBackup(ctx, m.ID.ValueString())
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the backup", err.Error())
		return
	}
	m.ClusterID, m.ClusterName, m.ClusterDeleted = types.StringValue(b.ClusterId.String()), types.StringValue(b.ClusterName), types.BoolValue(b.ClusterDeleted)
	m.Status, m.Consistent = types.StringValue(string(b.Status)), types.BoolValue(b.Consistent)
	m.StartedAt, m.FinishedAt, m.ExpiresAt = types.StringValue(b.CreatedAt), types.StringPointerValue(b.FinishedAt), types.StringPointerValue(b.ExpiresAt)
	m.Shards, m.SizeBytes, m.Keys, m.EngineVersion = types.Int64Value(0), types.Int64Value(0), types.Int64Value(0), types.StringNull()
	if mf := b.Manifest; mf != nil {
		var size, keys int64
		for _, s := range mf.Shards {
			size += int64(s.Bytes)
			keys += int64(s.Keys)
		}
		m.Shards, m.SizeBytes, m.Keys, m.EngineVersion = types.Int64Value(int64(len(mf.Shards))), types.Int64Value(size), types.Int64Value(keys), types.StringValue(mf.EngineVersion)
	}
	m.Error = types.StringNull()
	if b.Error != nil {
		m.Error = types.StringValue(b.Error.Code + ": " + b.Error.Message)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

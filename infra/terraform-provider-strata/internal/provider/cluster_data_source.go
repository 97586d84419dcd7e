package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

type clusterDataSource struct{ api *API }

// NewClusterDataSource is the strata_cluster data source (by id or name).
func NewClusterDataSource() datasource.DataSource { return &clusterDataSource{} }

type clusterDataModel struct {
	ID                types.String `tfsdk:"id"`
	Name              types.String `tfsdk:"name"`
	Shards            types.Int64  `tfsdk:"shards"`
	ReplicasPerShard  types.Int64  `tfsdk:"replicas_per_shard"`
	MemoryMbPerShard  types.Int64  `tfsdk:"memory_mb_per_shard"`
	Durability        types.String `tfsdk:"durability"`
	EvictionPolicy    types.String `tfsdk:"eviction_policy"`
	Fencing           types.String `tfsdk:"fencing"`
	MigrationPriority types.String `tfsdk:"migration_priority"`
	EngineVersion     types.String `tfsdk:"engine_version"`
	TLS               types.String `tfsdk:"tls"`
	TLSClientAuth     types.String `tfsdk:"tls_client_auth"`
	CACertificate     types.String `tfsdk:"ca_certificate"`
	Status            types.String `tfsdk:"status"`
	ConnectionURI     types.String `tfsdk:"connection_uri"`
	Username          types.String `tfsdk:"username"`
	Password          types.String `tfsdk:"password"`
	Seeds             types.List   `tfsdk:"seeds"`
}

func (d *clusterDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

func (d *clusterDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, Description: desc}
	}
	resp.Schema = schema.Schema{
		Description: "Reads a cluster by id or by name.",
		Attributes: map[string]schema.Attribute{
			"id":                  schema.StringAttribute{Optional: true, Computed: true, Description: "Cluster id; set id or name."},
			"name":                schema.StringAttribute{Optional: true, Computed: true, Description: "Cluster name; set id or name."},
			"shards":              schema.Int64Attribute{Computed: true},
			"replicas_per_shard":  schema.Int64Attribute{Computed: true},
			"memory_mb_per_shard": schema.Int64Attribute{Computed: true},
			"durability":          computed(""),
			"eviction_policy":     computed(""),
			"fencing":             computed("off or on: write fencing"),
			"migration_priority":  computed("gentle, balanced or fast: how hard slot moves press on the primaries"),
			"engine_version":      computed(""),
			"tls":                 computed("off, preferred (both served while clients move) or required"),
			"tls_client_auth":     computed("none, optional or required: whether clients present a client certificate of the cluster"),
			"ca_certificate":      computed("PEM of the cluster's CA while TLS is served (preferred or required), else null."),
			"status":              computed("Phase: provisioning, ready, updating, degraded, deleting or failed."),
			"connection_uri":      schema.StringAttribute{Computed: true, Sensitive: true},
			"username":            computed("ACL user for clients."),
			"password":            schema.StringAttribute{Computed: true, Sensitive: true},
			"seeds":               schema.ListAttribute{Computed: true, ElementType: types.StringType},
		},
	}
}

func (d *clusterDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if req.ProviderData != nil {
		d.api = req.ProviderData.(*API)
	}
}

func (d *clusterDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m clusterDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var c *client.Cluster
	switch {
	case !m.ID.IsNull():
		got, err := d.api.GetCluster(ctx, m.ID.ValueString())
		if err != nil {
			resp.Diagnostics.AddError("Cannot read the cluster", err.Error())
			return
		}
		c = got
	case !m.Name.IsNull():
		all, err := d.api.ListClusters(ctx)
		if err != nil {
			resp.Diagnostics.AddError("Cannot list clusters", err.Error())
			return
		}
		for i := range all {
			if all[i].Name == m.Name.ValueString() {
				c = &all[i]
			}
		}
		if c == nil {
			resp.Diagnostics.AddError("No such cluster", fmt.Sprintf("No cluster named %q in this organization.", m.Name.ValueString()))
			return
		}
	default:
		resp.Diagnostics.AddError("Missing id or name", "Set id or name to pick the cluster.")
		return
	}
	m.ID, m.Name = types.StringValue(c.Id.String()), types.StringValue(c.Name)
	m.Shards, m.ReplicasPerShard = types.Int64Value(int64(c.Spec.Shards)), types.Int64Value(int64(c.Spec.ReplicasPerShard))
	m.MemoryMbPerShard = types.Int64Value(int64(c.Spec.MemoryMbPerShard))
	m.Durability, m.EvictionPolicy = types.StringValue(string(c.Spec.Durability)), types.StringValue(string(c.Spec.EvictionPolicy))
	m.Fencing = types.StringValue(string(c.Spec.Fencing))
	m.MigrationPriority = types.StringValue(string(c.Spec.MigrationPriority))
	m.EngineVersion, m.Status = types.StringValue(string(c.Spec.EngineVersion)), types.StringValue(string(c.Status.Phase))
	m.TLS = types.StringValue(string(c.Spec.Tls))
	m.TLSClientAuth = types.StringValue(string(c.Spec.TlsClientAuth))
	m.ConnectionURI, m.Username, m.Password, m.Seeds = types.StringNull(), types.StringNull(), types.StringNull(), types.ListNull(types.StringType)
	m.CACertificate = types.StringNull()
	if conn, err := d.api.Connection(ctx, c.Id.String()); err == nil {
		m.ConnectionURI, m.Username, m.Password = types.StringValue(conn.Uri), types.StringValue(conn.Username), types.StringValue(conn.Password)
		m.CACertificate = types.StringPointerValue(conn.CaCertificate)
		seeds, diags := types.ListValueFrom(ctx, types.StringType, conn.Seeds)
		resp.Diagnostics.Append(diags...)
		m.Seeds = seeds
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type nodesDataSource struct{ api *API }

// NewNodesDataSource is the strata_nodes data source.
func NewNodesDataSource() datasource.DataSource { return &nodesDataSource{} }

type nodeModel struct {
	ID           types.String `tfsdk:"id"`
	Name         types.String `tfsdk:"name"`
	Address      types.String `tfsdk:"address"`
	Status       types.String `tfsdk:"status"`
	Draining     types.Bool   `tfsdk:"draining"`
	MemoryMb     types.Int64  `tfsdk:"memory_mb"`
	UsedMemoryMb types.Int64  `tfsdk:"used_memory_mb"`
	Instances    types.Int64  `tfsdk:"instances"`
}

type nodesModel struct {
	Nodes []nodeModel `tfsdk:"nodes"`
}

func (d *nodesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nodes"
}

func (d *nodesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The nodes (hosts running the Strata agent), sorted by name.",
		Attributes: map[string]schema.Attribute{
			"nodes": schema.ListNestedAttribute{
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             schema.StringAttribute{Computed: true},
					"name":           schema.StringAttribute{Computed: true},
					"address":        schema.StringAttribute{Computed: true},
					"status":         schema.StringAttribute{Computed: true, Description: "online, offline or down."},
					"draining":       schema.BoolAttribute{Computed: true},
					"memory_mb":      schema.Int64Attribute{Computed: true},
					"used_memory_mb": schema.Int64Attribute{Computed: true},
					"instances":      schema.Int64Attribute{Computed: true, Description: "Instances of this organization's clusters on the node."},
				}},
			},
		},
	}
}

func (d *nodesDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if req.ProviderData != nil {
		d.api = req.ProviderData.(*API)
	}
}

func (d *nodesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	nodes, err := d.api.ListNodes(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot list nodes", err.Error())
		return
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	m := nodesModel{Nodes: []nodeModel{}}
	for _, n := range nodes {
		m.Nodes = append(m.Nodes, nodeModel{
			ID: types.StringValue(n.Id.String()), Name: types.StringValue(n.Name), Address: types.StringValue(n.Address),
			Status: types.StringValue(string(n.Status)), Draining: types.BoolValue(n.Draining),
			MemoryMb: types.Int64Value(int64(n.Capacity.MemoryMb)), UsedMemoryMb: types.Int64Value(int64(n.Capacity.UsedMemoryMb)),
			Instances: types.Int64Value(int64(len(n.Instances))),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

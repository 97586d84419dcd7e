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
	Scope types.String `tfsdk:"scope"`
	Nodes []nodeModel  `tfsdk:"nodes"`
}

func (d *nodesDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_nodes"
}

func (d *nodesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "The nodes (hosts running the Strata agent) the token may see, sorted by name: every node with its capacity " +
			"for a platform admin's token (scope fleet); otherwise only the nodes running the organization's clusters, without capacity (scope organization).",
		Attributes: map[string]schema.Attribute{
			"scope": schema.StringAttribute{Computed: true, Description: "fleet (every node, with capacity) or organization (nodes running your clusters; memory_mb and used_memory_mb are null)."},
			"nodes": schema.ListNestedAttribute{
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             schema.StringAttribute{Computed: true},
					"name":           schema.StringAttribute{Computed: true},
					"address":        schema.StringAttribute{Computed: true},
					"status":         schema.StringAttribute{Computed: true, Description: "online, offline or down."},
					"draining":       schema.BoolAttribute{Computed: true},
					"memory_mb":      schema.Int64Attribute{Computed: true, Description: "Null unless scope is fleet."},
					"used_memory_mb": schema.Int64Attribute{Computed: true, Description: "Null unless scope is fleet."},
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
	list, err := d.api.ListNodes(ctx)
	if err != nil {
		resp.Diagnostics.AddError("Cannot list nodes", err.Error())
		return
	}
	nodes := list.Items
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	m := nodesModel{Scope: types.StringValue(string(list.Scope)), Nodes: []nodeModel{}}
	for _, n := range nodes {
		memory, used := types.Int64Null(), types.Int64Null()
		if n.Capacity != nil { // only platform admins see a node's capacity
			memory, used = types.Int64Value(int64(n.Capacity.MemoryMb)), types.Int64Value(int64(n.Capacity.UsedMemoryMb))
		}
		m.Nodes = append(m.Nodes, nodeModel{
			ID: types.StringValue(n.Id.String()), Name: types.StringValue(n.Name), Address: types.StringValue(n.Address),
			Status: types.StringValue(string(n.Status)), Draining: types.BoolValue(n.Draining),
			MemoryMb: memory, UsedMemoryMb: used, Instances: types.Int64Value(int64(len(n.Instances))),
		})
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

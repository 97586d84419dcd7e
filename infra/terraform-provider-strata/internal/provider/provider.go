// Package provider implements the Strata Terraform provider with terraform-plugin-framework.
package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type strataProvider struct{ version string }

type providerModel struct {
	Endpoint types.String `tfsdk:"endpoint"`
	Token    types.String `tfsdk:"token"`
}

// New returns the provider factory for providerserver.Serve and tests.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &strataProvider{version: version} }
}

func (p *strataProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "strata"
	resp.Version = p.version
}

func (p *strataProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		Description: "Manage Strata Redis clusters and API tokens.",
		Attributes: map[string]schema.Attribute{
			"endpoint": schema.StringAttribute{
				Optional:    true,
				Description: "Base URL of the Strata control plane, e.g. http://127.0.0.1:8080. Default: the STRATA_ENDPOINT environment variable.",
			},
			"token": schema.StringAttribute{
				Optional:    true,
				Sensitive:   true,
				Description: "API token (Bearer). Default: the STRATA_TOKEN environment variable. Needs clusters:read and clusters:write for clusters, admin for API tokens.",
			},
		},
	}
}

func (p *strataProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	endpoint := os.Getenv("STRATA_ENDPOINT")
	if !cfg.Endpoint.IsNull() && !cfg.Endpoint.IsUnknown() {
		endpoint = cfg.Endpoint.ValueString()
	}
	token := os.Getenv("STRATA_TOKEN")
	if !cfg.Token.IsNull() && !cfg.Token.IsUnknown() {
		token = cfg.Token.ValueString()
	}
	if endpoint == "" {
		resp.Diagnostics.AddAttributeError(path.Root("endpoint"), "Missing Strata endpoint",
			"Set endpoint in the provider block or the STRATA_ENDPOINT environment variable (e.g. http://127.0.0.1:8080).")
	}
	if token == "" {
		resp.Diagnostics.AddAttributeError(path.Root("token"), "Missing Strata API token",
			"Set token in the provider block or the STRATA_TOKEN environment variable (create one with POST /v1/tokens or in the console under Access).")
	}
	if resp.Diagnostics.HasError() {
		return
	}
	api, err := NewAPI(endpoint, token, p.version)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the Strata API client", err.Error())
		return
	}
	resp.ResourceData = api
	resp.DataSourceData = api
}

func (p *strataProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewClusterResource, NewAPITokenResource, NewNotificationChannelResource, NewAlertRuleResource, NewDatabaseUserResource, NewClientCertificateResource}
}

func (p *strataProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{NewClusterDataSource, NewNodesDataSource, NewBackupDataSource}
}

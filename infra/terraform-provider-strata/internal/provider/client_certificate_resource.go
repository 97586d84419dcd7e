package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

var (
	_ resource.Resource                = (*clientCertificateResource)(nil)
	_ resource.ResourceWithImportState = (*clientCertificateResource)(nil)
)

type clientCertificateResource struct{ api *API }

// NewClientCertificateResource is the strata_client_certificate resource.
func NewClientCertificateResource() resource.Resource { return &clientCertificateResource{} }

type clientCertificateModel struct {
	ID             types.String `tfsdk:"id"`
	ClusterID      types.String `tfsdk:"cluster_id"`
	Name           types.String `tfsdk:"name"`
	ValidityDays   types.Int64  `tfsdk:"validity_days"`
	SerialNumber   types.String `tfsdk:"serial_number"`
	CreatedAt      types.String `tfsdk:"created_at"`
	ExpiresAt      types.String `tfsdk:"expires_at"`
	Revocable      types.Bool   `tfsdk:"revocable"`
	CertificatePEM types.String `tfsdk:"certificate_pem"`
	PrivateKeyPEM  types.String `tfsdk:"private_key_pem"`
}

func (r *clientCertificateResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_client_certificate"
}

func (r *clientCertificateResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		Description: "A client certificate (mTLS) of a TLS cluster, signed for it alone: what clients present when the cluster's tls_client_auth is optional or required. " +
			"Destroying it revokes it (every instance refuses it within seconds, without a restart). Any change replaces it. A certificate revoked or expired " +
			"outside Terraform is planned anew. Import with <cluster_id>/<certificate_id>: the certificate and its key are not known after an import.",
		Attributes: map[string]schema.Attribute{
			"id":         schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "The certificate's id (UUID)."},
			"cluster_id": schema.StringAttribute{Required: true, PlanModifiers: replace, Description: "The cluster (tls required) whose CA issues it."},
			"name": schema.StringAttribute{
				Required: true, PlanModifiers: replace,
				Description: "What the certificate is for (e.g. the application), its subject's common name: 1-64 letters, digits, _ . -, starting with a letter or digit.",
				Validators:  []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`), "1-64 letters, digits, _ . -, starting with a letter or digit")},
			},
			"validity_days": schema.Int64Attribute{
				Optional: true, PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplace()},
				Description: "Days it is valid, 1-3650 (default 365); never past the cluster's CA.",
				Validators:  []validator.Int64{int64validator.Between(1, 3650)},
			},
			"serial_number": schema.StringAttribute{Computed: true, PlanModifiers: keep, Description: "Hex, as openssl x509 -serial prints it."},
			"created_at":    schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"expires_at":    schema.StringAttribute{Computed: true, PlanModifiers: keep},
			"revocable": schema.BoolAttribute{
				Computed: true, PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
				Description: "false: signed by the cluster's CA itself (an older certificate), so destroying it cannot revoke it; it stays valid until it expires.",
			},
			"certificate_pem": schema.StringAttribute{
				Computed: true, PlanModifiers: keep,
				Description: "PEM of the certificate (client.crt). Known to the state that created it (null after import).",
			},
			"private_key_pem": schema.StringAttribute{
				Computed: true, Sensitive: true, PlanModifiers: keep,
				Description: "PEM (PKCS #8, ECDSA P-256) of its private key (client.key). Strata does not keep it: known only to the state that created the certificate (null after import).",
			},
		},
	}
}

func (r *clientCertificateResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.api = req.ProviderData.(*API)
	}
}

func (r *clientCertificateResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan clientCertificateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	body := client.CreateClientCertificateRequest{Name: plan.Name.ValueString()}
	if !plan.ValidityDays.IsNull() && !plan.ValidityDays.IsUnknown() {
		d := int(plan.ValidityDays.ValueInt64())
		body.ValidityDays = &d
	}
	out, err := r.api.CreateClientCertificate(ctx, plan.ClusterID.ValueString(), body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the client certificate", err.Error())
		return
	}
	setFromClientCertificate(&plan, &out.ClientCertificate)
	plan.CertificatePEM = types.StringValue(out.Certificate)
	plan.PrivateKeyPEM = types.StringValue(out.PrivateKey)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func setFromClientCertificate(m *clientCertificateModel, c *client.ClientCertificate) {
	m.ID = types.StringValue(c.Id.String())
	m.Name = types.StringValue(c.Name)
	m.SerialNumber = types.StringValue(c.SerialNumber)
	m.CreatedAt = types.StringValue(c.CreatedAt)
	m.ExpiresAt = types.StringValue(c.ExpiresAt)
	m.Revocable = types.BoolValue(c.Revocable)
}

// usable: neither revoked nor expired at now.
func usable(c *client.ClientCertificate, now time.Time) bool {
	if c.RevokedAt != nil {
		return false
	}
	exp, err := time.Parse(time.RFC3339, c.ExpiresAt)
	return err != nil || exp.After(now)
}

func (r *clientCertificateResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state clientCertificateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c, err := r.api.ClientCertificate(ctx, state.ClusterID.ValueString(), state.ID.ValueString())
	if errors.Is(err, ErrNotFound) || (err == nil && !usable(c, time.Now())) {
		// Its cluster is gone, or it was revoked or expired: drop it so the next plan issues a new one.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the client certificate", err.Error())
		return
	}
	setFromClientCertificate(&state, c)
	if state.CertificatePEM.IsUnknown() {
		state.CertificatePEM = types.StringNull()
	}
	if state.PrivateKeyPEM.IsUnknown() {
		state.PrivateKeyPEM = types.StringNull()
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clientCertificateResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	// Every configurable attribute forces replacement; nothing to do in place.
	var plan clientCertificateModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *clientCertificateResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clientCertificateModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, err := r.api.RevokeClientCertificate(ctx, state.ClusterID.ValueString(), state.ID.ValueString())
	var apiErr *APIError
	switch {
	case err == nil, errors.Is(err, ErrNotFound):
	case errors.As(err, &apiErr) && apiErr.Code == "not_revocable":
		resp.Diagnostics.AddWarning("The client certificate cannot be revoked",
			fmt.Sprintf("Certificate %s was signed by the cluster's CA itself: it is removed from the state but stays valid until it expires (%s).", state.ID.ValueString(), state.ExpiresAt.ValueString()))
	default:
		resp.Diagnostics.AddError("Cannot revoke the client certificate", err.Error())
	}
}

// ImportState takes <cluster_id>/<certificate_id>.
func (r *clientCertificateResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	clusterID, id, ok := strings.Cut(req.ID, "/")
	if !ok || clusterID == "" || id == "" {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("expected <cluster_id>/<certificate_id>, got %q", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("cluster_id"), clusterID)...)
}

package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The cluster's `ca_rotation` attribute: a trigger that rotates a TLS cluster's CA in place
// (POST /v1/clusters/{id}/tls/rotate-ca) whenever its value changes, like a `keepers` map.

var caRotationAttrTypes = map[string]attr.Type{"trigger": types.StringType, "retire_after_seconds": types.Int64Type}

// caRotationReissueStep: once it succeeded every instance serves a certificate of the new CA and both CAs are trusted.
const caRotationReissueStep = "reissue"

type caRotationModel struct {
	Trigger            types.String `tfsdk:"trigger"`
	RetireAfterSeconds types.Int64  `tfsdk:"retire_after_seconds"`
}

func caRotationSchemaAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		Description: "Rotates the cluster's CA in place (tls required) whenever trigger changes, without a restart: a new CA is trusted beside the old one, every instance " +
			"gets a certificate from it, and the old CA is retired retire_after_seconds later. Apply returns once every instance serves the new CA's certificate; " +
			"ca_certificate then holds both CAs (give it to your clients) until the old one retires, and the new CA alone after that (seen at the next refresh). " +
			"Nothing rotates when the cluster is created or when the block is removed.",
		Attributes: map[string]schema.Attribute{
			"trigger": schema.StringAttribute{
				Required:    true,
				Description: "Any value (e.g. a date); a new value rotates the CA, also when the block is added to an existing cluster.",
				Validators:  []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"retire_after_seconds": schema.Int64Attribute{
				Optional:    true,
				Description: "How long the old CA stays trusted once every instance serves the new one: time for clients to take the new CA (0 to 2592000, 30 days; default 3600).",
				Validators:  []validator.Int64{int64validator.Between(0, 30*86400)},
			},
		},
	}
}

func caRotationOf(ctx context.Context, o types.Object) (*caRotationModel, diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() {
		return nil, nil
	}
	var m caRotationModel
	d := o.As(ctx, &m, basetypes.ObjectAsOptions{})
	return &m, d
}

// caRotationAsked: the rotation an update must start, when the trigger has a new (known) value; nil otherwise.
func caRotationAsked(ctx context.Context, plan, state types.Object) (*caRotationModel, diag.Diagnostics) {
	want, d := caRotationOf(ctx, plan)
	if d.HasError() || want == nil || want.Trigger.IsUnknown() {
		return nil, d
	}
	had, d2 := caRotationOf(ctx, state)
	d.Append(d2...)
	if had != nil && had.Trigger.Equal(want.Trigger) {
		return nil, d
	}
	return want, d
}

// rotateCA starts the rotation and, when wait, waits until every instance serves the new CA's certificate.
func (r *clusterResource) rotateCA(ctx context.Context, clusterID string, rot *caRotationModel, wait bool) diag.Diagnostics {
	var diags diag.Diagnostics
	var retire *int
	if !rot.RetireAfterSeconds.IsNull() && !rot.RetireAfterSeconds.IsUnknown() {
		v := int(rot.RetireAfterSeconds.ValueInt64())
		retire = &v
	}
	op, err := r.api.RotateCA(ctx, clusterID, retire)
	if err != nil {
		diags.AddAttributeError(path.Root("ca_rotation"), "Cannot rotate the cluster's CA", err.Error())
		return diags
	}
	if wait {
		if _, err := r.api.WaitOperationStep(ctx, op.Id.String(), caRotationReissueStep); err != nil {
			diags.AddAttributeError(path.Root("ca_rotation"), "The CA rotation did not reach the new CA", err.Error())
		}
	}
	return diags
}

// ValidateConfig: a CA rotation needs a CA, so tls required.
func (r *clusterResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var rot types.Object
	var tls types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("ca_rotation"), &rot)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("tls"), &tls)...)
	if resp.Diagnostics.HasError() || rot.IsNull() || tls.IsUnknown() {
		return
	}
	if tls.ValueString() != "required" {
		resp.Diagnostics.AddAttributeError(path.Root("ca_rotation"), "ca_rotation needs TLS", "A cluster without TLS has no CA to rotate: set tls = \"required\" (at creation) or remove ca_rotation.")
	}
}

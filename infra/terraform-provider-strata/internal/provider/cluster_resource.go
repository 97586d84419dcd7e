package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/strata/terraform-provider-strata/internal/client"
)

var (
	_ resource.Resource                   = (*clusterResource)(nil)
	_ resource.ResourceWithConfigure      = (*clusterResource)(nil)
	_ resource.ResourceWithImportState    = (*clusterResource)(nil)
	_ resource.ResourceWithValidateConfig = (*clusterResource)(nil)
)

// Durabilities and eviction policies the API accepts (kept in step with @strata/api by the generated client's enums).
var (
	durabilities     = []string{string(client.CreateClusterRequestDurabilityNone), string(client.CreateClusterRequestDurabilityAofEverysec), string(client.CreateClusterRequestDurabilityAofAlways)}
	evictionPolicies = []string{"noeviction", "allkeys-lru", "allkeys-lfu", "allkeys-random", "volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"}
	fencings         = []string{string(client.CreateClusterRequestFencingOff), string(client.CreateClusterRequestFencingOn)}
	priorities       = []string{string(client.CreateClusterRequestMigrationPriorityGentle), string(client.CreateClusterRequestMigrationPriorityBalanced), string(client.CreateClusterRequestMigrationPriorityFast)}
)

const (
	defaultCreateTimeout = 15 * time.Minute
	defaultUpdateTimeout = 60 * time.Minute
	defaultDeleteTimeout = 15 * time.Minute
)

type clusterResource struct{ api *API }

// NewClusterResource is the strata_cluster resource.
func NewClusterResource() resource.Resource { return &clusterResource{} }

type timeoutsModel struct {
	Create types.String `tfsdk:"create"`
	Update types.String `tfsdk:"update"`
	Delete types.String `tfsdk:"delete"`
}

type clusterModel struct {
	ID                types.String `tfsdk:"id"`
	Name              types.String `tfsdk:"name"`
	Shards            types.Int64  `tfsdk:"shards"`
	ReplicasPerShard  types.Int64  `tfsdk:"replicas_per_shard"`
	MemoryMbPerShard  types.Int64  `tfsdk:"memory_mb_per_shard"`
	Durability        types.String `tfsdk:"durability"`
	EvictionPolicy    types.String `tfsdk:"eviction_policy"`
	Fencing           types.String `tfsdk:"fencing"`
	MigrationPriority types.String `tfsdk:"migration_priority"`
	MaintenanceWindow types.Object `tfsdk:"maintenance_window"`
	EngineVersion     types.String `tfsdk:"engine_version"`
	TLS               types.String `tfsdk:"tls"`
	TLSClientAuth     types.String `tfsdk:"tls_client_auth"`
	CACertificate     types.String `tfsdk:"ca_certificate"`
	CARotation        types.Object `tfsdk:"ca_rotation"`
	WaitForReady      types.Bool   `tfsdk:"wait_for_ready"`
	Timeouts          types.Object `tfsdk:"timeouts"`
	Status            types.String `tfsdk:"status"`
	ConnectionURI     types.String `tfsdk:"connection_uri"`
	Username          types.String `tfsdk:"username"`
	Password          types.String `tfsdk:"password"`
	Seeds             types.List   `tfsdk:"seeds"`
	Backup            types.Object `tfsdk:"backup"`
	RestoreFrom       types.String `tfsdk:"restore_from"`
}

var timeoutsAttrTypes = map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType}

var windowAttrTypes = map[string]attr.Type{"day_of_week": types.StringType, "start_time": types.StringType, "duration_minutes": types.Int64Type}

var weekdays = []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}

// windowModel is maintenance_window as Terraform holds it.
type windowModel struct {
	DayOfWeek       types.String `tfsdk:"day_of_week"`
	StartTime       types.String `tfsdk:"start_time"`
	DurationMinutes types.Int64  `tfsdk:"duration_minutes"`
}

// windowOf reads maintenance_window; nil when it is not set.
func windowOf(ctx context.Context, o types.Object) (*windowModel, diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() {
		return nil, nil
	}
	var w windowModel
	d := o.As(ctx, &w, basetypes.ObjectAsOptions{})
	return &w, d
}

func windowValue(w *client.MaintenanceWindow) types.Object {
	if w == nil {
		return types.ObjectNull(windowAttrTypes)
	}
	return types.ObjectValueMust(windowAttrTypes, map[string]attr.Value{
		"day_of_week": types.StringValue(string(w.DayOfWeek)), "start_time": types.StringValue(w.StartTime), "duration_minutes": types.Int64Value(int64(w.DurationMinutes)),
	})
}

func (r *clusterResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cluster"
}

func (r *clusterResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	duration := []validator.String{durationValidator{}}
	resp.Schema = schema.Schema{
		Description: "A Strata Redis Cluster. shards, replicas_per_shard, memory_mb_per_shard, durability, eviction_policy, fencing, tls_client_auth, migration_priority and maintenance_window change in place " +
			"(PATCH /v1/clusters/{id}, waiting for the operation); tls changes in place on a valkey-8 cluster (a TLS switch of its own); backup changes in place at once; name, engine_version, restore_from and tls on a 7 cluster force a new cluster; a new ca_rotation trigger rotates the CA in place.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, Description: "Cluster id (UUID).", PlanModifiers: keep},
			"name": schema.StringAttribute{
				Required: true, PlanModifiers: replace, Description: "Unique in the organization: lowercase letters, digits and dashes. Changing it creates a new cluster.",
				Validators: []validator.String{stringvalidator.LengthBetween(2, 40)},
			},
			"shards": schema.Int64Attribute{
				Required: true, Description: "Number of primaries (1-64). Changes in place (resharding).",
				Validators: []validator.Int64{int64validator.Between(1, 64)},
			},
			"replicas_per_shard": schema.Int64Attribute{
				Required: true, Description: "Replicas of each primary (0-5), each on another node. Changes in place.",
				Validators: []validator.Int64{int64validator.Between(0, 5)},
			},
			"memory_mb_per_shard": schema.Int64Attribute{
				Optional: true, Computed: true, Default: int64default.StaticInt64(256), Description: "maxmemory of each instance in MB (16-65536). Default 256. Changes in place.",
				Validators: []validator.Int64{int64validator.Between(16, 65536)},
			},
			"durability": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("none"), Description: "none, aof-everysec or aof-always. Default none. Changes in place.",
				Validators: []validator.String{stringvalidator.OneOf(durabilities...)},
			},
			"eviction_policy": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("noeviction"), Description: "Redis maxmemory-policy. Default noeviction. Changes in place.",
				Validators: []validator.String{stringvalidator.OneOf(evictionPolicies...)},
			},
			"fencing": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("off"),
				Description: "Write fencing: on makes a primary accept writes only while a replica acknowledged it within 2 s, so a primary cut off from its replicas " +
					"refuses writes instead of acknowledging writes a failover would discard (needs replicas_per_shard >= 1; a shard refuses writes while none of its replicas is connected). Default off. Changes in place.",
				Validators: []validator.String{stringvalidator.OneOf(fencings...)},
			},
			"migration_priority": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("balanced"),
				Description: "How hard slot moves (resharding) press on the primaries: gentle (smallest steps, one source shard at a time, pausing whenever a primary is busy), " +
					"balanced (short steps, sources in parallel, pausing when a primary is busy) or fast (long steps, never pausing). Default balanced. Applies to the change it comes with and later ones.",
				Validators: []validator.String{stringvalidator.OneOf(priorities...)},
			},
			"maintenance_window": schema.SingleNestedAttribute{
				Optional:    true,
				Description: "Weekly window (UTC) in which changes that restart engines (a rolling restart) run unless forced. Unset: none. Changes in place, at once (no operation).",
				Attributes: map[string]schema.Attribute{
					"day_of_week": schema.StringAttribute{
						Required: true, Description: "The day (UTC) it starts on: monday ... sunday.",
						Validators: []validator.String{stringvalidator.OneOf(weekdays...)},
					},
					"start_time": schema.StringAttribute{
						Required: true, Description: "When it starts, HH:MM (24-hour, UTC).",
						Validators: []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^([01]\d|2[0-3]):[0-5]\d$`), "must be HH:MM, 24-hour")},
					},
					"duration_minutes": schema.Int64Attribute{
						Required: true, Description: "How long it stays open: 30 to 1440 minutes (it may run past midnight, also from Sunday into Monday).",
						Validators: []validator.Int64{int64validator.Between(30, 1440)},
					},
				},
			},
			"backup": backupSchemaAttribute(),
			"restore_from": schema.StringAttribute{
				Optional: true, PlanModifiers: replace,
				Description: "Id of a completed backup (see the strata_backup data source) the new cluster starts with: its shape may differ from the backup's " +
					"(another shard count moves the keys by slot while the cluster is created; it is ready once every key is in). Changing it creates a new cluster.",
				Validators: []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`), "must be a backup id (a UUID)")},
			},
			"engine_version": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("7"), PlanModifiers: replace,
				Description: "The engine: 7 (Redis 7.0) or valkey-8 (Valkey 8: Redis 7.2's protocol, the same clients). Default 7. Changing it creates a new cluster.",
				Validators:  []validator.String{stringvalidator.OneOf("7", "valkey-8")},
			},
			"tls": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("off"), PlanModifiers: []planmodifier.String{tlsReplacedOn7()},
				Description: "off, preferred or required: required serves TLS only on the client port and replication (and the cluster bus of a cluster created with it), with certificates from the cluster's own CA (ca_certificate); " +
					"preferred (valkey-8, in place only) serves both protocols while clients move (connection_uri is then the plain-text URI; the TLS one is in GET /v1/clusters/{id}/connection). Default off. " +
					"On a valkey-8 cluster it changes in place without a restart (a tls-switch operation, applied alone after or before the other changes); on a 7 cluster changing it creates a new cluster.",
				Validators: []validator.String{stringvalidator.OneOf("off", "preferred", "required")},
			},
			"tls_client_auth": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString("none"),
				Description: "none, optional or required: with required, every client also presents a client certificate of the cluster; with optional, a certificate is verified when a client presents one and the password alone also works (roll certificates out, then require them). Needs tls required. Default none. Changes in place.",
				Validators:  []validator.String{stringvalidator.OneOf("none", "optional", "required")},
			},
			"ca_certificate": schema.StringAttribute{Computed: true, Description: "PEM of the cluster's CA when tls is required (clients verify the instances against it), else null; during a CA rotation both CAs, the new one first."},
			"ca_rotation":    caRotationSchemaAttribute(),
			"wait_for_ready": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				Description: "Wait for create and update operations to finish (default true). Provider-side only: changing it never touches the cluster.",
			},
			"timeouts": schema.SingleNestedAttribute{
				Optional: true, Description: "How long to wait, as Go durations (\"20m\"). Defaults: create 15m, update 60m, delete 15m.",
				Attributes: map[string]schema.Attribute{
					"create": schema.StringAttribute{Optional: true, Validators: duration},
					"update": schema.StringAttribute{Optional: true, Validators: duration},
					"delete": schema.StringAttribute{Optional: true, Validators: duration},
				},
			},
			"status":         schema.StringAttribute{Computed: true, Description: "Phase: provisioning, ready, updating, degraded, deleting or failed."},
			"connection_uri": schema.StringAttribute{Computed: true, Sensitive: true, Description: "redis://USER:PASSWORD@HOST:PORT of the cluster's stable endpoint (STRATA_ENDPOINT_HOST, set by npm start), or of one primary when the installation has no endpoint host."},
			"username":       schema.StringAttribute{Computed: true, Description: "ACL user for clients.", PlanModifiers: keep},
			"password":       schema.StringAttribute{Computed: true, Sensitive: true, Description: "Password of the ACL user.", PlanModifiers: keep},
			"seeds":          schema.ListAttribute{Computed: true, ElementType: types.StringType, Description: "host:port of every primary, sorted."},
		},
	}
}

func (r *clusterResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.api = req.ProviderData.(*API)
	}
}

func timeoutOf(ctx context.Context, obj types.Object, key string, def time.Duration) time.Duration {
	if obj.IsNull() || obj.IsUnknown() {
		return def
	}
	var t timeoutsModel
	if diags := obj.As(ctx, &t, basetypesObjectAsOptions); diags.HasError() {
		return def
	}
	v := map[string]types.String{"create": t.Create, "update": t.Update, "delete": t.Delete}[key]
	if v.IsNull() || v.IsUnknown() {
		return def
	}
	d, err := time.ParseDuration(v.ValueString())
	if err != nil {
		return def
	}
	return d
}

func (r *clusterResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan clusterModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeoutOf(ctx, plan.Timeouts, "create", defaultCreateTimeout))
	defer cancel()

	mem := int(plan.MemoryMbPerShard.ValueInt64())
	dur := client.CreateClusterRequestDurability(plan.Durability.ValueString())
	ev := client.CreateClusterRequestEvictionPolicy(plan.EvictionPolicy.ValueString())
	eng := client.CreateClusterRequestEngineVersion(plan.EngineVersion.ValueString())
	prio := client.CreateClusterRequestMigrationPriority(plan.MigrationPriority.ValueString())
	tls := client.CreateClusterRequestTls(plan.TLS.ValueString())
	clientAuth := client.CreateClusterRequestTlsClientAuth(plan.TLSClientAuth.ValueString())
	fence := client.CreateClusterRequestFencing(plan.Fencing.ValueString())
	body := client.CreateClusterRequest{
		Name: plan.Name.ValueString(), Shards: int(plan.Shards.ValueInt64()), ReplicasPerShard: int(plan.ReplicasPerShard.ValueInt64()),
		MemoryMbPerShard: &mem, Durability: &dur, EvictionPolicy: &ev, Fencing: &fence, MigrationPriority: &prio, EngineVersion: &eng, Tls: &tls, TlsClientAuth: &clientAuth,
	}
	if !plan.RestoreFrom.IsNull() && !plan.RestoreFrom.IsUnknown() {
		id, err := parseID(plan.RestoreFrom.ValueString())
		if err != nil {
			resp.Diagnostics.AddError("Invalid restore_from", err.Error())
			return
		}
		body.RestoreFrom = &client.RestoreFrom{BackupId: id}
	}
	w, d := windowOf(ctx, plan.MaintenanceWindow)
	resp.Diagnostics.Append(d...)
	if w != nil {
		body.MaintenanceWindow = &struct {
			DayOfWeek       client.CreateClusterRequestMaintenanceWindowDayOfWeek `json:"dayOfWeek"`
			DurationMinutes int                                                   `json:"durationMinutes"`
			StartTime       string                                                `json:"startTime"`
		}{client.CreateClusterRequestMaintenanceWindowDayOfWeek(w.DayOfWeek.ValueString()), int(w.DurationMinutes.ValueInt64()), w.StartTime.ValueString()}
	}
	out, err := r.api.CreateCluster(ctx, body)
	if err != nil {
		resp.Diagnostics.AddError("Cannot create the cluster", err.Error())
		return
	}
	// Track the cluster at once: if waiting fails, Terraform keeps it (tainted) instead of leaking it.
	plan.ID = types.StringValue(out.Cluster.Id.String())
	plan.Status = types.StringValue(string(out.Cluster.Status.Phase))
	plan.ConnectionURI, plan.Username, plan.Password = types.StringNull(), types.StringNull(), types.StringNull()
	plan.Seeds = types.ListNull(types.StringType)
	plan.CACertificate = types.StringNull()
	wantBackup := plan.Backup
	plan.Backup = types.ObjectNull(backupAttrTypes)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if !wantBackup.IsNull() {
		if resp.Diagnostics.Append(r.applyBackup(ctx, plan.ID.ValueString(), wantBackup)...); resp.Diagnostics.HasError() {
			return
		}
		plan.Backup = wantBackup
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}

	if plan.WaitForReady.ValueBool() {
		if _, err := r.api.WaitOperation(ctx, out.Operation.Id.String()); err != nil {
			resp.Diagnostics.AddError("The cluster did not become ready", err.Error())
			return
		}
	}
	resp.Diagnostics.Append(r.refresh(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// refresh reads the cluster and its connection into m; ErrNotFound is returned as-is.
func (r *clusterResource) refresh(ctx context.Context, m *clusterModel) diag.Diagnostics {
	var diags diag.Diagnostics
	c, err := r.api.GetCluster(ctx, m.ID.ValueString())
	if err != nil {
		diags.AddError("Cannot read the cluster", err.Error())
		return diags
	}
	setFromCluster(m, c)
	conn, err := r.api.Connection(ctx, m.ID.ValueString())
	if err != nil {
		diags.AddError("Cannot read the cluster's connection", err.Error())
		return diags
	}
	m.ConnectionURI = types.StringValue(conn.Uri)
	m.Username = types.StringValue(conn.Username)
	m.Password = types.StringValue(conn.Password)
	m.CACertificate = types.StringPointerValue(conn.CaCertificate)
	seeds, d := types.ListValueFrom(ctx, types.StringType, conn.Seeds)
	diags.Append(d...)
	m.Seeds = seeds
	schedule, err := r.api.BackupSchedule(ctx, m.ID.ValueString())
	if err != nil {
		diags.AddError("Cannot read the cluster's backup schedule", err.Error())
		return diags
	}
	m.Backup = backupValue(schedule)
	return diags
}

func setFromCluster(m *clusterModel, c *client.Cluster) {
	m.ID = types.StringValue(c.Id.String())
	m.Name = types.StringValue(c.Name)
	m.Shards = types.Int64Value(int64(c.Spec.Shards))
	m.ReplicasPerShard = types.Int64Value(int64(c.Spec.ReplicasPerShard))
	m.MemoryMbPerShard = types.Int64Value(int64(c.Spec.MemoryMbPerShard))
	m.Durability = types.StringValue(string(c.Spec.Durability))
	m.EvictionPolicy = types.StringValue(string(c.Spec.EvictionPolicy))
	m.Fencing = types.StringValue(string(c.Spec.Fencing))
	m.MigrationPriority = types.StringValue(string(c.Spec.MigrationPriority))
	m.MaintenanceWindow = windowValue(c.Spec.MaintenanceWindow)
	m.EngineVersion = types.StringValue(string(c.Spec.EngineVersion))
	m.TLS = types.StringValue(string(c.Spec.Tls))
	m.TLSClientAuth = types.StringValue(string(c.Spec.TlsClientAuth))
	m.Status = types.StringValue(string(c.Status.Phase))
}

func (r *clusterResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state clusterModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	c, err := r.api.GetCluster(ctx, state.ID.ValueString())
	if errors.Is(err, ErrNotFound) || (err == nil && c.Status.Phase == client.ClusterStatusPhaseDeleting) {
		// Deleted outside Terraform (or being deleted): drop it so the next plan creates it again.
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the cluster", err.Error())
		return
	}
	if state.WaitForReady.IsNull() {
		state.WaitForReady = types.BoolValue(true) // after import
	}
	if state.Timeouts.IsUnknown() {
		state.Timeouts = types.ObjectNull(timeoutsAttrTypes)
	}
	resp.Diagnostics.Append(r.refresh(ctx, &state)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *clusterResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state clusterModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeoutOf(ctx, plan.Timeouts, "update", defaultUpdateTimeout))
	defer cancel()

	if !plan.Backup.Equal(state.Backup) && !plan.Backup.IsUnknown() {
		if resp.Diagnostics.Append(r.applyBackup(ctx, state.ID.ValueString(), plan.Backup)...); resp.Diagnostics.HasError() {
			return
		}
	}
	rotation, d := caRotationAsked(ctx, plan.CARotation, state.CARotation)
	if resp.Diagnostics.Append(d...); resp.Diagnostics.HasError() {
		return
	}
	patch, changed, removeWindow := clusterPatch(ctx, plan, state)
	// TLS switches alone: to required before the rest (client certificates need it), otherwise after it.
	tlsTo := ""
	if !plan.TLS.Equal(state.TLS) && !plan.TLS.IsUnknown() {
		tlsTo = plan.TLS.ValueString()
	}
	if tlsTo == "required" {
		if resp.Diagnostics.Append(r.switchTLS(ctx, state.ID.ValueString(), tlsTo, true)...); resp.Diagnostics.HasError() {
			return
		}
	}
	if removeWindow {
		// The generated body cannot carry an explicit null: the removal goes alone (applied at once, no operation).
		if err := r.api.RemoveMaintenanceWindow(ctx, state.ID.ValueString()); err != nil {
			resp.Diagnostics.AddError("Cannot remove the maintenance window", err.Error())
			return
		}
	}
	if changed {
		op, err := r.api.UpdateCluster(ctx, state.ID.ValueString(), patch)
		if err != nil {
			resp.Diagnostics.AddError("Cannot change the cluster in place", err.Error())
			return
		}
		// A CA rotation or a TLS switch waits for the change: the API runs one operation at a time.
		if op != nil && (plan.WaitForReady.ValueBool() || rotation != nil || (tlsTo != "" && tlsTo != "required")) {
			if _, err := r.api.WaitOperation(ctx, op.Id.String()); err != nil {
				resp.Diagnostics.AddError("The change did not finish", err.Error())
				return
			}
		}
	}
	if tlsTo != "" && tlsTo != "required" {
		if resp.Diagnostics.Append(r.switchTLS(ctx, state.ID.ValueString(), tlsTo, plan.WaitForReady.ValueBool() || rotation != nil)...); resp.Diagnostics.HasError() {
			return
		}
	}
	if rotation != nil {
		if resp.Diagnostics.Append(r.rotateCA(ctx, state.ID.ValueString(), rotation, plan.WaitForReady.ValueBool())...); resp.Diagnostics.HasError() {
			return
		}
	}
	plan.ID = state.ID
	resp.Diagnostics.Append(r.refresh(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// clusterPatch lists the in-place fields that differ between plan and state; removeWindow: the
// maintenance window is to be removed (sent on its own).
func clusterPatch(ctx context.Context, plan, state clusterModel) (ClusterPatch, bool, bool) {
	var p ClusterPatch
	changed, removeWindow := false, false
	intField := func(a, b types.Int64, dst **int) {
		if !a.Equal(b) && !a.IsUnknown() {
			v := int(a.ValueInt64())
			*dst = &v
			changed = true
		}
	}
	strChanged := func(a, b types.String) bool { return !a.Equal(b) && !a.IsUnknown() }
	intField(plan.Shards, state.Shards, &p.Shards)
	intField(plan.ReplicasPerShard, state.ReplicasPerShard, &p.ReplicasPerShard)
	intField(plan.MemoryMbPerShard, state.MemoryMbPerShard, &p.MemoryMbPerShard)
	if strChanged(plan.Durability, state.Durability) {
		v := client.UpdateClusterRequestDurability(plan.Durability.ValueString())
		p.Durability, changed = &v, true
	}
	if strChanged(plan.EvictionPolicy, state.EvictionPolicy) {
		v := client.UpdateClusterRequestEvictionPolicy(plan.EvictionPolicy.ValueString())
		p.EvictionPolicy, changed = &v, true
	}
	if strChanged(plan.Fencing, state.Fencing) {
		v := client.UpdateClusterRequestFencing(plan.Fencing.ValueString())
		p.Fencing, changed = &v, true
	}
	if strChanged(plan.TLSClientAuth, state.TLSClientAuth) {
		v := client.UpdateClusterRequestTlsClientAuth(plan.TLSClientAuth.ValueString())
		p.TlsClientAuth, changed = &v, true
	}
	if strChanged(plan.MigrationPriority, state.MigrationPriority) {
		v := client.UpdateClusterRequestMigrationPriority(plan.MigrationPriority.ValueString())
		p.MigrationPriority, changed = &v, true
	}
	if !plan.MaintenanceWindow.Equal(state.MaintenanceWindow) && !plan.MaintenanceWindow.IsUnknown() {
		if w, _ := windowOf(ctx, plan.MaintenanceWindow); w == nil {
			removeWindow = true
		} else {
			p.MaintenanceWindow = &struct {
				DayOfWeek       client.UpdateClusterRequestMaintenanceWindowDayOfWeek `json:"dayOfWeek"`
				DurationMinutes int                                                   `json:"durationMinutes"`
				StartTime       string                                                `json:"startTime"`
			}{client.UpdateClusterRequestMaintenanceWindowDayOfWeek(w.DayOfWeek.ValueString()), int(w.DurationMinutes.ValueInt64()), w.StartTime.ValueString()}
			changed = true
		}
	}
	return p, changed, removeWindow
}

func (r *clusterResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state clusterModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeoutOf(ctx, state.Timeouts, "delete", defaultDeleteTimeout))
	defer cancel()
	err := r.api.DeleteCluster(ctx, state.ID.ValueString())
	if errors.Is(err, ErrNotFound) {
		return
	}
	var apiErr *APIError
	if err != nil && !(errors.As(err, &apiErr) && apiErr.Status == 409) { // 409: already being deleted
		resp.Diagnostics.AddError("Cannot delete the cluster", err.Error())
		return
	}
	if err := r.api.WaitClusterGone(ctx, state.ID.ValueString()); err != nil {
		resp.Diagnostics.AddError("The cluster was not deleted in time", err.Error())
	}
}

func (r *clusterResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if _, err := parseID(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid import id", fmt.Sprintf("Import a cluster by its id (a UUID, see GET /v1/clusters): %v", err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("wait_for_ready"), true)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("timeouts"), types.ObjectNull(timeoutsAttrTypes))...)
}

// tlsReplacedOn7: tls switches in place on valkey-8 (Valkey announces a port per protocol); on Redis 7.0 a change
// plans a new cluster.
func tlsReplacedOn7() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		var engine types.String
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("engine_version"), &engine)...)
		resp.RequiresReplace = engine.ValueString() != "valkey-8"
	}, "Changing tls on a 7 cluster creates a new cluster (valkey-8 switches in place).", "Changing `tls` on a `7` cluster creates a new cluster (`valkey-8` switches in place).")
}

// switchTLS changes tls alone (the API runs a TLS switch as an operation of its own) and waits for it when asked.
func (r *clusterResource) switchTLS(ctx context.Context, id string, to string, wait bool) diag.Diagnostics {
	var d diag.Diagnostics
	v := client.UpdateClusterRequestTls(to)
	op, err := r.api.UpdateCluster(ctx, id, ClusterPatch{Tls: &v})
	if err != nil {
		d.AddError("Cannot switch TLS in place", err.Error())
		return d
	}
	if op != nil && wait {
		if _, err := r.api.WaitOperation(ctx, op.Id.String()); err != nil {
			d.AddError("The TLS switch did not finish", err.Error())
		}
	}
	return d
}

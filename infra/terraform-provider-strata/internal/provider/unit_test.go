package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/strata/terraform-provider-strata/internal/client"
)

func clientTokenRequest(name string) client.CreateTokenRequest {
	return client.CreateTokenRequest{Name: name, Scopes: []client.CreateTokenRequestScopes{"clusters:read"}}
}

func TestClusterPatchOnlyChangedFields(t *testing.T) {
	ctx := context.Background()
	state := clusterModel{Shards: types.Int64Value(3), ReplicasPerShard: types.Int64Value(1), MemoryMbPerShard: types.Int64Value(256),
		Durability: types.StringValue("none"), EvictionPolicy: types.StringValue("noeviction"), MigrationPriority: types.StringValue("balanced"),
		MaintenanceWindow: types.ObjectNull(windowAttrTypes)}
	plan := state
	if _, changed, remove := clusterPatch(ctx, plan, state); changed || remove {
		t.Fatal("no change expected")
	}
	plan.Shards = types.Int64Value(4)
	plan.EvictionPolicy = types.StringValue("allkeys-lru")
	p, changed, _ := clusterPatch(ctx, plan, state)
	if !changed || p.Shards == nil || *p.Shards != 4 || p.EvictionPolicy == nil || *p.EvictionPolicy != "allkeys-lru" || p.ReplicasPerShard != nil || p.Durability != nil || p.MigrationPriority != nil {
		t.Fatalf("unexpected patch %+v", p)
	}
	plan = state
	plan.MigrationPriority = types.StringValue("gentle")
	p, changed, _ = clusterPatch(ctx, plan, state)
	if !changed || p.MigrationPriority == nil || *p.MigrationPriority != "gentle" || p.Shards != nil {
		t.Fatalf("a migration_priority change alone should patch only it: %+v", p)
	}
	// A maintenance window set is patched; removed, it goes alone as an explicit null.
	plan = state
	plan.MaintenanceWindow = windowValue(&client.MaintenanceWindow{DayOfWeek: "sunday", StartTime: "02:00", DurationMinutes: 120})
	p, changed, remove := clusterPatch(ctx, plan, state)
	if !changed || remove || p.MaintenanceWindow == nil || p.MaintenanceWindow.DayOfWeek != "sunday" || p.MaintenanceWindow.DurationMinutes != 120 || p.Shards != nil {
		t.Fatalf("a maintenance_window set should patch only it: %+v", p)
	}
	p, changed, remove = clusterPatch(ctx, state, plan)
	if changed || !remove || p.MaintenanceWindow != nil {
		t.Fatalf("a maintenance_window removed should be sent on its own: changed %v remove %v %+v", changed, remove, p)
	}
}

// The operation poller honors Retry-After from the server and otherwise backs off.
func TestWaitOperationHonorsRetryAfterAnd429(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case n == 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"type":"x","title":"slow down","status":429,"code":"internal"}`))
		case n < 4:
			w.Header().Set("Retry-After", "0")
			_, _ = w.Write([]byte(`{"id":"11111111-1111-4111-8111-111111111111","clusterId":"11111111-1111-4111-8111-111111111111","kind":"create","state":"running","progress":0.5,"steps":[],"createdAt":"x","updatedAt":"x"}`))
		default:
			_, _ = w.Write([]byte(`{"id":"11111111-1111-4111-8111-111111111111","clusterId":"11111111-1111-4111-8111-111111111111","kind":"create","state":"succeeded","progress":1,"steps":[],"createdAt":"x","updatedAt":"x"}`))
		}
	}))
	defer srv.Close()
	api, err := NewAPI(srv.URL, "t", "test")
	if err != nil {
		t.Fatal(err)
	}
	api.Poll = 10 * time.Millisecond
	start := time.Now()
	op, err := api.WaitOperation(context.Background(), "11111111-1111-4111-8111-111111111111")
	if err != nil {
		t.Fatal(err)
	}
	if op.State != "succeeded" || calls.Load() != 4 {
		t.Fatalf("state %s after %d calls", op.State, calls.Load())
	}
	if time.Since(start) < time.Second {
		t.Fatalf("Retry-After: 1 on the 429 was not honored (%s)", time.Since(start))
	}
}

func TestProblemNamesFields(t *testing.T) {
	err := problem(400, []byte(`{"type":"x","title":"Invalid","status":400,"code":"validation_failed","detail":"bad","errors":[{"field":"shards","message":"too big"}]}`))
	if err.Error() != "Strata API: HTTP 400 validation_failed: bad (shards: too big)" {
		t.Fatal(err.Error())
	}
}

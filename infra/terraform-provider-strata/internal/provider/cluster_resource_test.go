package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

var protoV6 = map[string]func() (tfprotov6.ProviderServer, error){
	"strata": providerserver.NewProtocol6WithError(New("test")()),
}

func testAPI(t *testing.T) *API {
	t.Helper()
	api, err := NewAPI(os.Getenv("STRATA_ENDPOINT"), os.Getenv("STRATA_TOKEN"), "test")
	if err != nil {
		t.Fatal(err)
	}
	api.Poll = 200 * time.Millisecond
	return api
}

// patchSupported asks the live control plane whether PATCH /v1/clusters/{id} exists (issue 8).
func patchSupported(t *testing.T) bool {
	req, _ := http.NewRequest(http.MethodPatch, os.Getenv("STRATA_ENDPOINT")+"/v1/clusters/00000000-0000-4000-8000-000000000000", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+os.Getenv("STRATA_TOKEN"))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	_, _ = fmt.Fprint(&b, res.Status)
	buf := make([]byte, 4096)
	n, _ := res.Body.Read(buf)
	return !(res.StatusCode == 404 && strings.Contains(string(buf[:n]), "No route for"))
}

// addressPrefix is where the test stack's nodes and endpoint listen (testdata/stack.ts): STRATA_TEST_NET=127.N
// moves 127.0.x to 127.N.x, as startStack does.
func addressPrefix() string {
	p := os.Getenv("STRATA_TEST_ADDRESS_PREFIX")
	if p == "" {
		p = "127.0.52"
	}
	if n := os.Getenv("STRATA_TEST_NET"); n != "" && strings.HasPrefix(p, "127.0.") {
		p = n + strings.TrimPrefix(p, "127.0")
	}
	return p
}

func clusterConfig(name string, memory int, wait bool) string {
	return clusterConfigSpec(clusterSpec{name: name, shards: 1, replicas: 1, memory: memory, durability: "none", eviction: "allkeys-lru", engine: "7", wait: wait})
}

type clusterSpec struct {
	name                         string
	shards, replicas, memory     int
	durability, eviction, engine string
	tls                          string // "" renders as "off"
	fencing                      string // "" renders as "off"
	wait                         bool
	// window: the maintenance_window's HCL object, or "" for none.
	window string
}

func clusterConfigSpec(c clusterSpec) string {
	window := ""
	if c.window != "" {
		window = "maintenance_window = " + c.window
	}
	return fmt.Sprintf(`
provider "strata" {}

resource "strata_cluster" "test" {
  name                = %q
  shards              = %d
  replicas_per_shard  = %d
  memory_mb_per_shard = %d
  durability          = %q
  eviction_policy     = %q
  engine_version      = %q
  tls                 = %q
  fencing             = %q
  wait_for_ready      = %t
  %s
  timeouts = {
    create = "5m"
    update = "5m"
    delete = "5m"
  }
}

data "strata_cluster" "by_name" {
  name = strata_cluster.test.name
}

data "strata_nodes" "all" {
  depends_on = [strata_cluster.test]
}
`, c.name, c.shards, c.replicas, c.memory, c.durability, c.eviction, c.engine, tlsOr(c.tls), tlsOr(c.fencing), c.wait, window)
}

// tlsOr: an unset tls or fencing renders as "off".
func tlsOr(v string) string {
	if v == "" {
		return "off"
	}
	return v
}

// inPlaceStep applies spec and expects an in-place update of the same cluster, with the API's spec
// matching afterwards.
func inPlaceStep(api *API, firstID *string, c clusterSpec) resource.TestStep {
	return resource.TestStep{
		Config: clusterConfigSpec(c),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction("strata_cluster.test", plancheck.ResourceActionUpdate),
		}},
		Check: func(s *terraform.State) error {
			id, _ := clusterID(s)
			if id != *firstID {
				return fmt.Errorf("cluster was replaced (%s -> %s), expected an in-place update", *firstID, id)
			}
			got, err := api.GetCluster(context.Background(), id)
			if err != nil {
				return err
			}
			sp := got.Spec
			if sp.Shards != c.shards || sp.ReplicasPerShard != c.replicas || sp.MemoryMbPerShard != c.memory ||
				string(sp.Durability) != c.durability || string(sp.EvictionPolicy) != c.eviction || string(sp.Fencing) != tlsOr(c.fencing) || string(sp.Tls) != tlsOr(c.tls) || got.Status.Phase != "ready" {
				return fmt.Errorf("API has %+v (phase %s), want %+v", sp, got.Status.Phase, c)
			}
			if (sp.MaintenanceWindow != nil) != (c.window != "") || (sp.MaintenanceWindow != nil && (sp.MaintenanceWindow.DayOfWeek != "sunday" || sp.MaintenanceWindow.StartTime != "02:00" || sp.MaintenanceWindow.DurationMinutes != 120)) {
				return fmt.Errorf("API has maintenance window %+v, want %q", sp.MaintenanceWindow, c.window)
			}
			return nil
		},
	}
}

// replaceStep plans spec and expects the cluster to be replaced (what cannot change in place).
func replaceStep(c clusterSpec) resource.TestStep {
	return resource.TestStep{
		Config:             clusterConfigSpec(c),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
		ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction("strata_cluster.test", plancheck.ResourceActionReplace),
		}},
	}
}

func clusterID(s *terraform.State) (string, error) {
	rs, ok := s.RootModule().Resources["strata_cluster.test"]
	if !ok {
		return "", errors.New("strata_cluster.test not in state")
	}
	return rs.Primary.ID, nil
}

// TestAccCluster: create, a second plan is empty, an in-place update, import, destroy (gone from the API).
func TestAccCluster(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (npm test does, through infra/terraform-provider-strata/test/provider.int.test.ts)")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	api := testAPI(t)
	var firstID string
	inPlace := clusterConfig("tf-acc", 32, false) // without PATCH: a provider-side field changes in place
	inPlaceCheck := resource.TestCheckResourceAttr("strata_cluster.test", "wait_for_ready", "false")
	if patchSupported(t) {
		t.Log("PATCH /v1/clusters/{id} is available: the in-place step changes memory_mb_per_shard")
		inPlace = clusterConfig("tf-acc", 48, true)
		inPlaceCheck = func(s *terraform.State) error {
			id, _ := clusterID(s)
			c, err := api.GetCluster(context.Background(), id)
			if err != nil {
				return err
			}
			if c.Spec.MemoryMbPerShard != 48 {
				return fmt.Errorf("API still has memoryMbPerShard %d", c.Spec.MemoryMbPerShard)
			}
			return nil
		}
	} else {
		t.Log("PATCH /v1/clusters/{id} is not available on this control plane: the in-place step changes wait_for_ready only")
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: clusterConfig("tf-acc", 32, true),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("strata_cluster.test", "status", "ready"),
					resource.TestCheckResourceAttr("strata_cluster.test", "shards", "1"),
					resource.TestCheckResourceAttr("strata_cluster.test", "durability", "none"),
					resource.TestCheckResourceAttr("strata_cluster.test", "engine_version", "7"),
					resource.TestCheckResourceAttr("strata_cluster.test", "tls", "off"),
					resource.TestCheckNoResourceAttr("strata_cluster.test", "ca_certificate"),
					resource.TestCheckResourceAttr("strata_cluster.test", "seeds.#", "1"),
					resource.TestMatchResourceAttr("strata_cluster.test", "connection_uri", regexpMust(`^redis://[^:]+:[^@]+@`+regexp.QuoteMeta(addressPrefix())+`\.\d+:\d+$`)),
					resource.TestCheckResourceAttrSet("strata_cluster.test", "password"),
					resource.TestCheckResourceAttrPair("data.strata_cluster.by_name", "id", "strata_cluster.test", "id"),
					resource.TestCheckResourceAttr("data.strata_cluster.by_name", "memory_mb_per_shard", "32"),
					resource.TestCheckResourceAttr("data.strata_nodes.all", "nodes.#", "2"),
					resource.TestCheckResourceAttr("data.strata_nodes.all", "nodes.0.status", "online"),
					resource.TestCheckResourceAttr("data.strata_nodes.all", "scope", "fleet"),
					resource.TestCheckResourceAttrSet("data.strata_nodes.all", "nodes.0.memory_mb"),
					func(s *terraform.State) error {
						id, err := clusterID(s)
						if err != nil {
							return err
						}
						firstID = id
						c, err := api.GetCluster(context.Background(), id)
						if err != nil {
							return err
						}
						if c.Name != "tf-acc" || c.Spec.ReplicasPerShard != 1 || c.Spec.EvictionPolicy != "allkeys-lru" || c.Status.Phase != "ready" {
							return fmt.Errorf("API disagrees: %+v", c)
						}
						return nil
					},
				),
			},
			{
				// The same configuration again: nothing to do (no drift on computed fields).
				Config:           clusterConfig("tf-acc", 32, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: inPlace,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_cluster.test", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(inPlaceCheck, func(s *terraform.State) error {
					id, _ := clusterID(s)
					if id != firstID {
						return fmt.Errorf("cluster was replaced (%s -> %s), expected an in-place update", firstID, id)
					}
					return nil
				}),
			},
			// Every spec field the API changes in place is updated in place, never by replacement:
			// shards (a reshard) with write fencing turned on, then durability, eviction policy, replicas and
			// fencing off together (fencing needs a replica, so it goes off with the last one).
			inPlaceStep(api, &firstID, clusterSpec{name: "tf-acc", shards: 2, replicas: 1, memory: 48, durability: "none", eviction: "allkeys-lru", engine: "7", fencing: "on", wait: true}),
			inPlaceStep(api, &firstID, clusterSpec{name: "tf-acc", shards: 2, replicas: 0, memory: 48, durability: "aof-everysec", eviction: "allkeys-lfu", engine: "7", wait: true}),
			// A maintenance window is set in place (at once, no operation); import reads it back; removing it is in place too.
			inPlaceStep(api, &firstID, clusterSpec{name: "tf-acc", shards: 2, replicas: 0, memory: 48, durability: "aof-everysec", eviction: "allkeys-lfu", engine: "7", wait: true,
				window: `{ day_of_week = "sunday", start_time = "02:00", duration_minutes = 120 }`}),
			{
				ResourceName:            "strata_cluster.test",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"wait_for_ready", "timeouts"},
			},
			inPlaceStep(api, &firstID, clusterSpec{name: "tf-acc", shards: 2, replicas: 0, memory: 48, durability: "aof-everysec", eviction: "allkeys-lfu", engine: "7", wait: true}),
			// What cannot change in place plans a replacement.
			replaceStep(clusterSpec{name: "tf-acc-renamed", shards: 2, replicas: 0, memory: 48, durability: "aof-everysec", eviction: "allkeys-lfu", engine: "7", wait: true}),
			replaceStep(clusterSpec{name: "tf-acc", shards: 2, replicas: 0, memory: 48, durability: "aof-everysec", eviction: "allkeys-lfu", engine: "valkey-8", wait: true}),
			replaceStep(clusterSpec{name: "tf-acc", shards: 2, replicas: 0, memory: 48, durability: "aof-everysec", eviction: "allkeys-lfu", engine: "7", tls: "required", wait: true}),
		},
		CheckDestroy: func(s *terraform.State) error {
			if firstID == "" {
				return errors.New("no cluster was created")
			}
			_, err := api.GetCluster(context.Background(), firstID)
			if !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("cluster %s still exists after destroy (err %v)", firstID, err)
			}
			return nil
		},
	})
}

// TestAccClusterTlsSwitch: on a valkey-8 cluster tls changes in place (off -> preferred -> required -> off), the
// same cluster throughout, each switch waited for; the CA is given while TLS is served.
func TestAccClusterTlsSwitch(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	api := testAPI(t)
	var firstID string
	spec := func(tls string) clusterSpec {
		return clusterSpec{name: "tf-tls-switch", shards: 1, replicas: 0, memory: 16, durability: "none", eviction: "noeviction", engine: "valkey-8", tls: tls, wait: true}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: clusterConfigSpec(spec("off")),
				Check: func(s *terraform.State) error {
					var err error
					firstID, err = clusterID(s)
					return err
				},
			},
			inPlaceStep(api, &firstID, spec("preferred")),
			{
				// Nothing left to do once both are served; the CA is given for the TLS clients.
				Config:           clusterConfigSpec(spec("preferred")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            resource.TestCheckResourceAttrSet("strata_cluster.test", "ca_certificate"),
			},
			inPlaceStep(api, &firstID, spec("required")),
			inPlaceStep(api, &firstID, spec("off")),
		},
	})
}

// TestAccClusterDeletedOutsideTerraform: a cluster deleted through the API shows as drift (the plan creates it again).
func TestAccClusterDeletedOutsideTerraform(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	api := testAPI(t)
	cfg := `
resource "strata_cluster" "test" {
  name               = "tf-drift"
  shards             = 1
  replicas_per_shard = 0
  memory_mb_per_shard = 16
}
`
	var id string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: func(s *terraform.State) error {
					var err error
					id, err = clusterID(s)
					return err
				},
			},
			{
				PreConfig: func() {
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
					defer cancel()
					if err := api.DeleteCluster(ctx, id); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
					if err := api.WaitClusterGone(ctx, id); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_cluster.test", plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

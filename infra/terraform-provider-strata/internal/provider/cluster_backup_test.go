package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// apiCall sends a request the provider itself never makes (starting a backup, reading events) and decodes the JSON answer.
func apiCall(t *testing.T, method, path string, out any) {
	t.Helper()
	req, _ := http.NewRequest(method, os.Getenv("STRATA_ENDPOINT")+path, strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+os.Getenv("STRATA_TOKEN"))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatal(err)
	}
}

func backupConfig(backup, restore string) string {
	return fmt.Sprintf(`
provider "strata" {}

resource "strata_cluster" "src" {
  name                = "tf-bk"
  shards              = 1
  replicas_per_shard  = 0
  memory_mb_per_shard = 32
  %s
}
%s`, backup, restore)
}

func resourceID(s *terraform.State, name string) string {
	if rs, ok := s.RootModule().Resources[name]; ok {
		return rs.Primary.ID
	}
	return ""
}

// TestAccClusterBackup: a schedule set with the cluster, changed in place and removed; a backup read by the
// strata_backup data source and restored into a cluster of another shard count with restore_from.
func TestAccClusterBackup(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	api := testAPI(t)
	var srcID, backupID string
	schedule := func(want string) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			got, err := api.BackupSchedule(context.Background(), resourceID(s, "strata_cluster.src"))
			if err != nil {
				return err
			}
			b, _ := json.Marshal(got)
			if string(b) != want {
				return fmt.Errorf("API has backup schedule %s, want %s", b, want)
			}
			return nil
		}
	}
	// The backup's id reaches the configuration through TF_VAR_backup_id (a step's Config is fixed before any step runs).
	restored := `
variable "backup_id" {
  type = string
}

data "strata_backup" "b" {
  id = var.backup_id
}

resource "strata_cluster" "restored" {
  name                = "tf-bk-restored"
  shards              = 2
  replicas_per_shard  = 0
  memory_mb_per_shard = 32
  restore_from        = data.strata_backup.b.id
}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: backupConfig(`backup = { interval_hours = 24, keep_last = 3 }`, ""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("strata_cluster.src", "backup.interval_hours", "24"),
					resource.TestCheckResourceAttr("strata_cluster.src", "backup.consistent", "false"),
					schedule(`{"consistent":false,"intervalHours":24,"keepLast":3}`),
					func(s *terraform.State) error { srcID = resourceID(s, "strata_cluster.src"); return nil },
				),
			},
			{
				// A backup taken meanwhile (through the API) is read by the data source and restored into 2 shards;
				// the schedule changes in place.
				PreConfig: func() {
					var started struct{ Backup struct{ ID string } }
					apiCall(t, http.MethodPost, "/v1/clusters/"+srcID+"/backups", &started)
					backupID = started.Backup.ID
					t.Setenv("TF_VAR_backup_id", backupID)
					deadline := time.Now().Add(60 * time.Second)
					for {
						b, err := api.GetBackup(context.Background(), backupID)
						if err != nil {
							t.Fatal(err)
						}
						if b.Status == "completed" {
							break
						}
						if b.Status == "failed" || time.Now().After(deadline) {
							t.Fatalf("backup %s is %s", backupID, b.Status)
						}
						time.Sleep(300 * time.Millisecond)
					}
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_cluster.src", plancheck.ResourceActionUpdate),
				}},
				Config: backupConfig(`backup = { daily_at = "03:30", keep_days = 7, consistent = true }`, restored),
				Check: resource.ComposeAggregateTestCheckFunc(
					schedule(`{"consistent":true,"dailyAt":"03:30","keepDays":7}`),
					resource.TestCheckResourceAttr("data.strata_backup.b", "status", "completed"),
					resource.TestCheckResourceAttr("data.strata_backup.b", "shards", "1"),
					resource.TestCheckResourceAttr("data.strata_backup.b", "keys", "0"),
					resource.TestCheckResourceAttr("data.strata_backup.b", "cluster_name", "tf-bk"),
					resource.TestCheckResourceAttrSet("data.strata_backup.b", "finished_at"),
					resource.TestMatchResourceAttr("data.strata_backup.b", "size_bytes", regexpMust(`^[1-9]\d*$`)),
					resource.TestCheckResourceAttr("strata_cluster.restored", "status", "ready"),
					resource.TestCheckResourceAttr("strata_cluster.restored", "shards", "2"),
					resource.TestCheckResourceAttrPair("strata_cluster.restored", "restore_from", "data.strata_backup.b", "id"),
					func(s *terraform.State) error {
						var events struct {
							Items []struct{ Type, BackupID, Mode string }
						}
						apiCall(t, http.MethodGet, "/v1/clusters/"+resourceID(s, "strata_cluster.restored")+"/events", &events)
						for _, e := range events.Items {
							if e.Type == "restore-completed" && e.BackupID == backupID && e.Mode == "move" {
								return nil
							}
						}
						return fmt.Errorf("no restore-completed event for backup %s: %+v", backupID, events.Items)
					},
				),
			},
			{
				// No backup attribute: the schedule is removed (the backup stays).
				Config: backupConfig("", restored),
				Check: resource.ComposeAggregateTestCheckFunc(
					schedule(`null`),
					resource.TestCheckNoResourceAttr("strata_cluster.src", "backup"),
					resource.TestCheckResourceAttr("data.strata_backup.b", "status", "completed"),
				),
			},
		},
	})
}

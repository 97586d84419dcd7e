package provider

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const databaseUserConfig = `
resource "strata_cluster" "test" {
  name                = "tf-users"
  shards              = 1
  replicas_per_shard  = 0
  memory_mb_per_shard = 16
}

resource "strata_database_user" "reader" {
  cluster_id   = strata_cluster.test.id
  name         = "reader"
  preset       = "read-only"
  key_patterns = ["orders:*"]
}

resource "strata_database_user" "writer" {
  cluster_id = strata_cluster.test.id
  name       = "writer"
  preset     = "read-write-safe"
  password   = "a-password-chosen-in-terraform"
}
`

// redisAuth sends AUTH over RESP to one instance and returns its one-line answer (+OK or -WRONGPASS ...).
func redisAuth(address, user, password string) (string, error) {
	c, err := net.DialTimeout("tcp", address, 3*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if _, err := fmt.Fprintf(c, "*3\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", len(user), user, len(password), password); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line), err
}

// TestAccDatabaseUser: a generated and a given password (both open the user on the engine), import by <cluster_id>/<name>,
// a user deleted outside Terraform is created again, destroy removes it from the engine.
func TestAccDatabaseUser(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	api := testAPI(t)
	var cid, readerPassword, seed string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: databaseUserConfig,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr("strata_database_user.reader", "password", regexpMust(`^[0-9a-f]{64}$`)),
					resource.TestCheckResourceAttr("strata_database_user.writer", "password", "a-password-chosen-in-terraform"),
					resource.TestCheckResourceAttr("strata_database_user.reader", "key_patterns.0", "orders:*"),
					func(s *terraform.State) error {
						var err error
						if cid, err = clusterID(s); err != nil {
							return err
						}
						readerPassword = s.RootModule().Resources["strata_database_user.reader"].Primary.Attributes["password"]
						conn, err := api.Connection(context.Background(), cid)
						if err != nil {
							return err
						}
						seed = conn.Seeds[0]
						// Every instance gets the users within seconds.
						deadline := time.Now().Add(20 * time.Second)
						for {
							a, errA := redisAuth(seed, "reader", readerPassword)
							b, errB := redisAuth(seed, "writer", "a-password-chosen-in-terraform")
							if a == "+OK" && b == "+OK" {
								return nil
							}
							if time.Now().After(deadline) {
								return fmt.Errorf("the users do not open on %s: %q %v, %q %v", seed, a, errA, b, errB)
							}
							time.Sleep(200 * time.Millisecond)
						}
					},
				),
			},
			{
				ResourceName:            "strata_database_user.reader",
				ImportState:             true,
				ImportStateIdFunc:       func(*terraform.State) (string, error) { return cid + "/reader", nil },
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"password"},
			},
			{
				PreConfig: func() {
					if err := api.DeleteDatabaseUser(context.Background(), cid, "reader"); err != nil {
						t.Fatalf("delete outside Terraform: %v", err)
					}
				},
				Config:             databaseUserConfig,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_database_user.reader", plancheck.ResourceActionCreate),
				}},
			},
			{
				Config: databaseUserConfig,
				Check:  resource.TestMatchResourceAttr("strata_database_user.reader", "password", regexpMust(`^[0-9a-f]{64}$`)),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			_, err := api.DatabaseUser(context.Background(), cid, "writer")
			if !errors.Is(err, ErrNotFound) {
				return fmt.Errorf("writer still exists after destroy (err %v)", err)
			}
			return nil
		},
	})
}

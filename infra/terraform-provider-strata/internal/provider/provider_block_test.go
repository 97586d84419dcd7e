package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/strata/terraform-provider-strata/internal/client"
)

// memberToken makes a member user of the stack's organization, signs in as them like the console
// does (session cookie plus CSRF header) and creates a clusters:read API token: a tenant's token,
// not a platform admin's.
func memberToken(t *testing.T, email string) string {
	t.Helper()
	endpoint, admin := os.Getenv("STRATA_ENDPOINT"), os.Getenv("STRATA_TOKEN")
	call := func(method, path string, headers map[string]string, body any) (*http.Response, map[string]any) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, endpoint+path, bytes.NewReader(b))
		req.Header.Set("Content-Type", "application/json")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out map[string]any
		_ = json.NewDecoder(res.Body).Decode(&out)
		if res.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, path, res.StatusCode, out)
		}
		return res, out
	}
	call("POST", "/v1/users", map[string]string{"Authorization": "Bearer " + admin}, map[string]string{"email": email, "password": "correct-horse-battery", "role": "member"})
	res, session := call("POST", "/v1/session", nil, map[string]string{"email": email, "password": "correct-horse-battery"})
	cookie := strings.Split(res.Header.Get("Set-Cookie"), ";")[0]
	_, tok := call("POST", "/v1/tokens", map[string]string{"Cookie": cookie, "X-CSRF-Token": fmt.Sprint(session["csrfToken"])},
		map[string]any{"name": "tf-member-read", "scopes": []string{"clusters:read"}})
	return fmt.Sprint(tok["token"])
}

// TestAccNodesWithMemberTokenInProviderBlock: endpoint and token from the provider block (not the
// environment), a member's clusters:read token: strata_nodes lists the nodes running the
// organization's clusters, without capacity, where it used to crash on the null capacity.
func TestAccNodesWithMemberTokenInProviderBlock(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	token := memberToken(t, "tf-member@nodes.test")
	// A cluster of the organization (made with the stack's admin token), so some node runs its instances.
	admin := testAPI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	created, err := admin.CreateCluster(ctx, client.CreateClusterRequest{Name: "tf-nodes-member", Shards: 1, ReplicasPerShard: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.WaitOperation(ctx, created.Operation.Id.String()); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = admin.DeleteCluster(context.Background(), created.Cluster.Id.String())
		_ = admin.WaitClusterGone(context.Background(), created.Cluster.Id.String())
	}()
	// Endpoint and token from the block; STRATA_TOKEN (the platform admin's) must not be what is used.
	cfg := fmt.Sprintf(`
provider "strata" {
  endpoint = %q
  token    = %q
}

data "strata_nodes" "member" {}
`, os.Getenv("STRATA_ENDPOINT"), token)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{{
			Config: cfg,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("data.strata_nodes.member", "scope", "organization"),
				resource.TestCheckResourceAttrWith("data.strata_nodes.member", "nodes.#", atLeastOne),
				resource.TestCheckResourceAttrWith("data.strata_nodes.member", "nodes.0.instances", atLeastOne),
				resource.TestCheckNoResourceAttr("data.strata_nodes.member", "nodes.0.memory_mb"),
				resource.TestCheckNoResourceAttr("data.strata_nodes.member", "nodes.0.used_memory_mb"),
			),
		}},
	})
}

func atLeastOne(v string) error {
	if v == "" || v == "0" {
		return fmt.Errorf("want at least 1, got %q", v)
	}
	return nil
}

// TestAccProviderBlockMissingToken: with no token in the block or the environment, configuration
// fails with an error naming the attribute, before any request.
func TestAccProviderBlockMissingToken(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	t.Setenv("STRATA_TOKEN", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "strata" {
  endpoint = %q
}

data "strata_nodes" "all" {}
`, os.Getenv("STRATA_ENDPOINT")),
			ExpectError: regexp.MustCompile(`Missing Strata API token`),
		}},
	})
}

package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// TestAccAPIToken: a scoped token is created (secret in state, usable against the API), imported, and revoked on destroy.
func TestAccAPIToken(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	var id, secret string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: `
resource "strata_api_token" "ci" {
  name       = "tf-acc-ci"
  scopes     = ["clusters:read"]
  expires_at = "2030-01-01T00:00:00Z"
}
`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr("strata_api_token.ci", "token", regexpMust(`^stk_`)),
					resource.TestCheckResourceAttr("strata_api_token.ci", "scopes.#", "1"),
					func(s *terraform.State) error {
						rs := s.RootModule().Resources["strata_api_token.ci"]
						id, secret = rs.Primary.ID, rs.Primary.Attributes["token"]
						narrow, err := NewAPI(os.Getenv("STRATA_ENDPOINT"), secret, "test")
						if err != nil {
							return err
						}
						if _, err := narrow.ListClusters(context.Background()); err != nil {
							return fmt.Errorf("the new token cannot read clusters: %w", err)
						}
						var apiErr *APIError
						if _, err := narrow.CreateToken(context.Background(), clientTokenRequest("nope")); !errors.As(err, &apiErr) || apiErr.Status != 403 {
							return fmt.Errorf("a clusters:read token created a token (err %v)", err)
						}
						return nil
					},
				),
			},
			{
				// Imported, expires_at reads back as written in the docs (the API says ...00.000Z): same attributes.
				ResourceName:            "strata_api_token.ci",
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"token"},
			},
			{
				// Another spelling of the same instant is not a change (no replacement, no revoked token).
				Config: `
resource "strata_api_token" "ci" {
  name       = "tf-acc-ci"
  scopes     = ["clusters:read"]
  expires_at = "2030-01-01T01:00:00+01:00"
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_api_token.ci", plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith("strata_api_token.ci", "id", func(v string) error {
						if v != id {
							return fmt.Errorf("token replaced (%s -> %s)", id, v)
						}
						return nil
					}),
				),
			},
			{
				// A real change of expiry replaces the token.
				Config: `
resource "strata_api_token" "ci" {
  name       = "tf-acc-ci"
  scopes     = ["clusters:read"]
  expires_at = "2031-01-01T00:00:00Z"
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_api_token.ci", plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.TestCheckResourceAttr("strata_api_token.ci", "expires_at", "2031-01-01T00:00:00Z"),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			// The first token was revoked when expires_at changed; the last one on destroy.
			narrow, _ := NewAPI(os.Getenv("STRATA_ENDPOINT"), secret, "test")
			_, err := narrow.ListClusters(context.Background())
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.Status != 401 {
				return fmt.Errorf("token %s still works after destroy (err %v)", id, err)
			}
			return nil
		},
	})
}

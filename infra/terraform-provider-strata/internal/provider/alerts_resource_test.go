package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const alertsConfig = `
resource "strata_notification_channel" "hook" {
  type   = "webhook"
  name   = "tf-acc-hook"
  url    = "http://127.0.0.1:9/strata"
  secret = "tf-acc-webhook-secret"
  format = "slack"
}

resource "strata_alert_rule" "memory" {
  metric      = "memory_used_percent"
  threshold   = %s
  for_seconds = 60
  channel_ids = [strata_notification_channel.hook.id]
}
`

// TestAccAlertRuleAndChannel: a webhook channel (secret write-only) and an organization rule naming it; the rule's
// threshold changes in place; both import; an e-mail channel without an SMTP server is refused naming the field.
func TestAccAlertRuleAndChannel(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	// Beside the other acceptance tests on the same stack: each uses names of its own.
	t.Parallel()
	var ruleID string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: protoV6,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(alertsConfig, "80"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("strata_notification_channel.hook", "format", "slack"),
					resource.TestCheckResourceAttr("strata_alert_rule.memory", "threshold", "80"),
					resource.TestCheckResourceAttr("strata_alert_rule.memory", "enabled", "true"),
					resource.TestCheckResourceAttr("strata_alert_rule.memory", "name", "Memory used above 80 %"),
					resource.TestCheckNoResourceAttr("strata_alert_rule.memory", "cluster_id"),
					resource.TestCheckResourceAttrPair("strata_alert_rule.memory", "channel_ids.0", "strata_notification_channel.hook", "id"),
					func(s *terraform.State) error {
						ruleID = s.RootModule().Resources["strata_alert_rule.memory"].Primary.ID
						api, err := NewAPI(os.Getenv("STRATA_ENDPOINT"), os.Getenv("STRATA_TOKEN"), "test")
						if err != nil {
							return err
						}
						ch, err := api.GetNotificationChannel(context.Background(), s.RootModule().Resources["strata_notification_channel.hook"].Primary.ID)
						if err != nil {
							return err
						}
						if !ch.HasSecret || ch.Url == nil || *ch.Url != "http://127.0.0.1:9/strata" {
							return fmt.Errorf("channel as stored: %+v", ch)
						}
						rule, err := api.GetAlertRule(context.Background(), ruleID)
						if err != nil {
							return err
						}
						if rule.ForSeconds != 60 || rule.ClusterId != nil {
							return fmt.Errorf("rule as stored: %+v", rule)
						}
						return nil
					},
				),
			},
			{
				Config: fmt.Sprintf(alertsConfig, "92.5"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("strata_alert_rule.memory", plancheck.ResourceActionUpdate),
					plancheck.ExpectResourceAction("strata_notification_channel.hook", plancheck.ResourceActionNoop),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("strata_alert_rule.memory", "threshold", "92.5"),
					resource.TestCheckResourceAttrWith("strata_alert_rule.memory", "id", func(v string) error {
						if v != ruleID {
							return fmt.Errorf("rule replaced (%s -> %s)", ruleID, v)
						}
						return nil
					}),
				),
			},
			{ResourceName: "strata_alert_rule.memory", ImportState: true, ImportStateVerify: true},
			{ResourceName: "strata_notification_channel.hook", ImportState: true, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"secret"}},
			{
				Config: fmt.Sprintf(alertsConfig, "92.5") + `
resource "strata_notification_channel" "mail" {
  type = "email"
  to   = ["oncall@example.com"]
}
`,
				ExpectError: regexpMust(`smtp_not_configured`),
			},
		},
		CheckDestroy: func(s *terraform.State) error {
			api, err := NewAPI(os.Getenv("STRATA_ENDPOINT"), os.Getenv("STRATA_TOKEN"), "test")
			if err != nil {
				return err
			}
			if _, err := api.GetAlertRule(context.Background(), ruleID); err == nil || !strings.Contains(err.Error(), "not found") {
				return fmt.Errorf("rule %s still there after destroy (%v)", ruleID, err)
			}
			return nil
		},
	})
}

# Memory above 80 % for a minute on one cluster; any failover in the organization's clusters.
resource "strata_alert_rule" "orders_memory" {
  cluster_id  = strata_cluster.orders.id
  metric      = "memory_used_percent"
  threshold   = 80
  for_seconds = 60
  channel_ids = [strata_notification_channel.pager.id, strata_notification_channel.slack.id]
}

resource "strata_alert_rule" "any_failover" {
  metric      = "failover"
  threshold   = 0
  for_seconds = 300
  channel_ids = [strata_notification_channel.oncall.id]
}

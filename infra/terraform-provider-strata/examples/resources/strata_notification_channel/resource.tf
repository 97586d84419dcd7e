# A signed JSON webhook, a Slack webhook and an e-mail channel (e-mail needs the operator's STRATA_SMTP_URL).
resource "strata_notification_channel" "pager" {
  type   = "webhook"
  name   = "pager"
  url    = "https://hooks.example.com/strata"
  secret = var.webhook_secret
}

resource "strata_notification_channel" "slack" {
  type   = "webhook"
  url    = "https://hooks.slack.com/services/T000/B000/XXXX"
  secret = var.webhook_secret
  format = "slack"
}

resource "strata_notification_channel" "oncall" {
  type = "email"
  to   = ["oncall@example.com"]
}

variable "webhook_secret" {
  type      = string
  sensitive = true
}

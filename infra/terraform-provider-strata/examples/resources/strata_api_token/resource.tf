# A read-only token for a monitoring job. The provider's own token needs the admin scope to create tokens.
resource "strata_api_token" "monitoring" {
  name       = "monitoring"
  scopes     = ["clusters:read"]
  expires_at = "2030-01-01T00:00:00Z"
}

output "monitoring_token" {
  value     = strata_api_token.monitoring.token
  sensitive = true
}

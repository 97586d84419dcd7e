resource "strata_database_user" "reports" {
  cluster_id   = strata_cluster.orders.id
  name         = "reports"
  preset       = "read-only"
  key_patterns = ["orders:*"]
}

output "reports_password" {
  value     = strata_database_user.reports.password
  sensitive = true
}

resource "strata_cluster" "billing" {
  name                = "billing"
  shards              = 3
  replicas_per_shard  = 1
  tls                 = "required"
  tls_client_auth     = "required"
}

resource "strata_client_certificate" "api" {
  cluster_id    = strata_cluster.billing.id
  name          = "billing-api"
  validity_days = 90
}

# Files the application reads beside ca.pem (redis-cli --cert client.crt --key client.key).
resource "local_sensitive_file" "client_key" {
  filename        = "${path.module}/client.key"
  content         = strata_client_certificate.api.private_key_pem
  file_permission = "0600"
}

resource "local_file" "client_crt" {
  filename = "${path.module}/client.crt"
  content  = strata_client_certificate.api.certificate_pem
}

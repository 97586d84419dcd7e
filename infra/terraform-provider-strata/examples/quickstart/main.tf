# A complete configuration: run it against `npm start` (see the README's Automate section).
terraform {
  required_providers {
    strata = {
      source = "strata/strata"
    }
  }
}

# Endpoint and token from STRATA_ENDPOINT and STRATA_TOKEN.
provider "strata" {}

resource "strata_cluster" "quickstart" {
  name                = "tf-quickstart"
  shards              = 2
  replicas_per_shard  = 1
  memory_mb_per_shard = 64
  eviction_policy     = "allkeys-lru"
}

resource "strata_api_token" "app" {
  name   = "quickstart-app"
  scopes = ["clusters:read"]
}

data "strata_nodes" "all" {
  depends_on = [strata_cluster.quickstart]
}

output "seeds" {
  value = strata_cluster.quickstart.seeds
}

output "status" {
  value = strata_cluster.quickstart.status
}

output "nodes" {
  value = [for n in data.strata_nodes.all.nodes : "${n.name} ${n.status} ${n.used_memory_mb}/${n.memory_mb} MB"]
}

output "connection_uri" {
  value     = strata_cluster.quickstart.connection_uri
  sensitive = true
}

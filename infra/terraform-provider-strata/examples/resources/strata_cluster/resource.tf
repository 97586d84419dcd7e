resource "strata_cluster" "cache" {
  name                = "cache"
  shards              = 3
  replicas_per_shard  = 1
  memory_mb_per_shard = 256
  durability          = "aof-everysec"
  eviction_policy     = "allkeys-lru"

  timeouts = {
    create = "20m"
    update = "60m"
  }
}

output "cache_seeds" {
  value = strata_cluster.cache.seeds
}

output "cache_uri" {
  value     = strata_cluster.cache.connection_uri
  sensitive = true
}

data "strata_cluster" "cache" {
  name = "cache"
}

output "cache_status" {
  value = data.strata_cluster.cache.status
}

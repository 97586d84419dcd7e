data "strata_nodes" "all" {}

output "free_memory_mb" {
  value = { for n in data.strata_nodes.all.nodes : n.name => n.memory_mb - n.used_memory_mb }
}

data "strata_nodes" "all" {}

# Platform administrators only: the capacity is null for other tokens (scope = "organization").
output "free_memory_mb" {
  value = { for n in data.strata_nodes.all.nodes : n.name => n.memory_mb - n.used_memory_mb if n.memory_mb != null }
}

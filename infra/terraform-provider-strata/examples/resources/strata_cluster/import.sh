# Import an existing cluster by its id (GET /v1/clusters lists them).
terraform import strata_cluster.cache 3f0c5a52-9a3e-4a8e-9a57-2f8e8c1b7d10

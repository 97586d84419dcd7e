terraform {
  required_providers {
    strata = {
      source = "strata/strata"
    }
  }
}

# Or leave both out and set STRATA_ENDPOINT and STRATA_TOKEN.
provider "strata" {
  endpoint = "http://127.0.0.1:8080"
  token    = var.strata_token
}

variable "strata_token" {
  type      = string
  sensitive = true
}

# Import by id (GET /v1/tokens); the secret is not recoverable, so `token` stays null.
terraform import strata_api_token.monitoring 0d5c8f7e-6f1e-4c7a-8d63-52f3e0c9a1b4

# Import by <cluster_id>/<certificate_id>; the key is not recoverable, so `private_key_pem` and `certificate_pem` stay null.
terraform import strata_client_certificate.api 0d5c8f7e-6f1e-4c7a-8d63-52f3e0c9a1b4/5b7e0c1a-2f4d-4e8a-9c3b-7d1e6f2a8b90

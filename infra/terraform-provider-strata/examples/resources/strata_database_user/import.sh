# Import by <cluster_id>/<name>; the password is not recoverable, so `password` stays null.
terraform import strata_database_user.reports 0d5c8f7e-6f1e-4c7a-8d63-52f3e0c9a1b4/reports

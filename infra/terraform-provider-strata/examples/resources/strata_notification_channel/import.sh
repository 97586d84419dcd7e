# Import by id; the secret is write-only in the API, so set `secret` in the configuration as it was.
terraform import strata_notification_channel.pager 2c1a9a53-4f5e-4bb0-9d0e-1c4f3f0b7d21

terraform import strata_alert_rule.orders_memory 6e0f6b4c-2f3b-4c21-9a8e-7d3c1b2a4f10

-- While a cluster's instances serve both protocols (an in-place TLS switch), the protocol on their second ports has a
-- stable endpoint of its own: a second port on the endpoint host, from the same range as endpoint ports, held until
-- one protocol is left.
ALTER TABLE clusters ADD COLUMN endpoint_second_port integer;

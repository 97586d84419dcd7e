-- When a TLS switch moves the protocol of the second ports to the instances' own ports, the second endpoint stays
-- open a while longer (until endpoint_linger_until), now forwarding to the own ports: clients that connected through
-- it reconnect to it and learn the instances' own ports, instead of losing every address they knew.
ALTER TABLE clusters ADD COLUMN endpoint_linger_port integer;
ALTER TABLE clusters ADD COLUMN endpoint_linger_until timestamptz;

-- A stable per-cluster endpoint (issue 7): one port per cluster on the
-- endpoint host, served by whichever agents are alive, forwarding to live
-- instances. Assigned at creation; older clusters get one at start.
ALTER TABLE clusters ADD COLUMN endpoint_port integer;
CREATE UNIQUE INDEX clusters_endpoint_port_key ON clusters (endpoint_port) WHERE endpoint_port IS NOT NULL;

-- In-place TLS switches (valkey-8). What a cluster's instances serve now, their own port's protocol first
-- (plain, plain+tls, tls+plain, tls), and whether its cluster bus speaks TLS (kept from its create: a bus cannot
-- change protocol in place). An instance's own layout differs from its cluster's only mid-stage (its part of the
-- stage done, others' not yet); its second port is held while both protocols are served.
ALTER TABLE clusters
  ADD COLUMN tls_layout text NOT NULL DEFAULT 'plain' CHECK (tls_layout IN ('plain', 'plain+tls', 'tls+plain', 'tls')),
  ADD COLUMN tls_bus boolean NOT NULL DEFAULT false;
UPDATE clusters SET tls_layout = 'tls', tls_bus = true WHERE spec->>'tls' = 'required';
ALTER TABLE instances
  ADD COLUMN second_port integer,
  ADD COLUMN tls_layout text CHECK (tls_layout IN ('plain', 'plain+tls', 'tls+plain', 'tls'));

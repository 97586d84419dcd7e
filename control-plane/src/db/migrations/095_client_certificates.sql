-- Client certificates (mTLS) issued by a TLS cluster's CA: what each is for, its serial and expiry.
-- The private key is handed out once and never stored.
CREATE TABLE client_certificates (
  id uuid PRIMARY KEY,
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  name text NOT NULL,
  serial_number text NOT NULL CHECK (serial_number ~ '^[0-9A-F]+$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX client_certificates_cluster ON client_certificates (cluster_id, created_at);

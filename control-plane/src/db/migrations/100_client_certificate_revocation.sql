-- Client certificates can be revoked: each is signed by a one-off issuer whose certificate (public, no key kept) the
-- cluster's instances trust while the client certificate is live. NULL issuer: signed by the cluster's CA (not revocable).
ALTER TABLE client_certificates
  ADD COLUMN issuer_certificate text,
  ADD COLUMN revoked_at timestamptz;

-- Issue 11: roles bound users and their tokens; tokens carry scopes, an expiry, last use and revocation;
-- an audit log records who changed what.
ALTER TABLE users ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('viewer', 'member', 'admin'));
UPDATE users SET role = 'admin' WHERE is_admin;

-- Existing tokens keep working as before: full scopes, no owner (an owner-less token acts as an organization admin).
ALTER TABLE api_tokens ADD COLUMN scopes text[] NOT NULL DEFAULT '{admin}';
ALTER TABLE api_tokens ADD COLUMN user_id uuid REFERENCES users(id) ON DELETE CASCADE;
ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;
ALTER TABLE api_tokens ADD COLUMN last_used_at timestamptz;
ALTER TABLE api_tokens ADD COLUMN revoked_at timestamptz;
CREATE INDEX api_tokens_org ON api_tokens (organization_id, created_at DESC);

CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_type text NOT NULL CHECK (actor_type IN ('user', 'token', 'operator')),
  actor_id text,
  actor_name text NOT NULL,
  action text NOT NULL,
  target_id text,
  status integer NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_org ON audit_log (organization_id, id DESC);

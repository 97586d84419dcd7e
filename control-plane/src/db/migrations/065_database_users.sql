-- Database users of a cluster: extra Redis ACL users with rights from a preset and key/channel
-- patterns. Only SHA-256 hashes of passwords are kept (Redis ACL takes `#<sha256hex>`); during a
-- rotation's grace period the previous hash stays valid until previous_expires_at.
CREATE TABLE database_users (
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  name text NOT NULL,
  preset text NOT NULL CHECK (preset IN ('read-only', 'read-write', 'read-write-safe')),
  key_patterns text[] NOT NULL DEFAULT '{}',
  channel_patterns text[] NOT NULL DEFAULT '{}',
  password_sha256 text NOT NULL CHECK (password_sha256 ~ '^[0-9a-f]{64}$'),
  previous_password_sha256 text CHECK (previous_password_sha256 ~ '^[0-9a-f]{64}$'),
  previous_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  password_rotated_at timestamptz,
  PRIMARY KEY (cluster_id, name)
);

-- Bumped by every change of a cluster's users: the identity of the sync it asks of every instance.
ALTER TABLE clusters ADD COLUMN users_generation bigint NOT NULL DEFAULT 0;

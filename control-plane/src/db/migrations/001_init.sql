CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_tokens (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  is_platform_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE join_tokens (
  token_hash text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE nodes (
  id uuid PRIMARY KEY,
  name text NOT NULL UNIQUE,
  address text NOT NULL,
  memory_mb integer NOT NULL,
  credential_hash text NOT NULL UNIQUE,
  agent_version text,
  last_heartbeat_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE clusters (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  name text NOT NULL,
  spec jsonb NOT NULL,
  generation integer NOT NULL DEFAULT 1,
  phase text NOT NULL,
  conditions jsonb NOT NULL DEFAULT '[]',
  secrets_enc text NOT NULL,
  needs_reconcile boolean NOT NULL DEFAULT true,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, name)
);

CREATE TABLE instances (
  id uuid PRIMARY KEY,
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  shard_index integer NOT NULL,
  role text NOT NULL CHECK (role IN ('primary', 'replica')),
  replica_index integer NOT NULL,
  node_id uuid NOT NULL REFERENCES nodes(id),
  port integer NOT NULL,
  memory_mb integer NOT NULL,
  UNIQUE (node_id, port)
);

CREATE TABLE operations (
  id uuid PRIMARY KEY,
  cluster_id uuid NOT NULL,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  kind text NOT NULL,
  state text NOT NULL,
  progress real NOT NULL DEFAULT 0,
  steps jsonb NOT NULL,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX operations_cluster_idx ON operations (cluster_id, created_at DESC);

CREATE TABLE tasks (
  id uuid PRIMARY KEY,
  node_id uuid NOT NULL REFERENCES nodes(id),
  cluster_id uuid NOT NULL,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  dedupe_key text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'leased', 'succeeded', 'failed')),
  attempt integer NOT NULL DEFAULT 0,
  lease_until timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tasks_open_dedupe ON tasks (dedupe_key) WHERE state IN ('pending', 'leased');
CREATE INDEX tasks_node_open ON tasks (node_id, created_at) WHERE state IN ('pending', 'leased');

-- Notification channels: a webhook (secret sealed with the master key) or e-mail recipients.
CREATE TABLE notification_channels (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  type text NOT NULL CHECK (type IN ('webhook', 'email')),
  name text NOT NULL,
  url text,
  format text CHECK (format IN ('json', 'slack')),
  secret_enc text,
  email_to text[],
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_channels_by_org ON notification_channels (organization_id, created_at);

-- Alert rules: of one cluster, or of the organization (cluster_id NULL: every cluster of it).
CREATE TABLE alert_rules (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  cluster_id uuid REFERENCES clusters(id) ON DELETE CASCADE,
  name text NOT NULL,
  metric text NOT NULL,
  threshold double precision NOT NULL CHECK (threshold >= 0),
  for_seconds integer NOT NULL CHECK (for_seconds >= 1),
  channel_ids uuid[] NOT NULL DEFAULT '{}',
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_rules_by_org ON alert_rules (organization_id, created_at);

-- Alerts: one row per firing of a rule on a cluster, resolved later (the history). At most one firing per rule and cluster.
CREATE TABLE alerts (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  rule_id uuid NOT NULL,
  rule_name text NOT NULL,
  metric text NOT NULL,
  threshold double precision NOT NULL,
  for_seconds integer NOT NULL,
  cluster_id uuid NOT NULL,
  cluster_name text NOT NULL,
  state text NOT NULL CHECK (state IN ('firing', 'resolved')),
  value double precision NOT NULL,
  started_at timestamptz NOT NULL,
  resolved_at timestamptz
);
CREATE UNIQUE INDEX alerts_one_firing ON alerts (rule_id, cluster_id) WHERE state = 'firing';
CREATE INDEX alerts_by_org ON alerts (organization_id, started_at DESC);

-- Deliveries: what a channel is (or was) told; the queue the dispatcher works from, and the delivery log.
CREATE TABLE notification_deliveries (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  channel_id uuid NOT NULL REFERENCES notification_channels(id) ON DELETE CASCADE,
  alert_id uuid,
  event text NOT NULL CHECK (event IN ('firing', 'resolved', 'test')),
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts jsonb NOT NULL DEFAULT '[]',
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX notification_deliveries_by_channel ON notification_deliveries (channel_id, created_at DESC);

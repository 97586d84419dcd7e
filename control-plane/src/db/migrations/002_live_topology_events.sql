-- Live topology, generations, guarded reconcile requests, typed tasks with
-- progress/results, and cluster events (issue 6).

ALTER TABLE clusters ADD COLUMN observed_generation integer NOT NULL DEFAULT 0;
-- Bumped by every request for a reconcile pass; a pass clears needs_reconcile
-- only when the counter did not move since it began.
ALTER TABLE clusters ADD COLUMN reconcile_requests bigint NOT NULL DEFAULT 0;

-- `role` becomes the live role (updated from observation on failover);
-- `preferred_role` is what placement chose (primaries spread over nodes).
ALTER TABLE instances ADD COLUMN preferred_role text;
UPDATE instances SET preferred_role = role;
ALTER TABLE instances ALTER COLUMN preferred_role SET NOT NULL;
ALTER TABLE instances ADD CONSTRAINT instances_preferred_role_check CHECK (preferred_role IN ('primary', 'replica'));
-- The Redis node id the instance last reported (CLUSTER MYID).
ALTER TABLE instances ADD COLUMN engine_id text;
-- Its config epoch as last observed: a held former primary may restart only
-- once another member serves its slots with a higher epoch.
ALTER TABLE instances ADD COLUMN config_epoch bigint;

-- Slot ranges per shard (resharding changes them; today they follow the plan).
CREATE TABLE shards (
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  shard_index integer NOT NULL,
  slots jsonb NOT NULL,
  PRIMARY KEY (cluster_id, shard_index)
);

-- Tasks belong to an operation (or to healing, operation_id NULL); dedupe keys are per owner.
ALTER TABLE tasks ADD COLUMN operation_id uuid;
ALTER TABLE tasks ADD COLUMN progress real;
ALTER TABLE tasks ADD COLUMN progress_detail text;
ALTER TABLE tasks ADD COLUMN result jsonb;
DROP INDEX tasks_open_dedupe;
CREATE UNIQUE INDEX tasks_open_dedupe ON tasks (cluster_id, (coalesce(operation_id::text, '')), dedupe_key) WHERE state IN ('pending', 'leased');

CREATE TABLE cluster_events (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  type text NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  body jsonb NOT NULL,
  -- the same happening is recorded once, however many passes see it
  dedupe_key text UNIQUE
);
CREATE INDEX cluster_events_cluster_idx ON cluster_events (cluster_id, seq DESC);

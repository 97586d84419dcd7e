-- Online topology changes (issue 8): the plan an update-cluster or
-- switchover operation carries out, the slot migration's live progress,
-- and the user's pause / cancel.
ALTER TABLE operations ADD COLUMN plan jsonb;
ALTER TABLE operations ADD COLUMN migration jsonb;
ALTER TABLE operations ADD COLUMN paused boolean NOT NULL DEFAULT false;
ALTER TABLE operations ADD COLUMN cancel_requested boolean NOT NULL DEFAULT false;
-- Structured progress an agent reports with a task (e.g. slots and keys moved).
ALTER TABLE tasks ADD COLUMN progress_stats jsonb;

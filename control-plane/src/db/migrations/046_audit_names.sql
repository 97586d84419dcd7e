-- The audit log names what an entry acted on as it was then (a deleted cluster keeps its name in the log),
-- marks dry runs (a previewed change is not a change), and is filtered by time.
ALTER TABLE audit_log ADD COLUMN target_name text;
ALTER TABLE audit_log ADD COLUMN dry_run boolean NOT NULL DEFAULT false;
CREATE INDEX audit_log_org_at ON audit_log (organization_id, at DESC);

-- Uploads: a backup made of an RDB file a user uploaded (POST /v1/backups/upload). Like an import it has no cluster
-- (cluster_id = id). The control plane streaming it touches upload_alive_at every few seconds; an upload whose
-- process died (no touch for a while) is failed and its objects removed by the backup coordinator.
ALTER TABLE backups DROP CONSTRAINT IF EXISTS backups_trigger_check;
ALTER TABLE backups ADD CONSTRAINT backups_trigger_check CHECK (trigger IN ('manual', 'schedule', 'import', 'upload'));
ALTER TABLE backups ADD COLUMN upload_alive_at timestamptz;

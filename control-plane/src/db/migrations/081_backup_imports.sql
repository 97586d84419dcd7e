-- Imports: a backup fetched from a running Redis or Redis Cluster the user named by URL. Its tasks are owned by
-- the backup's own id (cluster_id = id: there is no cluster); `import_source` is the source without its password
-- (url, username, each primary with its slots), `import_secret_enc` the password sealed with the master key.
ALTER TABLE backups DROP CONSTRAINT IF EXISTS backups_trigger_check;
ALTER TABLE backups ADD CONSTRAINT backups_trigger_check CHECK (trigger IN ('manual', 'schedule', 'import'));
ALTER TABLE backups ADD COLUMN import_source jsonb, ADD COLUMN import_secret_enc text;

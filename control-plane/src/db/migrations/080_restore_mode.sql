-- How a restore loads its backup: 'seed' (each file seeds the new primary of its shard at its first start)
-- or 'move' (other layouts: each file is loaded into a temporary engine and its keys are moved by slot).
ALTER TABLE cluster_restores ADD COLUMN mode text NOT NULL DEFAULT 'seed' CHECK (mode IN ('seed', 'move'));

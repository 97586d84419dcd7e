-- Node loss (issue 7): an instance on a node that went down is replaced on
-- another node; the lost one is kept, marked, until its node forgets it.
ALTER TABLE instances ADD COLUMN lost_at timestamptz;
-- CLUSTER FORGET of its Redis node id done on every remaining member.
ALTER TABLE instances ADD COLUMN forgotten_at timestamptz;
CREATE INDEX instances_lost_idx ON instances (cluster_id) WHERE lost_at IS NOT NULL;
-- Drain: a node taken out of placement; its instances move elsewhere.
ALTER TABLE nodes ADD COLUMN draining boolean NOT NULL DEFAULT false;

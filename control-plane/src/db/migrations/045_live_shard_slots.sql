-- A shard's slot ranges change the topology a console shows (a reshard records them as it ends, a shard
-- added or removed): tell the live stream, as instance changes do (040).
CREATE OR REPLACE FUNCTION strata_notify_shard() RETURNS trigger AS $$
DECLARE
  row_cluster uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.cluster_id ELSE NEW.cluster_id END;
  org uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.slots IS NOT DISTINCT FROM OLD.slots THEN
    RETURN NULL;
  END IF;
  SELECT organization_id INTO org FROM clusters WHERE id = row_cluster;
  IF org IS NOT NULL THEN
    PERFORM pg_notify('strata_live', json_build_object('k', 'topology', 'org', org, 'cluster', row_cluster)::text);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER shards_live AFTER INSERT OR UPDATE OR DELETE ON shards
  FOR EACH ROW EXECUTE FUNCTION strata_notify_shard();

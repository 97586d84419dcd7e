-- Live changes (issue 12): every change a console shows is announced on the
-- `strata_live` channel at commit, whichever code path made it. The payload
-- names the row only; the control plane reads it and fans it out to the
-- organization's event streams (GET /v1/events/stream).
CREATE OR REPLACE FUNCTION strata_notify_cluster() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('strata_live', json_build_object('k', 'cluster-deleted', 'id', OLD.id, 'org', OLD.organization_id)::text);
    RETURN OLD;
  END IF;
  -- Lease, reconcile bookkeeping and secrets churn without anything to show.
  IF TG_OP = 'UPDATE' AND NEW.phase IS NOT DISTINCT FROM OLD.phase AND NEW.conditions IS NOT DISTINCT FROM OLD.conditions
     AND NEW.spec IS NOT DISTINCT FROM OLD.spec AND NEW.generation IS NOT DISTINCT FROM OLD.generation
     AND NEW.observed_generation IS NOT DISTINCT FROM OLD.observed_generation AND NEW.name IS NOT DISTINCT FROM OLD.name THEN
    RETURN NEW;
  END IF;
  PERFORM pg_notify('strata_live', json_build_object('k', 'cluster', 'id', NEW.id, 'org', NEW.organization_id)::text);
  RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER clusters_live AFTER INSERT OR UPDATE OR DELETE ON clusters
  FOR EACH ROW EXECUTE FUNCTION strata_notify_cluster();

CREATE OR REPLACE FUNCTION strata_notify_operation() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('strata_live', json_build_object('k', 'operation', 'id', NEW.id, 'org', NEW.organization_id, 'cluster', NEW.cluster_id)::text);
  RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER operations_live AFTER INSERT OR UPDATE ON operations
  FOR EACH ROW EXECUTE FUNCTION strata_notify_operation();

CREATE OR REPLACE FUNCTION strata_notify_cluster_event() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('strata_live', json_build_object('k', 'cluster-activity', 'id', NEW.id, 'org', NEW.organization_id, 'cluster', NEW.cluster_id, 'type', NEW.type)::text);
  RETURN NEW;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER cluster_events_live AFTER INSERT ON cluster_events
  FOR EACH ROW EXECUTE FUNCTION strata_notify_cluster_event();

-- Roles, placement and replacements change the topology a console shows.
CREATE OR REPLACE FUNCTION strata_notify_instance() RETURNS trigger AS $$
DECLARE
  row_cluster uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.cluster_id ELSE NEW.cluster_id END;
  org uuid;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.role IS NOT DISTINCT FROM OLD.role AND NEW.preferred_role IS NOT DISTINCT FROM OLD.preferred_role
     AND NEW.node_id IS NOT DISTINCT FROM OLD.node_id AND NEW.port IS NOT DISTINCT FROM OLD.port
     AND NEW.lost_at IS NOT DISTINCT FROM OLD.lost_at THEN
    RETURN NEW;
  END IF;
  SELECT organization_id INTO org FROM clusters WHERE id = row_cluster;
  IF org IS NOT NULL THEN
    PERFORM pg_notify('strata_live', json_build_object('k', 'topology', 'org', org, 'cluster', row_cluster)::text);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;

CREATE TRIGGER instances_live AFTER INSERT OR UPDATE OR DELETE ON instances
  FOR EACH ROW EXECUTE FUNCTION strata_notify_instance();

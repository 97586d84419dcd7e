import { Router } from 'express';
import {
  ClusterEventQuery, CreateClusterRequest, SwitchoverRequest, UpdateClusterQuery, UpdateClusterRequest, type ClusterUpdateAccepted, type UpdateClusterDryRun, type ClusterEventList, type Connection, type InstanceHealth, type Topology, type ClusterWithOperation,
} from '@strata/api';
import { planSlots } from '@strata/engine';
import { parseBody, parseUuid } from '../http/validate';
import { conflict, notFound } from '../errors';
import { requireScope } from '../auth/permissions';
import type { ClusterService } from '../services/cluster.service';
import type { TopologyService } from '../services/topology.service';
import { openSecrets } from '../services/cluster-secrets';
import { publicCluster, type ClusterRow, type ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import { publicOperation, type OperationStore } from '../stores/operation.store';
import type { EventStore } from '../stores/event.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import type { EndpointDirectory } from '../services/endpoint-directory';

export interface ClusterRoutesDeps {
  service: ClusterService;
  topology: TopologyService;
  clusters: ClusterStore;
  nodes: NodeStore;
  operations: OperationStore;
  events: EventStore;
  observed: ObservedState;
  box: SecretBox;
  endpoints: EndpointDirectory;
}

export function clusterRoutes(d: ClusterRoutesDeps): Router {
  const r = Router();

  const load = async (orgId: string, rawId: string | string[] | undefined): Promise<ClusterRow> => {
    const cluster = await d.clusters.get(parseUuid(rawId, 'Cluster'), orgId);
    if (!cluster) throw notFound('Cluster');
    return cluster;
  };

  r.post('/', requireScope('clusters:write'), async (req, res) => {
    const body = parseBody(CreateClusterRequest, req.body);
    const { cluster, operation } = await d.service.create(req.principal!.organizationId, body);
    const out: ClusterWithOperation = { cluster: publicCluster(cluster), operation: publicOperation(operation) };
    res.status(202).location(`/v1/operations/${operation.id}`).json(out);
  });

  r.get('/', requireScope('clusters:read'), async (req, res) => {
    res.json({ items: (await d.clusters.list(req.principal!.organizationId)).map(publicCluster) });
  });

  r.get('/:id', requireScope('clusters:read'), async (req, res) => {
    res.json(publicCluster(await load(req.principal!.organizationId, req.params.id)));
  });

  r.patch('/:id', requireScope('clusters:write'), async (req, res) => {
    const id = parseUuid(req.params.id, 'Cluster');
    const q = parseBody(UpdateClusterQuery, req.query);
    const body = parseBody(UpdateClusterRequest, req.body);
    const dryRun = q.dryRun === 'true';
    const { plan, cluster, operation } = await d.topology.update(req.principal!.organizationId, id, body, dryRun);
    if (!operation) {
      const out: UpdateClusterDryRun = { dryRun: true, plan };
      res.json(out);
      return;
    }
    const out: ClusterUpdateAccepted = { cluster: publicCluster(cluster), operation: publicOperation(operation), plan };
    res.status(202).location(`/v1/operations/${operation.id}`).json(out);
  });

  r.post('/:id/shards/:index/switchover', requireScope('clusters:write'), async (req, res) => {
    const id = parseUuid(req.params.id, 'Cluster');
    const rawIndex = String(req.params.index ?? '');
    const index = /^\d+$/.test(rawIndex) ? Number(rawIndex) : -1;
    const body = parseBody(SwitchoverRequest, req.body);
    const { cluster, operation } = await d.topology.switchover(req.principal!.organizationId, id, index, body);
    res.status(202).location(`/v1/operations/${operation.id}`).json({ cluster: publicCluster(cluster), operation: publicOperation(operation) });
  });

  r.delete('/:id', requireScope('clusters:write'), async (req, res) => {
    const { cluster, operation } = await d.service.delete(req.principal!.organizationId, parseUuid(req.params.id, 'Cluster'));
    res.status(202).location(`/v1/operations/${operation.id}`).json({ cluster: publicCluster(cluster), operation: publicOperation(operation) });
  });

  r.get('/:id/operations', requireScope('clusters:read'), async (req, res) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    res.json({ items: (await d.operations.listForCluster(cluster.id, cluster.organizationId)).map(publicOperation) });
  });

  r.get('/:id/events', requireScope('clusters:read'), async (req, res) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    const q = parseBody(ClusterEventQuery, req.query);
    const out: ClusterEventList = await d.events.list(cluster.id, cluster.organizationId, { limit: q.limit, before: q.before });
    res.json(out);
  });

  r.get('/:id/topology', requireScope('clusters:read'), async (req, res) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    const [instances, nodes, stored] = await Promise.all([d.clusters.instances(cluster.id), d.nodes.list(), d.clusters.shards(cluster.id)]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const slots = stored.length ? stored.map((s) => s.slots) : planSlots(cluster.spec.shards).map((range) => [range]);
    const topology: Topology = {
      clusterId: cluster.id,
      shards: slots.map((ranges, index) => ({
        index,
        slots: ranges,
        instances: instances.filter((i) => i.shardIndex === index).map((i) => {
          const o = d.observed.instance(i.id, i.nodeId);
          const node = byId.get(i.nodeId);
          const health: InstanceHealth = !o ? 'unknown' : o.state === 'running' ? (o.cluster?.state === 'ok' && o.cluster.role === i.role ? 'healthy' : 'starting') : o.state === 'starting' ? 'starting' : 'down';
          return {
            id: i.id, nodeId: i.nodeId, nodeName: node?.name ?? 'unknown', address: `${node?.address ?? 'unknown'}:${i.port}`,
            role: i.role, preferredRole: i.preferredRole, observedRole: o?.cluster?.role ?? null, health,
            sync: o?.cluster?.syncInProgress ? { receivedBytes: o.cluster.syncReadBytes ?? 0, totalBytes: o.cluster.syncTotalBytes ?? null } : null,
          };
        }),
      })),
    };
    res.json(topology);
  });

  r.get('/:id/connection', requireScope('clusters:read'), async (req, res) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    if (cluster.status.phase === 'deleting') throw conflict('invalid_state', 'The cluster is being deleted.');
    const [instances, nodes] = await Promise.all([d.clusters.instances(cluster.id), d.nodes.list()]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const seeds = instances.filter((i) => i.role === 'primary').map((i) => `${byId.get(i.nodeId)?.address}:${i.port}`);
    const s = openSecrets(d.box, cluster.secretsEnc);
    const endpoint = d.endpoints.forCluster(cluster, nodes);
    const conn: Connection = {
      // The stable endpoint when there is one: it outlives the loss of any node; a primary's address does not.
      uri: `redis://${encodeURIComponent(s.customerUser)}:${encodeURIComponent(s.customerPassword)}@${endpoint ? `${endpoint.host}:${endpoint.port}` : seeds[0]}`,
      seeds,
      username: s.customerUser,
      password: s.customerPassword,
      endpoint,
    };
    res.set('Cache-Control', 'no-store').json(conn);
  });

  return r;
}

import { Router } from 'express';
import {
  type ClusterUpdateAccepted, type UpdateClusterDryRun, type UpdateClusterApplied, type ClusterEventList, type Connection, type InstanceHealth, type Topology, type ClusterWithOperation,
} from '@strata/api';
import { planSlots } from '@strata/engine';
import { parseUuid } from '../http/validate';
import { mountOperation, mountRaw } from '../http/operation-router';
import { conflict, notFound, validationFailed } from '../errors';
import type { Db } from '../db/tx';
import type { ClusterService } from '../services/cluster.service';
import type { TopologyService } from '../services/topology.service';
import { openSecrets, trustedCas } from '../services/cluster-secrets';
import { publicCluster, type ClusterRow, type ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import { publicOperation, type OperationStore } from '../stores/operation.store';
import type { EventStore } from '../stores/event.store';
import type { ObservedState } from '../observed/observed-state';
import { healthyMembers } from '../observed/instance-health';
import type { SecretBox } from '../crypto/secret-box';
import type { EndpointDirectory } from '../services/endpoint-directory';
import type { BackupService } from '../backups/backup.service';
import type { BackupStore } from '../backups/backup.store';
import { withDefaults, type RestoreRecord } from '../services/cluster.service';

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
  /** Checks a backup before a cluster is restored from it (absent: restoreFrom is refused). */
  restores?: Pick<BackupService, 'prepareRestore'>;
  backupStore?: Pick<BackupStore, 'insertRestore'>;
}

const BASE = '/v1/clusters';

export function clusterRoutes(d: ClusterRoutesDeps): Router {
  const r = Router();

  const load = async (orgId: string, rawId: string | string[] | undefined): Promise<ClusterRow> => {
    const cluster = await d.clusters.get(parseUuid(rawId, 'Cluster'), orgId);
    if (!cluster) throw notFound('Cluster');
    return cluster;
  };

  mountOperation(r, BASE, 'createCluster', async ({ req, res, body }) => {
    const orgId = req.principal!.organizationId;
    let restore: RestoreRecord | undefined;
    if (body.restoreFrom) {
      if (!d.restores || !d.backupStore) throw validationFailed([{ field: 'restoreFrom', message: 'restores are not available on this control plane' }]);
      // Every check (the backup's files included) before anything is created.
      const r = await d.restores.prepareRestore(orgId, { ...body, restoreFrom: body.restoreFrom }, withDefaults(body).memoryMbPerShard);
      const store = d.backupStore;
      restore = { movesKeys: r.mode === 'move', record: (clusterId, db) => store.insertRestore(clusterId, r.backupId, r.files, r.mode, db) };
    }
    const { cluster, operation } = await d.service.create(orgId, body, restore);
    const out: ClusterWithOperation = { cluster: publicCluster(cluster), operation: publicOperation(operation) };
    res.location(`/v1/operations/${operation.id}`);
    return out;
  });

  mountOperation(r, BASE, 'listClusters', async ({ req }) => ({ items: (await d.clusters.list(req.principal!.organizationId)).map(publicCluster) }));

  mountOperation(r, BASE, 'getCluster', async ({ req }) => publicCluster(await load(req.principal!.organizationId, req.params.id)));

  // 200 for a dry run, 202 for a change: the handler answers itself.
  mountRaw(r, BASE, 'updateCluster', async (input) => {
    const { req, res } = input;
    const id = parseUuid(req.params.id, 'Cluster');
    const q = input.query;
    const body = input.body;
    const dryRun = q.dryRun === 'true';
    if (!dryRun && Object.entries(body).every(([k, v]) => k === 'maintenanceWindow' || v === undefined)) {
      const applied: UpdateClusterApplied = { cluster: publicCluster(await d.topology.setMaintenanceWindow(req.principal!.organizationId, id, body.maintenanceWindow ?? null)), operation: null };
      res.json(applied);
      return;
    }
    const { plan, cluster, operation } = await d.topology.update(req.principal!.organizationId, id, body, dryRun);
    if (!operation) {
      const out: UpdateClusterDryRun = { dryRun: true, plan };
      res.json(out);
      return;
    }
    const out: ClusterUpdateAccepted = { cluster: publicCluster(cluster), operation: publicOperation(operation), plan };
    res.status(202).location(`/v1/operations/${operation.id}`).json(out);
  });

  mountOperation(r, BASE, 'switchover', async (input) => {
    const { req, res } = input;
    const id = parseUuid(req.params.id, 'Cluster');
    const rawIndex = String(req.params.index ?? '');
    const index = /^\d+$/.test(rawIndex) ? Number(rawIndex) : -1;
    const body = input.body;
    const { cluster, operation } = await d.topology.switchover(req.principal!.organizationId, id, index, body);
    res.location(`/v1/operations/${operation.id}`);
    return { cluster: publicCluster(cluster), operation: publicOperation(operation) };
  });

  mountOperation(r, BASE, 'restartCluster', async ({ req, res, body }) => {
    const { cluster, operation } = await d.topology.restart(req.principal!.organizationId, parseUuid(req.params.id, 'Cluster'), body);
    res.location(`/v1/operations/${operation.id}`);
    return { cluster: publicCluster(cluster), operation: publicOperation(operation) };
  });

  mountOperation(r, BASE, 'rotateClusterCa', async ({ req, res, body }) => {
    const { cluster, operation } = await d.topology.rotateCa(req.principal!.organizationId, parseUuid(req.params.id, 'Cluster'), body);
    res.location(`/v1/operations/${operation.id}`);
    return { cluster: publicCluster(cluster), operation: publicOperation(operation) };
  });

  mountOperation(r, BASE, 'deleteCluster', async ({ req, res }) => {
    const { cluster, operation } = await d.service.delete(req.principal!.organizationId, parseUuid(req.params.id, 'Cluster'));
    res.location(`/v1/operations/${operation.id}`);
    return { cluster: publicCluster(cluster), operation: publicOperation(operation) };
  });

  mountOperation(r, BASE, 'listClusterOperations', async ({ req }) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    return { items: (await d.operations.listForCluster(cluster.id, cluster.organizationId)).map(publicOperation) };
  });

  mountOperation(r, BASE, 'listClusterEvents', async (input) => {
    const cluster = await load(input.req.principal!.organizationId, input.req.params.id);
    const q = input.query;
    const out: ClusterEventList = await d.events.list(cluster.id, cluster.organizationId, { limit: q.limit, before: q.before });
    return out;
  });

  mountOperation(r, BASE, 'getTopology', async ({ req }) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    const [instances, lost, nodes, stored] = await Promise.all([d.clusters.instances(cluster.id), d.clusters.lostInstances(cluster.id), d.nodes.list(), d.clusters.shards(cluster.id)]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const placedOn = new Map(instances.map((i) => [i.id, i.nodeId]));
    // The same rule as the cluster's ClusterHealthy condition: an instance shown healthy is a healthy member.
    const healthy = healthyMembers(instances, lost.filter((l) => !l.forgottenAt).length, {
      observe: (id) => d.observed.instance(id, placedOn.get(id)),
    });
    const slots = stored.length ? stored.map((s) => s.slots) : planSlots(cluster.spec.shards).map((range) => [range]);
    const topology: Topology = {
      clusterId: cluster.id,
      shards: slots.map((ranges, index) => ({
        index,
        slots: ranges,
        instances: instances.filter((i) => i.shardIndex === index).map((i) => {
          const o = d.observed.instance(i.id, i.nodeId);
          const node = byId.get(i.nodeId);
          const health: InstanceHealth = !o ? 'unknown' : healthy.has(i.id) ? 'healthy' : o.state === 'running' || o.state === 'starting' ? 'starting' : 'down';
          return {
            id: i.id, nodeId: i.nodeId, nodeName: node?.name ?? 'unknown', address: `${node?.address ?? 'unknown'}:${i.port}`,
            role: i.role, preferredRole: i.preferredRole, observedRole: o?.cluster?.role ?? null, health,
            sync: o?.cluster?.syncInProgress ? { receivedBytes: o.cluster.syncReadBytes ?? 0, totalBytes: o.cluster.syncTotalBytes ?? null } : null,
          };
        }),
      })),
    };
    return topology;
  });

  mountOperation(r, BASE, 'getConnection', async ({ req, res }) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    if (cluster.status.phase === 'deleting') throw conflict('invalid_state', 'The cluster is being deleted.');
    const [instances, nodes] = await Promise.all([d.clusters.instances(cluster.id), d.nodes.list()]);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const primaries = instances.filter((i) => i.role === 'primary');
    const seeds = primaries.map((i) => `${byId.get(i.nodeId)?.address}:${i.port}`);
    const s = openSecrets(d.box, cluster.secretsEnc);
    const endpoint = d.endpoints.forCluster(cluster, nodes);
    const layout = cluster.tlsLayout;
    const login = `${encodeURIComponent(s.customerUser)}:${encodeURIComponent(s.customerPassword)}`;
    // The stable endpoint when there is one: it outlives the loss of any node; a primary's address does not. It forwards
    // to the instances' own ports; a protocol served on their second ports (both served, during a switch) has a second
    // endpoint (without endpoints: a primary's second port).
    const onPorts = `${endpoint ? `${endpoint.host}:${endpoint.port}` : seeds[0]}`;
    const second = primaries.find((i) => i.secondPort);
    const onSecond = d.endpoints.secondFor(cluster) ?? (second ? `${byId.get(second.nodeId)?.address}:${second.secondPort}` : onPorts);
    const plainAt = layout === 'tls' ? null : layout === 'tls+plain' ? onSecond : onPorts;
    const tlsAt = layout === 'plain' ? null : layout === 'plain+tls' ? onSecond : onPorts;
    const conn: Connection = {
      uri: plainAt ? `redis://${login}@${plainAt}` : `rediss://${login}@${tlsAt}`,
      tlsUri: tlsAt ? `rediss://${login}@${tlsAt}` : null,
      tlsServed: layout,
      seeds,
      username: s.customerUser,
      password: s.customerPassword,
      endpoint,
      tls: cluster.spec.tls,
      tlsClientAuth: cluster.spec.tlsClientAuth,
      // During a CA rotation, the new CA and the old one: a client trusting both connects whichever an instance serves.
      caCertificate: layout === 'plain' ? null : trustedCas(s),
    };
    res.set('Cache-Control', 'no-store');
    return conn;
  });

  mountRaw(r, BASE, 'getClusterCa', async ({ req, res }) => {
    const cluster = await load(req.principal!.organizationId, req.params.id);
    const cas = cluster.tlsLayout === 'plain' ? null : trustedCas(openSecrets(d.box, cluster.secretsEnc));
    if (!cas) throw conflict('tls_off', 'TLS is off for this cluster: it has no CA.');
    res.set('Content-Type', 'application/x-pem-file');
    // The name every connection snippet reads the CA from.
    res.set('Content-Disposition', 'attachment; filename="ca.pem"');
    res.status(200).send(cas);
  });

  return r;
}

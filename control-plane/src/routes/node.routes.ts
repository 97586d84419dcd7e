import { Router } from 'express';
import type { Node, NodeList, JoinToken } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation, type OperationInput } from '../http/operation-router';
import { notFound } from '../errors';
import type { AuthStore } from '../stores/auth.store';
import type { ClusterStore } from '../stores/cluster.store';
import type { NodeStore } from '../stores/node.store';
import type { ObservedState } from '../observed/observed-state';
import { hashToken, newToken } from '../crypto/tokens';
import { storedNodeStatus } from '../observed/node-liveness';

export interface NodeRoutesDeps {
  nodes: NodeStore;
  clusters: ClusterStore;
  auth: AuthStore;
  observed: ObservedState;
  nodeOfflineAfterMs: number;
  nodeDownAfterMs: number;
  /** Down sooner when its engines' peers cannot reach them (node-liveness.ts); nodeDownAfterMs when absent. */
  nodeDownConfirmedAfterMs?: number;
  /** A node's placement changed (drain): every cluster on it needs a pass. */
  onNodeChanged?: (nodeId: string) => void;
  /** SHA-256 of the certificate agents pin when the API serves HTTPS (null: plain HTTP). */
  controlPlaneCaSha256?: string | null;
}

const BASE = '/v1/nodes';

export function nodeRoutes(d: NodeRoutesDeps): Router {
  const r = Router();

  mountOperation(r, BASE, 'listNodes', async ({ req }) => {
    const principal = req.principal!;
    const [nodes, instances, visible] = await Promise.all([
      d.nodes.list(), d.clusters.allInstances(), d.clusters.list(principal.organizationId),
    ]);
    const mine = new Set(visible.map((c) => c.id));
    const fleet = principal.isPlatformAdmin;
    const now = Date.now();
    const liveness = { ...d, nodeDownConfirmedAfterMs: d.nodeDownConfirmedAfterMs ?? d.nodeDownAfterMs };
    const items: Node[] = nodes.flatMap((n) => {
      const on = instances.filter((i) => i.nodeId === n.id);
      // The fleet view (platform admins) lists every organization's instances, the ones its capacity counts;
      // a tenant sees only its own, never another organization's.
      const own = fleet ? on : on.filter((i) => mine.has(i.clusterId));
      // A tenant sees only nodes running its clusters, and not how full they are.
      if (!fleet && own.length === 0) return [];
      return [{
        id: n.id,
        name: n.name,
        address: n.address,
        status: storedNodeStatus(n, d, liveness, now),
        draining: n.draining,
        capacity: fleet ? { memoryMb: n.memoryMb, usedMemoryMb: on.reduce((s, i) => s + i.memoryMb, 0) } : null,
        lastHeartbeatAt: n.lastHeartbeatAt?.toISOString() ?? null,
        credentialRevokedAt: n.credentialRevokedAt?.toISOString() ?? null,
        agentVersion: fleet ? n.agentVersion : null,
        instances: own.map((i) => ({
          id: i.id, clusterId: i.clusterId, clusterName: i.clusterName, organizationName: i.organizationName, port: i.port, role: i.role, memoryMb: i.memoryMb,
          state: d.observed.instance(i.id, n.id)?.state ?? 'unknown',
          restarts: d.observed.instance(i.id, n.id)?.restarts ?? 0,
        })),
        createdAt: n.createdAt.toISOString(),
      }];
    });
    const out: NodeList = { scope: fleet ? 'fleet' : 'organization', items };
    return out;
  });

  /** Drain (maintenance): primaries switch over elsewhere, every instance is rebuilt on other nodes. */
  const drain = (draining: boolean) => async ({ req }: OperationInput<'drainNode' | 'undrainNode'>) => {
    const node = await d.nodes.setDraining(parseUuid(String(req.params.id), 'Node'), draining);
    if (!node) throw notFound('Node');
    d.onNodeChanged?.(node.id);
    return { id: node.id, name: node.name, draining: node.draining };
  };
  mountOperation(r, BASE, 'drainNode', drain(true));
  mountOperation(r, BASE, 'undrainNode', drain(false));

  mountOperation(r, BASE, 'revokeNodeCredential', async ({ req }) => {
    const node = await d.nodes.revokeCredential(parseUuid(String(req.params.id), 'Node'));
    if (!node) throw notFound('Node');
    return { id: node.id, name: node.name, credentialRevokedAt: node.credentialRevokedAt!.toISOString() };
  });

  mountOperation(r, BASE, 'createJoinToken', async ({ body }) => {
    const token = newToken('sjt');
    const expiresAt = await d.auth.createJoinToken(hashToken(token), body.ttlSeconds ?? 3600);
    const out: JoinToken = { token, expiresAt: expiresAt.toISOString(), controlPlaneCaSha256: d.controlPlaneCaSha256 ?? null };
    return out;
  });

  return r;
}

import { Router } from 'express';
import type pg from 'pg';
import { TASK_LEASE_MS, type HeartbeatResponse, type RegisterAgentResponse } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation } from '../http/operation-router';
import { AppError, conflict, notFound } from '../errors';
import { inTransaction } from '../db/tx';
import { isUniqueViolation } from '../db/pg-errors';
import type { AuthStore } from '../stores/auth.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { OperationStore } from '../stores/operation.store';
import type { ObservedState } from '../observed/observed-state';
import type { TaskBroker } from '../services/task-broker';
import { hashToken, newToken } from '../crypto/tokens';
import type { EndpointDirectory } from '../services/endpoint-directory';
import { acceptStatusReport } from '../services/agent-status';
import { taskKey } from '../reconciler/dedupe-keys';

export interface AgentRoutesDeps {
  pool: pg.Pool;
  auth: AuthStore;
  nodes: NodeStore;
  tasks: TaskStore;
  operations: OperationStore;
  broker: TaskBroker;
  observed: ObservedState;
  onTaskDone: (clusterId: string) => void;
  endpoints: EndpointDirectory;
  backups?: { taskShouldStop?: (taskId: string) => Promise<boolean> };
}

/** The agent protocol: register once, then report status and lease tasks. */
const BASE = '/v1/agent';

export function agentRoutes(d: AgentRoutesDeps): Router {
  const r = Router();

  mountOperation(r, BASE, 'registerAgent', async ({ body }) => {
    const credential = newToken('snc');
    try {
      const node = await inTransaction(d.pool, async (db) => {
        if (!(await d.auth.consumeJoinToken(hashToken(body.joinToken), db))) {
          throw new AppError(401, 'join_token_invalid', 'Join token invalid', 'The join token is unknown, already used or expired. Create a new one with POST /v1/nodes/join-tokens.');
        }
        return d.nodes.create({ name: body.name, address: body.address, memoryMb: body.memoryMb, agentVersion: body.agentVersion, credentialHash: hashToken(credential) }, db);
      });
      const out: RegisterAgentResponse = { nodeId: node.id, credential };
      return out;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('name_taken', `A node named "${body.name}" is already registered.`, [{ field: 'name', message: 'taken' }]);
      throw err;
    }
  });

  // Node authentication comes from the table (`auth: 'node'`), route by route.
  const node = r;

  mountOperation(node, BASE, 'reportAgentStatus', async ({ req, body: report }) => {
    await acceptStatusReport(d, req.node!.id, report);
  });

  mountOperation(node, BASE, 'getAgentEndpoints', async () => d.endpoints.forAgents());

  mountOperation(node, BASE, 'leaseTask', async ({ req, res }) => {
    const waitMs = Math.max(0, Math.min(Number(req.query.waitMs ?? 25_000) || 0, 60_000));
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const task = await d.broker.lease(req.node!.id, waitMs, abort.signal);
    return { task };
  });

  mountOperation(node, BASE, 'heartbeatTask', async ({ req }) => {
    const id = parseUuid(req.params.id, 'Task');
    if (!(await d.tasks.heartbeat(id, req.node!.id, TASK_LEASE_MS))) {
      if (!(await d.tasks.exists(id, req.node!.id))) throw notFound('Task');
      throw conflict('conflict', 'The task is no longer leased by this node.');
    }
    // A cancel stops the forward migration (the rollback moves its slots back).
    // A backup's tasks stop once it ended (cancelled, or failed meanwhile).
    const out: HeartbeatResponse = {
      stop: (await d.operations.taskShouldStop(id, [taskKey({ kind: 'migrate', rollback: false })])) || ((await d.backups?.taskShouldStop?.(id)) ?? false),
    };
    return out;
  });

  mountOperation(node, BASE, 'reportTaskProgress', async (input) => {
    const { req } = input;
    const id = parseUuid(req.params.id, 'Task');
    const body = input.body;
    if (!(await d.tasks.progress(id, req.node!.id, body.progress, body.detail, body.migration))) {
      if (!(await d.tasks.exists(id, req.node!.id))) throw notFound('Task');
      throw conflict('conflict', 'The task is no longer leased by this node.');
    }
  });

  mountOperation(node, BASE, 'completeTask', async (input) => {
    const { req } = input;
    const id = parseUuid(req.params.id, 'Task');
    const body = input.body;
    const task = await d.tasks.complete(id, req.node!.id, body.outcome, body.error, body.result);
    if (!task) {
      if (!(await d.tasks.exists(id, req.node!.id))) throw notFound('Task');
      // Already completed (a retry after a lost response): accept quietly.
    } else {
      d.onTaskDone(task.clusterId);
    }
  });

  return r;
}

import { Router } from 'express';
import type pg from 'pg';
import { AgentStatusReport, CompleteTaskRequest, RegisterAgentRequest, TaskProgressRequest, type HeartbeatResponse, type RegisterAgentResponse } from '@strata/api';
import { parseBody, parseUuid } from '../http/validate';
import { AppError, conflict, notFound } from '../errors';
import { requireNode } from '../auth/auth.middleware';
import { inTransaction } from '../db/tx';
import { isUniqueViolation } from '../db/pg-errors';
import type { AuthStore } from '../stores/auth.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import type { OperationStore } from '../stores/operation.store';
import type { ObservedState } from '../observed/observed-state';
import { TASK_LEASE_MS, type TaskBroker } from '../services/task-broker';
import { hashToken, newToken } from '../crypto/tokens';
import type { EndpointDirectory } from '../services/endpoint-directory';

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
}

/** The agent protocol: register once, then report status and lease tasks. */
export function agentRoutes(d: AgentRoutesDeps): Router {
  const r = Router();

  r.post('/register', async (req, res) => {
    const body = parseBody(RegisterAgentRequest, req.body);
    const credential = newToken('snc');
    try {
      const node = await inTransaction(d.pool, async (db) => {
        if (!(await d.auth.consumeJoinToken(hashToken(body.joinToken), db))) {
          throw new AppError(401, 'join_token_invalid', 'Join token invalid', 'The join token is unknown, already used or expired. Create a new one with POST /v1/nodes/join-tokens.');
        }
        return d.nodes.create({ name: body.name, address: body.address, memoryMb: body.memoryMb, agentVersion: body.agentVersion, credentialHash: hashToken(credential) }, db);
      });
      const out: RegisterAgentResponse = { nodeId: node.id, credential };
      res.status(201).json(out);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('name_taken', `A node named "${body.name}" is already registered.`, [{ field: 'name', message: 'taken' }]);
      throw err;
    }
  });

  const node = Router();
  node.use(requireNode(d.nodes));

  node.post('/status', async (req, res) => {
    const report = parseBody(AgentStatusReport, req.body);
    await d.nodes.heartbeat(req.node!.id, report.memoryMb, report.agentVersion);
    d.observed.record(req.node!.id, report);
    res.status(204).end();
  });

  node.get('/endpoints', async (_req, res) => {
    res.json(await d.endpoints.forAgents());
  });

  node.get('/tasks', async (req, res) => {
    const waitMs = Math.max(0, Math.min(Number(req.query.waitMs ?? 25_000) || 0, 60_000));
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const task = await d.broker.lease(req.node!.id, waitMs, abort.signal);
    res.json({ task });
  });

  node.post('/tasks/:id/heartbeat', async (req, res) => {
    const id = parseUuid(req.params.id, 'Task');
    if (!(await d.tasks.heartbeat(id, req.node!.id, TASK_LEASE_MS))) {
      if (!(await d.tasks.exists(id, req.node!.id))) throw notFound('Task');
      throw conflict('conflict', 'The task is no longer leased by this node.');
    }
    const out: HeartbeatResponse = { stop: await d.operations.taskShouldStop(id) };
    res.json(out);
  });

  node.post('/tasks/:id/progress', async (req, res) => {
    const id = parseUuid(req.params.id, 'Task');
    const body = parseBody(TaskProgressRequest, req.body);
    if (!(await d.tasks.progress(id, req.node!.id, body.progress, body.detail, body.migration))) {
      if (!(await d.tasks.exists(id, req.node!.id))) throw notFound('Task');
      throw conflict('conflict', 'The task is no longer leased by this node.');
    }
    res.status(204).end();
  });

  node.post('/tasks/:id/complete', async (req, res) => {
    const id = parseUuid(req.params.id, 'Task');
    const body = parseBody(CompleteTaskRequest, req.body);
    const task = await d.tasks.complete(id, req.node!.id, body.outcome, body.error, body.result);
    if (!task) {
      if (!(await d.tasks.exists(id, req.node!.id))) throw notFound('Task');
      // Already completed (a retry after a lost response): accept quietly.
    } else {
      d.onTaskDone(task.clusterId);
    }
    res.status(204).end();
  });

  r.use(node);
  return r;
}

/**
 * Disk profile API: start on a node, list a node's runs, get, live stream
 * (SSE), cancel, the durability advice; and the agent's report route.
 */
import { Router, type Request } from 'express';
import type { DiskProfileProgressEvent } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation, mountRaw } from '../http/operation-router';
import { notFound } from '../errors';
import type { NodeStore } from '../stores/node.store';
import type { DiskProfileStore } from '../stores/disk-profile.store';
import type { DiskProfileService } from './disk-profile.service';
import type { EventStreams } from '../http/event-streams';

const BASE = '/v1';

/** Mounted at /v1 (user auth and platform-admin checks from the table). */
export function diskProfileRoutes(d: { service: DiskProfileService; profiles: DiskProfileStore; nodes: NodeStore; eventStreams: EventStreams }): Router {
  const r = Router();

  mountOperation(r, BASE, 'startDiskProfile', async (input) => {
    const nodeId = parseUuid(input.req.params.id, 'Node');
    if (!(await d.nodes.get(nodeId))) throw notFound('Node');
    const profile = await d.service.start(nodeId, input.body);
    input.res.location(`/v1/profiles/${profile.id}`);
    return { profile };
  });

  mountOperation(r, BASE, 'listDiskProfiles', async ({ req }) => {
    const nodeId = parseUuid(req.params.id, 'Node');
    if (!(await d.nodes.get(nodeId))) throw notFound('Node');
    return { items: await d.profiles.listForNode(nodeId) };
  });

  const id = (req: Request) => parseUuid(String(req.params.id), 'Profile');
  mountOperation(r, BASE, 'getDiskProfile', async ({ req }) => d.service.get(id(req)));
  mountOperation(r, BASE, 'cancelDiskProfile', async ({ req }) => d.service.cancel(id(req)));
  mountOperation(r, BASE, 'getDurabilityAdvice', async () => d.service.advice());

  mountRaw(r, BASE, 'streamDiskProfile', async ({ req, res }) => {
    const p = await d.service.get(id(req));
    const stream = d.eventStreams.start(req, res, { retryMs: 2000 });
    const send = (e: DiskProfileProgressEvent) => stream.send('progress', e);
    let unsubscribe: (() => void) | undefined;
    const end = (status: DiskProfileProgressEvent['status']) => {
      unsubscribe?.();
      stream.send('end', { status });
      stream.end();
    };
    send({ status: p.status, progress: p.progress, detail: p.detail, clusters: p.clusters });
    if (p.status !== 'running') return end(p.status);
    unsubscribe = d.service.subscribe(p.id, (e) => {
      send(e);
      if (e.status !== 'running') end(e.status);
    });
    stream.onClose(() => unsubscribe?.());
    // A run that ended between the read and the subscription.
    const now = await d.profiles.get(p.id);
    if (now && now.status !== 'running') end(now.status);
  });

  return r;
}

/** Mounted at /v1/agent (node auth from the table): the agent's report on the profile its task runs. */
export function agentDiskProfileRoutes(d: { service: DiskProfileService; profiles: DiskProfileStore }): Router {
  const r = Router();
  mountOperation(r, '/v1/agent', 'reportDiskProfile', async (input) => {
    const taskId = parseUuid(input.req.params.id as string, 'Task');
    const profileId = await d.profiles.profileOfTask(taskId, input.req.node!.id);
    if (!profileId) throw notFound('Task');
    return d.service.report(profileId, input.body);
  });
  return r;
}

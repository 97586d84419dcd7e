/**
 * Disk profiles: checks a request against the node (online, free space, busy
 * clusters), stores the run, hands the agent a `disk-profile` task, records
 * its reports and tells live streams. One running profile per node (409).
 */
import { randomUUID } from 'node:crypto';
import { ZodError } from 'zod';
import {
  durabilityAdvice, fleetAdvice, profileSeconds, profileSpaceNeeded, requestWorkloads, MAX_PROFILE_SECONDS,
  type DiskProfile, type DiskProfileCommand, type DiskProfileProgressEvent, type DiskProfileReport, type DiskProfileRequest, type DurabilityAdviceList, type ProfileWorkload,
} from '@strata/api';
import { AppError, conflict, notFound, validationFailed } from '../errors';
import type { DiskProfileStore } from '../stores/disk-profile.store';
import type { NodeStore } from '../stores/node.store';
import type { TaskStore } from '../stores/task.store';
import { taskKey } from '../reconciler/dedupe-keys';

export type ClusterActivity = DiskProfile['clusters'][number];

export interface DiskProfileServiceDeps {
  profiles: DiskProfileStore;
  nodes: NodeStore;
  tasks: TaskStore;
  isSilent: (nodeId: string) => boolean;
  /** Free bytes on the node's data volume from its newest host sample (null: not known yet). */
  freeBytes: (nodeId: string) => number | null;
  /** The clusters with instances on the node and their load now. */
  clusterActivity: (nodeId: string) => Promise<ClusterActivity[]>;
  notifyNode: (nodeId: string) => void;
  /** A running profile whose agent says nothing for this long has failed (its agent died or lost its task). */
  silentAfterMs?: number;
}

/** A cluster serving more than this many operations a second is busy: a profile beside it needs `force`. */
export const BUSY_OPS_PER_SEC = 100;
const SILENT_AFTER_MS = 20_000;

const MB = (bytes: number) => `${Math.ceil(bytes / 1e6).toLocaleString('en-US')} MB`;

export class DiskProfileService {
  private readonly listeners = new Map<string, Set<(e: DiskProfileProgressEvent) => void>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly d: DiskProfileServiceDeps) {}

  async start(nodeId: string, req: DiskProfileRequest): Promise<DiskProfile> {
    const node = await this.d.nodes.get(nodeId);
    if (!node) throw notFound('Node');
    let workloads: ProfileWorkload[];
    try {
      workloads = requestWorkloads(req);
    } catch (err) {
      // A preset at a file size too small for one of its block sizes.
      if (err instanceof ZodError) throw validationFailed([{ field: 'fileSize', message: err.issues[0]?.message ?? 'too small for this preset' }]);
      throw err;
    }
    if (this.d.isSilent(nodeId)) throw conflict('invalid_state', `Node ${node.name} is not reporting; its agent runs profiles.`);
    const need = profileSpaceNeeded(workloads);
    const free = this.d.freeBytes(nodeId);
    if (free !== null && free < need) {
      const field = req.workloads ? 'workloads' : 'fileSize';
      throw new AppError(422, 'insufficient_space', 'Not enough free space', `Node ${node.name} has ${MB(free)} free on its data volume; this profile needs ${MB(need)} (twice its test files).`, [
        { field, message: `needs ${MB(need)} free (twice the test files); the node has ${MB(free)}` },
      ]);
    }
    const clusters = await this.d.clusterActivity(nodeId);
    const busy = clusters.filter((c) => (c.opsPerSec ?? 0) > BUSY_OPS_PER_SEC);
    if (busy.length && !req.force) {
      throw new AppError(409, 'node_busy', 'Clusters on the node are busy',
        `${busy.map((c) => `${c.clusterName} (${Math.round(c.opsPerSec!)} ops/s)`).join(', ')} ${busy.length === 1 ? 'runs' : 'run'} on ${node.name}; a profile competes with them for the disk. Send force: true to run it anyway (their latency is shown during the run).`,
        [{ field: 'force', message: 'clusters on the node are busy' }]);
    }
    const id = randomUUID();
    if (!(await this.d.profiles.insert({ id, nodeId, preset: req.preset ?? null, request: req, workloads, clusters }))) {
      throw conflict('conflict', `A profile is already running on ${node.name}; cancel it or wait for it to finish.`);
    }
    const seconds = profileSeconds(workloads);
    await this.d.tasks.enqueue({
      nodeId, clusterId: id, operationId: null, dedupeKey: taskKey({ kind: 'disk-profile', profileId: id }),
      // fio's own runtime bounds each group; the agent kills it past the whole profile's time plus laying out files.
      request: { kind: 'disk-profile', profileId: id, workloads, timeLimitSec: Math.min(MAX_PROFILE_SECONDS, seconds) + 60 + workloads.length * 10 },
    });
    this.d.notifyNode(nodeId);
    return (await this.d.profiles.get(id))!;
  }

  async get(id: string): Promise<DiskProfile> {
    const p = await this.d.profiles.get(id);
    if (!p) throw notFound('Profile');
    return p;
  }

  async cancel(id: string): Promise<DiskProfile> {
    const p = await this.get(id);
    if (p.status !== 'running' || !(await this.d.profiles.requestCancel(id))) throw conflict('invalid_state', `The profile already ${p.status === 'running' ? 'finished' : p.status}.`);
    return this.get(id);
  }

  /** An agent's report: stored, streamed, answered with whether to stop. */
  async report(profileId: string, r: DiskProfileReport): Promise<DiskProfileCommand> {
    const cmd = await this.d.profiles.report(profileId, r);
    if (r.finished) {
      const p = await this.d.profiles.get(profileId);
      const status = r.finished.status === 'completed' && p?.results.some((x) => x.error) ? 'failed' : r.finished.status;
      const advice = p && status === 'completed' ? durabilityAdvice(p.results) : null;
      const error = status === 'completed' ? undefined
        : { code: r.finished.code ?? status, message: r.finished.message ?? p?.results.find((x) => x.error)?.error ?? status };
      await this.d.profiles.finish(profileId, { status, error, advice });
      this.emit(profileId, { status, progress: status === 'completed' ? 1 : r.progress, detail: r.detail ?? null, result: r.result });
      this.listeners.delete(profileId);
      return { stop: true };
    }
    this.emit(profileId, { status: 'running', progress: r.progress, detail: r.detail ?? null, result: r.result });
    return cmd;
  }

  async advice(): Promise<DurabilityAdviceList> {
    const items = await this.d.profiles.latestAdvice();
    return { fleet: fleetAdvice(items.map((i) => i.advice)), items };
  }

  subscribe(id: string, fn: (e: DiskProfileProgressEvent) => void): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(fn);
    return () => {
      set!.delete(fn);
      if (!set!.size && this.listeners.get(id) === set) this.listeners.delete(id);
    };
  }

  private emit(id: string, e: DiskProfileProgressEvent): void {
    for (const fn of this.listeners.get(id) ?? []) fn(e);
  }

  /** Every second: the load of the clusters beside each watched run; profiles whose agent went silent fail. */
  watch(): void {
    let ticks = 0;
    this.timer = setInterval(() => void this.tick(++ticks).catch(() => {}), 1000);
    this.timer.unref();
  }

  unwatch(): void {
    clearInterval(this.timer);
  }

  private async tick(n: number): Promise<void> {
    for (const id of [...this.listeners.keys()]) {
      const p = await this.d.profiles.get(id);
      if (!p || p.status !== 'running') continue;
      const clusters = await this.d.clusterActivity(p.nodeId);
      if (clusters.length) {
        await this.d.profiles.setClusters(id, clusters);
        this.emit(id, { status: 'running', progress: p.progress, detail: p.detail, clusters });
      }
    }
    if (n % 5 !== 0) return;
    for (const id of await this.d.profiles.silent(Date.now() - (this.d.silentAfterMs ?? SILENT_AFTER_MS))) {
      if (await this.d.profiles.finish(id, { status: 'failed', error: { code: 'agent-lost', message: 'the node\'s agent stopped reporting during the run' } })) {
        this.emit(id, { status: 'failed', progress: 0, detail: 'the agent stopped reporting' });
        this.listeners.delete(id);
      }
    }
  }
}

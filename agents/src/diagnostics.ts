/**
 * Diagnostics tasks: read or reset the slow log of this node's instances of
 * a cluster, and scan one shard for its big and hot keys (throttled,
 * bounded in time, on a connection of its own, with progress reports).
 */
import type { Logger } from 'pino';
import { SLOWLOG_LIMITS, type KeyScanShardResult, type SlowLogTaskResult, type TaskPayload, type TaskProgressRequest } from '@strata/api';
import { internalLogin, readSlowLog, resetSlowLog, scanKeys } from '@strata/engine/redis-admin';
import type { InstanceConnections } from './instance-connections';

type SlowLogPayload = Extract<TaskPayload, { kind: 'slowlog' }>;
type KeyScanPayload = Extract<TaskPayload, { kind: 'key-scan' }>;

/** A task's result must stay well under the control plane's 1 MiB body limit. */
const RESULT_BYTES = 700_000;

export async function runSlowLog(p: SlowLogPayload, d: { connections: InstanceConnections }): Promise<SlowLogTaskResult> {
  const creds = internalLogin(p.credentials);
  const instances = await Promise.all(p.instances.map(async (i) => {
    try {
      const client = await d.connections.get(i.instanceId, i.port, creds);
      if (p.reset) {
        await resetSlowLog(client);
        return { instanceId: i.instanceId, ok: true, length: 0, slowerThanMicros: null, maxLen: null, role: null, entries: [] };
      }
      const r = await readSlowLog(client, p.limit, { args: SLOWLOG_LIMITS.args, argChars: SLOWLOG_LIMITS.argChars });
      return {
        instanceId: i.instanceId, ok: true, length: r.length, slowerThanMicros: r.slowerThanMicros, maxLen: r.maxLen, role: r.role,
        entries: r.entries.map((e) => ({ ...e, at: new Date(e.at * 1000).toISOString() })),
      };
    } catch (err) {
      return { instanceId: i.instanceId, ok: false, error: (err as Error).message, length: null, slowerThanMicros: null, maxLen: null, role: null, entries: [] };
    }
  }));
  const result: SlowLogTaskResult = { kind: 'slowlog', instances };
  // Long arguments on many instances: keep the newest entries of each until the answer fits.
  while (JSON.stringify(result).length > RESULT_BYTES && instances.some((i) => i.entries.length > 1)) {
    for (const i of instances) i.entries = i.entries.slice(0, Math.ceil(i.entries.length / 2));
  }
  return result;
}

export async function runKeyScan(
  p: KeyScanPayload,
  d: { connections: InstanceConnections; stop: AbortSignal; log: Logger; progress: (r: TaskProgressRequest) => Promise<void>; reportEveryMs?: number },
): Promise<KeyScanShardResult> {
  const client = await d.connections.dedicated(p.port, internalLogin(p.credentials));
  let lastReport = 0;
  let reporting: Promise<void> = Promise.resolve();
  try {
    const r = await scanKeys(client, {
      ...p.params, shouldStop: () => d.stop.aborted,
      onBatch: ({ keysScanned, keysInShard }) => {
        const now = Date.now();
        if (now - lastReport < (d.reportEveryMs ?? 1000)) return;
        lastReport = now;
        // One report in flight at a time; a lost one is superseded by the next.
        reporting = reporting.then(() => d.progress({
          progress: keysInShard ? Math.min(1, keysScanned / keysInShard) : 1, detail: `${keysScanned} of ${keysInShard} keys scanned`,
        })).catch((err) => d.log.warn({ err: (err as Error).message }, 'could not report key scan progress'));
      },
    });
    await reporting;
    d.log.info({ shard: p.shard, keysScanned: r.keysScanned, complete: r.complete, elapsedMs: r.elapsedMs, batches: r.batches }, 'key scan done');
    return { kind: 'key-scan', ...r };
  } finally {
    client.disconnect();
  }
}

/**
 * A consistent backup's start: one point in time across every shard.
 * Writes pause on every primary (CLIENT PAUSE WRITE, with a timeout so the
 * pause ends by itself should this agent die), each shard's source replica
 * catches up to its primary's replication offset (so its snapshot holds
 * every write the primary acknowledged), every source starts its BGSAVE
 * (the fork is the snapshot's point in time), then writes resume. Reads go
 * on throughout. The pause is measured from the first PAUSE sent to the
 * last UNPAUSE answered.
 */
import type { BackupConsistentStartResult, BackupConsistentStartTaskSpec } from '@strata/api';

/** What the start needs of a connection (an ioredis client). */
export interface AdminConn {
  call(...args: (string | number)[]): Promise<unknown>;
}

const field = (info: string, name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

export interface ConsistentStartDeps {
  /** A connection to host:port (the agent's admin user). */
  connect: (host: string, port: number) => Promise<AdminConn>;
  /** Longest wait for a replica to catch up, within the pause. */
  catchUpTimeoutMs?: number;
  now?: () => number;
}

async function saves(c: AdminConn): Promise<{ saves: number; inProgress: boolean }> {
  const info = String(await c.call('INFO', 'persistence'));
  return { saves: Number(field(info, 'rdb_saves') ?? 0), inProgress: field(info, 'rdb_bgsave_in_progress') === '1' };
}

export async function consistentStart(p: BackupConsistentStartTaskSpec, d: ConsistentStartDeps): Promise<BackupConsistentStartResult> {
  const now = d.now ?? (() => performance.now());
  const conns = await Promise.all(p.shards.map(async (s) => {
    const primary = await d.connect(s.primary.host, s.primary.port);
    const source = s.source.role === 'primary' ? primary : await d.connect(s.source.host, s.source.port);
    return { s, primary, source };
  }));
  // Before the pause: no snapshot may be running where ours must start now (it would be queued, not taken at the pause).
  const before = await Promise.all(conns.map(async (c) => ({ ...c, ...(await saves(c.source)) })));
  const busy = before.find((c) => c.inProgress);
  if (busy) throw new Error(`shard ${busy.s.shard + 1}: a snapshot is already running on its source; try again when it ends`);
  const t0 = now();
  let paused = false;
  try {
    await Promise.all(conns.map((c) => c.primary.call('CLIENT', 'PAUSE', p.pauseTimeoutMs, 'WRITE')));
    paused = true;
    // Every write the primaries acknowledged must be in the replicas' snapshots.
    await Promise.all(conns.filter((c) => c.s.source.role === 'replica').map(async (c) => {
      const offset = Number(field(String(await c.primary.call('INFO', 'replication')), 'master_repl_offset'));
      const deadline = now() + (d.catchUpTimeoutMs ?? 1000);
      for (;;) {
        const rep = String(await c.source.call('INFO', 'replication'));
        const got = Number(field(rep, 'slave_repl_offset') ?? field(rep, 'master_repl_offset') ?? -1);
        if (got >= offset) return;
        if (now() > deadline) throw new Error(`shard ${c.s.shard + 1}: its replica did not catch up with the paused primary (offset ${got} of ${offset})`);
      }
    }));
    const snapshotAt = new Date();
    await Promise.all(before.map((c) => c.source.call('BGSAVE')));
    await Promise.all(conns.map((c) => c.primary.call('CLIENT', 'UNPAUSE')));
    paused = false;
    const writePauseMs = Math.round((now() - t0) * 100) / 100;
    return {
      kind: 'backup-consistent-start', writePauseMs,
      shards: before.map((c) => ({ shard: c.s.shard, instanceId: c.s.source.instanceId, savesBefore: c.saves, snapshotAt: snapshotAt.toISOString() })),
    };
  } finally {
    if (paused) await Promise.allSettled(conns.map((c) => c.primary.call('CLIENT', 'UNPAUSE')));
  }
}

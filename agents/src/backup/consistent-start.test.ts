import { describe, expect, it } from 'vitest';
import type { BackupConsistentStartTaskSpec } from '@strata/api';
import { consistentStart, type AdminConn } from './consistent-start';

/** A scripted engine: its replication offset, its replica's, its saves; records every command. */
function engine(name: string, log: string[], s: { offset?: number; replicaOffset?: number; saves?: number; saving?: boolean }): AdminConn {
  return {
    async call(...args: (string | number)[]) {
      const cmd = args.join(' ');
      log.push(`${name}: ${cmd}`);
      if (cmd === 'INFO persistence') return `rdb_saves:${s.saves ?? 0}\r\nrdb_bgsave_in_progress:${s.saving ? 1 : 0}\r\n`;
      if (cmd === 'INFO replication') return s.replicaOffset !== undefined ? `role:slave\r\nslave_repl_offset:${s.replicaOffset}\r\n` : `role:master\r\nmaster_repl_offset:${s.offset ?? 0}\r\n`;
      return 'OK';
    },
  };
}

const spec = (shards: number): BackupConsistentStartTaskSpec => ({
  backupId: '00000000-0000-4000-8000-000000000001', clusterId: '00000000-0000-4000-8000-000000000002', pauseTimeoutMs: 2000,
  shards: Array.from({ length: shards }, (_, i) => ({
    shard: i, primary: { host: `p${i}`, port: 1 }, source: { host: `r${i}`, port: 2, instanceId: `00000000-0000-4000-8000-00000000001${i}`, role: 'replica' as const },
  })),
});

describe('consistentStart', () => {
  it('pauses every primary before any snapshot starts, and unpauses only after the last one started', async () => {
    const log: string[] = [];
    const conns: Record<string, AdminConn> = {
      p0: engine('p0', log, { offset: 100 }), r0: engine('r0', log, { replicaOffset: 100, saves: 4 }),
      p1: engine('p1', log, { offset: 7 }), r1: engine('r1', log, { replicaOffset: 7, saves: 9 }),
    };
    const r = await consistentStart(spec(2), { connect: async (host) => conns[host]! });
    expect(r.shards.map((s) => s.savesBefore)).toEqual([4, 9]);
    expect(r.writePauseMs).toBeGreaterThanOrEqual(0);
    const at = (cmd: string) => log.indexOf(cmd);
    const lastPause = Math.max(at('p0: CLIENT PAUSE 2000 WRITE'), at('p1: CLIENT PAUSE 2000 WRITE'));
    const firstSave = Math.min(at('r0: BGSAVE'), at('r1: BGSAVE'));
    const lastSave = Math.max(at('r0: BGSAVE'), at('r1: BGSAVE'));
    const firstUnpause = Math.min(at('p0: CLIENT UNPAUSE'), at('p1: CLIENT UNPAUSE'));
    expect(lastPause).toBeLessThan(firstSave);
    expect(lastSave).toBeLessThan(firstUnpause);
  });

  it('refuses when a snapshot already runs on a source, without pausing anything', async () => {
    const log: string[] = [];
    const conns: Record<string, AdminConn> = { p0: engine('p0', log, {}), r0: engine('r0', log, { replicaOffset: 0, saving: true }) };
    await expect(consistentStart(spec(1), { connect: async (host) => conns[host]! })).rejects.toThrow(/already running/);
    expect(log.some((l) => l.includes('PAUSE'))).toBe(false);
  });

  it('unpauses every primary when a replica does not catch up, and starts no snapshot', async () => {
    const log: string[] = [];
    let t = 0;
    const conns: Record<string, AdminConn> = {
      p0: engine('p0', log, { offset: 50 }), r0: engine('r0', log, { replicaOffset: 40 }),
      p1: engine('p1', log, { offset: 5 }), r1: engine('r1', log, { replicaOffset: 5 }),
    };
    await expect(consistentStart(spec(2), { connect: async (host) => conns[host]!, catchUpTimeoutMs: 10, now: () => (t += 5) }))
      .rejects.toThrow(/shard 1: its replica did not catch up with the paused primary \(offset 40 of 50\)/);
    expect(log.filter((l) => l.endsWith('CLIENT UNPAUSE')).sort()).toEqual(['p0: CLIENT UNPAUSE', 'p1: CLIENT UNPAUSE']);
    expect(log.some((l) => l.endsWith('BGSAVE'))).toBe(false);
  });
});

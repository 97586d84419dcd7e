import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { NodeStore } from './node.store';

/** A pool that answers like PostgreSQL for the few queries the node store sends, and counts them. */
function fakePool(row: Record<string, unknown>) {
  const sent: string[] = [];
  const pool = {
    query: async (text: string) => {
      sent.push(text.split(' ').slice(0, 2).join(' '));
      return { rows: text.startsWith('SELECT') ? [{ ...row }] : [], rowCount: 1 };
    },
  };
  return { pool: pool as unknown as pg.Pool, sent };
}

const row = {
  id: 'n1', name: 'node-1', address: '10.0.0.1', memory_mb: 4096, agent_version: '1', draining: false,
  last_heartbeat_at: new Date(Date.now() - 60_000), created_at: new Date(Date.now() - 120_000),
};

describe('NodeStore: what agents touch every second stays in memory', () => {
  it('writes a heartbeat once, then only when memory or version change', async () => {
    const { pool, sent } = fakePool(row);
    const nodes = new NodeStore(pool);
    for (let i = 0; i < 5; i++) await nodes.heartbeat('n1', 4096, '1');
    expect(sent.filter((q) => q.startsWith('UPDATE'))).toHaveLength(1);
    await nodes.heartbeat('n1', 8192, '1');
    expect(sent.filter((q) => q.startsWith('UPDATE'))).toHaveLength(2);
  });

  it('a restarted control plane forgives the heartbeat PostgreSQL may lag by, and only that', async () => {
    const now = Date.now();
    // Persisted 12 s ago (heartbeats are written every 15 s): the node may have reported a moment ago.
    const { pool } = fakePool({ ...row, last_heartbeat_at: new Date(now - 12_000) });
    const nodes = new NodeStore(pool);
    const [fromDb] = await nodes.list();
    expect(nodes.silentForMs(fromDb!, now)).toBe(0);
    // Persisted 60 s ago: silent at least 45 s, whatever happened since.
    const old = (await new NodeStore(fakePool(row).pool).list())[0]!;
    expect(nodes.silentForMs(old, now)).toBeGreaterThanOrEqual(45_000);
    // Once the node reports to this process, its own clock counts, with nothing forgiven.
    await nodes.heartbeat('n1', 4096, '1');
    const [reported] = await nodes.list();
    expect(nodes.silentForMs(reported!, reported!.lastHeartbeatAt!.getTime() + 6000)).toBe(6000);
    expect(nodes.silentForMs({ ...reported!, lastHeartbeatAt: null })).toBeNull();
  });

  it('rows read through the store carry the newest heartbeat, memory and version', async () => {
    const { pool } = fakePool(row);
    const nodes = new NodeStore(pool);
    await nodes.heartbeat('n1', 4096, '1');
    await nodes.heartbeat('n1', 4096, '1'); // kept in memory only
    const seen = Date.now();
    await nodes.heartbeat('n1', 4096, '1');
    const [listed] = await nodes.list();
    expect(listed!.lastHeartbeatAt!.getTime()).toBeGreaterThanOrEqual(seen - 5);
    expect((await nodes.get('n1'))!.lastHeartbeatAt!.getTime()).toBeGreaterThanOrEqual(seen - 5);
  });

  it('looks a credential up once, and still returns the newest heartbeat and draining flag', async () => {
    const { pool, sent } = fakePool(row);
    const nodes = new NodeStore(pool);
    expect((await nodes.byCredential('h'))!.id).toBe('n1');
    await nodes.heartbeat('n1', 2048, '2');
    const again = await nodes.byCredential('h');
    expect(sent.filter((q) => q === 'SELECT *')).toHaveLength(1);
    expect(again!.memoryMb).toBe(2048);
    expect(again!.agentVersion).toBe('2');
    await nodes.setDraining('n1', true); // drops the cached row: the next lookup reads it again
    await nodes.byCredential('h');
    expect(sent.filter((q) => q === 'SELECT *')).toHaveLength(2);
  });
});

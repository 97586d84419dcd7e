import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { InstanceDirectory } from './instance-directory';

/** A pool answering the directory's three queries; each load takes `ms` and sees the instances as they are when it starts. */
function fakePool(ms: number) {
  const state = { instances: [] as { id: string }[], loads: 0 };
  const pool = {
    query: async (sql: string) => {
      const rows = state.instances.map((i) => ({ id: i.id, cluster_id: 'c', cluster_name: 'n', organization_id: 'o', shard_index: 0, node_id: 'x', node_name: 'node-1', address: '127.0.0.1', port: 7000 }));
      if (sql.includes('FROM instances')) state.loads++;
      await new Promise((r) => setTimeout(r, ms));
      return { rows: sql.includes('FROM instances') ? rows : [] };
    },
  } as unknown as pg.Pool;
  return { pool, state };
}
// Fake timers: the loads' and the directory's timers run when the test moves the clock, not when a loaded machine
// gets round to them.
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('InstanceDirectory', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('reloads once for a burst of announced changes, and not at all while nothing changes', async () => {
    const { pool, state } = fakePool(1);
    const d = new InstanceDirectory(pool, 60_000, 10);
    const first = d.reload();
    await sleep(1);
    await first;
    expect(state.loads).toBe(1);
    state.instances.push({ id: 'i1' });
    for (let i = 0; i < 5; i++) d.changed();
    await sleep(50);
    expect(state.loads).toBe(2);
    expect(d.get('i1')?.nodeName).toBe('node-1');
    await sleep(50);
    expect(state.loads).toBe(2);
  });

  it('a change announced during a load is loaded after it (that load may have read before the change)', async () => {
    const { pool, state } = fakePool(30);
    const d = new InstanceDirectory(pool, 60_000, 1);
    const first = d.reload();
    await sleep(10);
    state.instances.push({ id: 'i2' });
    const joined = d.reload(); // joins the load under way
    await sleep(20);
    await joined;
    await first;
    expect(d.get('i2')).toBeUndefined();
    await sleep(80);
    expect(state.loads).toBe(2);
    expect(d.get('i2')).toBeDefined();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { migratedPostgres } from './helpers/migrated-postgres';
import { InstanceDirectory } from '../src/metrics/instance-directory';
import { MetricsStore } from '../src/metrics/metrics.store';
import { MetricsIngest } from '../src/metrics/metrics-ingest';
import { MetricsQuery } from '../src/metrics/metrics-query';
import { seedFleet, syntheticSample } from './helpers/metrics-fixtures';

// PostgreSQL history with a simulated clock: 1 s points, minute rollups, retention by partition.
let dir: string;
let stopPg: () => Promise<void>;
let pool: pg.Pool;
let fleet: Awaited<ReturnType<typeof seedFleet>>;
let clock = 0;
const log = pino({ level: 'silent' });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-metrics-history-'));
  ({ pool, stop: stopPg } = await migratedPostgres(dir, { max: 4 }));
  fleet = await seedFleet(pool, { nodes: 2, clusters: 1, shards: 2 });
});
afterAll(async () => {
  await stopPg?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('metrics history in PostgreSQL', () => {
  it('stores 1 s points and 1 min rollups, and answers ranges from each', async () => {
    const now = Math.floor(Date.now() / 60_000) * 60; // a whole minute, unix seconds
    const start = now - 4 * 60; // four minutes of history ending now
    clock = start * 1000;
    const directory = new InstanceDirectory(pool);
    const store = new MetricsStore(pool, { rawRetentionHours: 6, rollupRetentionDays: 30 });
    const ingest = new MetricsIngest({ directory, store, log, hotSeconds: 120, now: () => clock });
    await directory.reload();
    await store.maintainPartitions(start);
    const c = fleet.clusters[0]!;
    let sent = 0;
    for (let sec = start; sec < now; sec++) {
      clock = sec * 1000 + 50;
      for (const inst of c.instances) {
        const ops = 1000 + (sec % 60) * 10; // varies within each minute
        sent += ops;
        const r = await ingest.ingest(inst.nodeId, { host: [], instances: [syntheticSample(inst.id, c.id, sec * 1000, ops)] });
        expect(r).toEqual({ accepted: 1, rejected: 0 });
      }
    }
    clock = (now + 70) * 1000;
    ingest.closeIdleMinutes();
    await ingest.flush();
    expect(ingest.stats.flushFailures).toBe(0);
    expect(ingest.stats.rowsWritten.instance1s).toBe(4 * 60 * 2);
    expect(ingest.stats.rowsWritten.instance1m).toBe(4 * 2);

    // Rollups: one row per instance and minute, ops averaged, percentiles from the merged histogram.
    const rows = (await pool.query('SELECT ts, ops_read + ops_write AS ops, latency_p50, latency_p999 FROM metric_instance_1m ORDER BY ts')).rows;
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      expect(row.ops).toBeCloseTo(1000 + 29.5 * 10, 0);
      expect(row.latency_p50).toBeGreaterThan(4);
      expect(row.latency_p50).toBeLessThanOrEqual(8);
      expect(row.latency_p999).toBeGreaterThan(8);
      expect(row.latency_p999).toBeLessThanOrEqual(16);
    }

    // The same four minutes read from 1 s points and from rollups agree on the total.
    const query = new MetricsQuery({ hot: ingest.hot, directory, store, hotSeconds: 120, rawRetentionSec: 6 * 3600, now: () => clock });
    const raw = await query.cluster(c.id, ['ops'], 'cluster', { from: start, to: now, step: 60, source: 'raw' });
    const rollup = await query.cluster(c.id, ['ops'], 'cluster', { from: start, to: now, step: 60, source: 'rollup' });
    const total = (vs: (number | null)[]) => vs.reduce<number>((s, v) => s + (v ?? 0), 0) * 60;
    expect(total(raw.series[0]!.values)).toBeCloseTo(sent, -2);
    expect(total(rollup.series[0]!.values)).toBeCloseTo(sent, -2);
    const byShard = await query.cluster(c.id, ['ops'], 'shard', { from: start, to: now, step: 60, source: 'rollup' });
    expect(byShard.series).toHaveLength(2);
  });

  it('keeps storage per series bounded: bytes per instance per day', async () => {
    const size = async (table: string) => {
      const r = await pool.query(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1`, [table]);
      const n = (await pool.query(`SELECT count(*)::float8 AS n FROM ${table}`)).rows[0].n as number;
      return (r.rows[0].bytes as number) / n;
    };
    // Grow the raw table so per-row size is not dominated by empty pages.
    const c = fleet.clusters[0]!;
    const inst = c.instances[0]!;
    const store = new MetricsStore(pool, { rawRetentionHours: 6, rollupRetentionDays: 30 });
    const base = Math.floor(Date.now() / 3_600_000) * 3600 - 3600;
    await store.maintainPartitions(base + 3600);
    const values = syntheticSample(inst.id, c.id, 0, 1000);
    const rows = Array.from({ length: 3600 }, (_, i) => ({ sec: base + i, instanceId: inst.id, clusterId: c.id, shard: 0, isPrimary: true, values: [values.reads, values.writes, 2, 6, 10, 14, 15, 12, 3e6, 2.6e8, 1e4, 0, 1, 600, 3, Number.NaN, 6e4, 4e4, 0.01] }));
    await store.insertInstances('1s', rows);
    await pool.query('VACUUM ANALYZE metric_instance_1s');
    const perRow = await size('metric_instance_1s');
    const rawPerDay = perRow * 86_400;
    const rollupPerDay = perRow * 1440;
    console.log(`~${perRow.toFixed(0)} bytes per point (row + index): 1 s points ${(rawPerDay / 1e6).toFixed(1)} MB per instance per day (kept 6 h: ${(rawPerDay / 4 / 1e6).toFixed(1)} MB), 1 min rollups ${(rollupPerDay / 1e6).toFixed(2)} MB per day (kept 30 d: ${(rollupPerDay * 30 / 1e6).toFixed(1)} MB)`);
    expect(perRow).toBeGreaterThan(50);
    expect(perRow).toBeLessThan(400);
  });

  it('drops partitions past retention and refuses samples older than the partitions kept', async () => {
    const store = new MetricsStore(pool, { rawRetentionHours: 1, rollupRetentionDays: 1 });
    const later = Math.floor(Date.now() / 1000) + 3 * 86_400;
    const dropped = await store.maintainPartitions(later);
    expect(dropped.some((n) => n.startsWith('metric_instance_1s_p'))).toBe(true);
    expect(dropped.some((n) => n.startsWith('metric_instance_1m_p'))).toBe(true);
    expect(Number((await pool.query('SELECT count(*) FROM metric_instance_1s')).rows[0].count)).toBe(0);
    expect(Number((await pool.query('SELECT count(*) FROM metric_instance_1m')).rows[0].count)).toBe(0);
    // The partitions for "now" exist again for new rows.
    const names = (await pool.query("SELECT relname FROM pg_class WHERE relname LIKE 'metric_instance_1s_p%'")).rows.map((r) => r.relname as string);
    expect(names.length).toBeGreaterThanOrEqual(3);

    const directory = new InstanceDirectory(pool);
    const ingest = new MetricsIngest({ directory, store, log, hotSeconds: 120, now: () => later * 1000 });
    await directory.reload();
    const inst = fleet.clusters[0]!.instances[0]!;
    const stale = await ingest.ingest(inst.nodeId, { host: [], instances: [syntheticSample(inst.id, fleet.clusters[0]!.id, (later - 3 * 3600) * 1000, 5)] });
    expect(stale).toEqual({ accepted: 0, rejected: 1 });
  });
});

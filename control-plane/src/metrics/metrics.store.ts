/**
 * PostgreSQL history of metrics: 1 s points (hourly partitions, kept
 * `rawRetentionHours`) and 1 min rollups (daily partitions, kept
 * `rollupRetentionDays`). Retention drops whole partitions.
 */
import type pg from 'pg';
import { INSTANCE_FIELDS, NODE_FIELDS, PRIMARY_SLOT } from './fields';

export type Resolution = '1s' | '1m';

export interface InstanceRow {
  sec: number;
  instanceId: string;
  clusterId: string;
  shard: number;
  isPrimary: boolean;
  values: ArrayLike<number>;
}

export interface NodeRow {
  sec: number;
  nodeId: string;
  values: ArrayLike<number>;
}

export interface RetentionOptions {
  rawRetentionHours: number;
  rollupRetentionDays: number;
}

const HOUR = 3600;
const DAY = 86_400;
const MAX_OF = new Set(['latency_p50', 'latency_p95', 'latency_p99', 'latency_p999', 'repl_lag']);
/** Rows of a metrics insert built between two turns of the event loop. */
const ROWS_PER_SLICE = 500;
const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);

const partitionSpan = (r: Resolution) => (r === '1s' ? HOUR : DAY);
const pad = (n: number) => String(n).padStart(2, '0');
function partitionName(parent: string, r: Resolution, startSec: number): string {
  const d = new Date(startSec * 1000);
  const day = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  return `${parent}_p${day}${r === '1s' ? `_${pad(d.getUTCHours())}` : ''}`;
}

export class MetricsStore {
  constructor(private readonly pool: pg.Pool, readonly retention: RetentionOptions) {}

  /** The oldest second a row of this resolution may carry (older partitions may be gone). */
  acceptFrom(r: Resolution, nowSec: number): number {
    const span = partitionSpan(r);
    return Math.floor(nowSec / span) * span - span;
  }

  /**
   * One INSERT per call. Rows travel as one JSON parameter (json_to_recordset):
   * far cheaper to serialize than two dozen typed arrays; NaN becomes null.
   */
  async insertInstances(r: Resolution, rows: InstanceRow[]): Promise<number> {
    if (!rows.length) return 0;
    // Written as text, a slice of rows at a time with the event loop free in between: built as one
    // JSON.stringify of objects, a second of 4,000 instances blocked it for 30-60 ms (API requests waited).
    const parts: string[] = [];
    for (let n = 0; n < rows.length; n++) {
      if (n > 0 && n % ROWS_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const x = rows[n]!;
      let s = `{"t":${x.sec},"i":${JSON.stringify(x.instanceId)},"c":${JSON.stringify(x.clusterId)},"s":${x.shard},"p":${x.isPrimary}`;
      for (let k = 0; k < INSTANCE_FIELDS.length; k++) s += `,"v${k}":${finite(x.values[k]) ?? 'null'}`;
      parts.push(`${s}}`);
    }
    const json = `[${parts.join(',')}]`;
    const cols = INSTANCE_FIELDS.map((_, k) => `v${k}`);
    await this.pool.query(
      `INSERT INTO metric_instance_${r} (ts, instance_id, cluster_id, shard, is_primary, ${INSTANCE_FIELDS.join(', ')})
       SELECT to_timestamp(t), i, c, s, p, ${cols.join(', ')}
         FROM json_to_recordset($1::json) AS x(t float8, i uuid, c uuid, s int2, p bool, ${cols.map((c) => `${c} float8`).join(', ')})`,
      [json],
    );
    return rows.length;
  }

  async insertNodes(r: Resolution, rows: NodeRow[]): Promise<number> {
    if (!rows.length) return 0;
    const params = [rows.map((x) => x.sec), rows.map((x) => x.nodeId), ...NODE_FIELDS.map((_, i) => rows.map((row) => finite(row.values[i])))];
    await this.pool.query(
      `INSERT INTO metric_node_${r} (ts, node_id, ${NODE_FIELDS.join(', ')})
       SELECT to_timestamp(t), n, ${NODE_FIELDS.map((_, i) => `v${i}`).join(', ')}
         FROM unnest($1::float8[], $2::uuid[], ${NODE_FIELDS.map((_, i) => `$${i + 3}::float8[]`).join(', ')}) AS u(t, n, ${NODE_FIELDS.map((_, i) => `v${i}`).join(', ')})`,
      params,
    );
    return rows.length;
  }

  /** Creates the partitions rows may land in soon, drops those past retention. Returns dropped partition names. */
  async maintainPartitions(nowSec: number): Promise<string[]> {
    const dropped: string[] = [];
    for (const [parent, r, keepSec] of [
      ['metric_instance_1s', '1s', this.retention.rawRetentionHours * HOUR],
      ['metric_node_1s', '1s', this.retention.rawRetentionHours * HOUR],
      ['metric_instance_1m', '1m', this.retention.rollupRetentionDays * DAY],
      ['metric_node_1m', '1m', this.retention.rollupRetentionDays * DAY],
    ] as const) {
      const span = partitionSpan(r);
      for (let start = this.acceptFrom(r, nowSec); start <= nowSec + 2 * span; start += span) {
        const name = partitionName(parent, r, start);
        try {
          await this.pool.query(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${parent} FOR VALUES FROM (to_timestamp(${start})) TO (to_timestamp(${start + span}))`);
        } catch (err) {
          // Another control plane created it at the same moment.
          if ((err as { code?: string }).code !== '42P07' && (err as { code?: string }).code !== '23505') throw err;
        }
      }
      const parts = await this.pool.query(
        `SELECT c.relname, extract(epoch FROM (regexp_match(pg_get_expr(c.relpartbound, c.oid), 'TO \\(''([^'']+)''\\)'))[1]::timestamptz) AS upper
           FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1`, [parent]);
      for (const row of parts.rows) {
        if (Number(row.upper) <= nowSec - keepSec) {
          await this.pool.query(`DROP TABLE IF EXISTS ${row.relname}`);
          dropped.push(row.relname);
        }
      }
    }
    return dropped;
  }

  /**
   * Per instance and step bucket: averages (maximum for latency and lag) of
   * one cluster's instances. Values come back in INSTANCE_FIELDS order with
   * the primary flag at PRIMARY_SLOT.
   */
  async queryCluster(r: Resolution, clusterId: string, fromSec: number, toSec: number, step: number): Promise<Map<string, { shard: number; buckets: Map<number, number[]> }>> {
    const agg = INSTANCE_FIELDS.map((f) => `${MAX_OF.has(f) ? 'max' : 'avg'}(${f})::float8 AS ${f}`).join(', ');
    const res = await this.pool.query(
      `SELECT instance_id, (floor(extract(epoch FROM ts) / $4) * $4)::float8 AS b, bool_or(is_primary) AS p, max(shard) AS shard, ${agg}
         FROM metric_instance_${r} WHERE cluster_id = $1 AND ts >= to_timestamp($2) AND ts < to_timestamp($3)
        GROUP BY instance_id, b`,
      [clusterId, fromSec, toSec, step],
    );
    const out = new Map<string, { shard: number; buckets: Map<number, number[]> }>();
    for (const row of res.rows) {
      const values = INSTANCE_FIELDS.map((f) => (row[f] === null ? Number.NaN : Number(row[f])));
      values[PRIMARY_SLOT] = row.p ? 1 : 0;
      let m = out.get(row.instance_id);
      if (!m) out.set(row.instance_id, (m = { shard: Number(row.shard), buckets: new Map() }));
      m.buckets.set(Number(row.b), values);
    }
    return out;
  }

  async queryNode(r: Resolution, nodeId: string, fromSec: number, toSec: number, step: number): Promise<Map<number, number[]>> {
    const res = await this.pool.query(
      `SELECT (floor(extract(epoch FROM ts) / $4) * $4)::float8 AS b, ${NODE_FIELDS.map((f) => `avg(${f})::float8 AS ${f}`).join(', ')}
         FROM metric_node_${r} WHERE node_id = $1 AND ts >= to_timestamp($2) AND ts < to_timestamp($3) GROUP BY b`,
      [nodeId, fromSec, toSec, step],
    );
    return new Map(res.rows.map((row) => [Number(row.b), NODE_FIELDS.map((f) => (row[f] === null ? Number.NaN : Number(row[f])))]));
  }
}

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

/** Rows for each metrics table, written together by {@link MetricsStore.insert}. */
export interface MetricRows {
  instance1s?: InstanceRow[];
  instance1m?: InstanceRow[];
  node1s?: NodeRow[];
  node1m?: NodeRow[];
}

/**
 * Instance rows as a JSON array, built as text a slice of rows at a time with
 * the event loop free in between: built as one JSON.stringify of objects, a
 * second of 4,000 instances blocked it for 30-60 ms (API requests waited).
 */
async function instanceJson(rows: InstanceRow[]): Promise<string> {
  const parts: string[] = [];
  for (let n = 0; n < rows.length; n++) {
    if (n > 0 && n % ROWS_PER_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const x = rows[n]!;
    let s = `{"t":${x.sec},"i":${JSON.stringify(x.instanceId)},"c":${JSON.stringify(x.clusterId)},"s":${x.shard},"p":${x.isPrimary}`;
    for (let k = 0; k < INSTANCE_FIELDS.length; k++) s += `,"v${k}":${finite(x.values[k]) ?? 'null'}`;
    parts.push(`${s}}`);
  }
  return `[${parts.join(',')}]`;
}

/** Node rows as a JSON array (one row per node and second: few). */
function nodeJson(rows: NodeRow[]): string {
  return `[${rows.map((x) => {
    let s = `{"t":${x.sec},"n":${JSON.stringify(x.nodeId)}`;
    for (let k = 0; k < NODE_FIELDS.length; k++) s += `,"v${k}":${finite(x.values[k]) ?? 'null'}`;
    return `${s}}`;
  }).join(',')}]`;
}

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

  /** One INSERT of instance rows (see {@link insert}). */
  async insertInstances(r: Resolution, rows: InstanceRow[]): Promise<number> {
    await this.insert(r === '1s' ? { instance1s: rows } : { instance1m: rows });
    return rows.length;
  }

  /** One INSERT of node rows (see {@link insert}). */
  async insertNodes(r: Resolution, rows: NodeRow[]): Promise<number> {
    await this.insert(r === '1s' ? { node1s: rows } : { node1m: rows });
    return rows.length;
  }

  /**
   * Writes rows of any of the four tables in one statement (one INSERT per
   * table in a WITH, so one round trip and one commit for a second's rows).
   * Each table's rows travel as one JSON parameter (json_to_recordset): far
   * cheaper to serialize than two dozen typed arrays; NaN becomes null. The
   * statement is a named prepared one (per combination of tables), parsed and
   * planned once per connection.
   */
  async insert(batch: MetricRows): Promise<void> {
    const parts: string[] = [];
    const names: string[] = [];
    const params: string[] = [];
    const instanceCols = INSTANCE_FIELDS.map((_, k) => `v${k}`);
    const nodeCols = NODE_FIELDS.map((_, k) => `v${k}`);
    for (const r of ['1s', '1m'] as const) {
      const rows = r === '1s' ? batch.instance1s : batch.instance1m;
      if (!rows?.length) continue;
      params.push(await instanceJson(rows));
      names.push(`i${r}`);
      parts.push(`INSERT INTO metric_instance_${r} (ts, instance_id, cluster_id, shard, is_primary, ${INSTANCE_FIELDS.join(', ')})
        SELECT to_timestamp(t), i, c, s, p, ${instanceCols.join(', ')}
          FROM json_to_recordset($${params.length}::json) AS x(t float8, i uuid, c uuid, s int2, p bool, ${instanceCols.map((c) => `${c} float8`).join(', ')})`);
    }
    for (const r of ['1s', '1m'] as const) {
      const rows = r === '1s' ? batch.node1s : batch.node1m;
      if (!rows?.length) continue;
      params.push(nodeJson(rows));
      names.push(`n${r}`);
      parts.push(`INSERT INTO metric_node_${r} (ts, node_id, ${NODE_FIELDS.join(', ')})
        SELECT to_timestamp(t), n, ${nodeCols.join(', ')}
          FROM json_to_recordset($${params.length}::json) AS x(t float8, n uuid, ${nodeCols.map((c) => `${c} float8`).join(', ')})`);
    }
    if (!parts.length) return;
    const sql = parts.length === 1 ? parts[0]! : `WITH ${parts.map((p, i) => `w${i} AS (${p})`).join(', ')} SELECT 1`;
    await this.pool.query({ name: `metrics-insert-${names.join('-')}`, text: sql, values: params });
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

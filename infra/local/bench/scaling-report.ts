/**
 * The scaling study's outputs (see scaling.bench.ts): one row per shard
 * count, written as CSV and drawn as an SVG like the RethinkDB report's
 * graphs (throughput and p95 against shards), with each shard's ops so skew
 * is not mistaken for a scaling problem.
 */

export interface ScalingRow {
  shards: number;
  opsPerSec: number;
  /** p95 service time of the workload's main op (read for YCSB), microseconds */
  p95Us: number;
  p99Us: number;
  /** ops/s each primary served in the steady window (client side), sorted by endpoint */
  shardOpsPerSec: number[];
  /** hottest shard's ops / mean shard ops */
  skew: number;
  clientCpu: number;
  valid: boolean;
  reasons: string[];
  benchmarkId: string;
}

export function toCsv(rows: readonly ScalingRow[]): string {
  const head = 'shards,ops_per_sec,p95_us,p99_us,skew,client_cpu,valid,shard_ops_per_sec,reasons';
  const lines = rows.map((r) =>
    [r.shards, Math.round(r.opsPerSec), r.p95Us, r.p99Us, r.skew.toFixed(3), r.clientCpu.toFixed(2), r.valid, r.shardOpsPerSec.map((x) => Math.round(x)).join(' '), JSON.stringify(r.reasons.join('; '))].join(','),
  );
  return [head, ...lines].join('\n') + '\n';
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Rounds a maximum up to a readable axis end (1, 2 or 5 x 10^k). */
export function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (v <= m * p) return m * p;
  return 10 * p;
}

/** Two panels side by side: throughput (with each shard's ops as dots) and p95 latency, against the shard count. */
export function toSvg(rows: readonly ScalingRow[], title: string): string {
  const W = 420;
  const H = 280;
  const m = { l: 70, r: 20, t: 40, b: 50 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const xs = rows.map((r) => r.shards);
  const xMin = Math.min(...xs, 1);
  const xMax = Math.max(...xs, xMin + 1);
  const x = (v: number) => m.l + ((v - xMin) / (xMax - xMin)) * pw;
  const panel = (ox: number, label: string, values: number[], fmt: (v: number) => string, color: string, dots?: number[][]) => {
    const yMax = niceMax(Math.max(...values, ...(dots?.flat() ?? []), 0));
    const y = (v: number) => m.t + ph - (v / yMax) * ph;
    const parts: string[] = [`<g transform="translate(${ox},24)">`];
    parts.push(`<text x="${m.l + pw / 2}" y="${m.t - 14}" text-anchor="middle" font-size="13" font-weight="600">${esc(label)}</text>`);
    for (let i = 0; i <= 4; i++) {
      const v = (yMax * i) / 4;
      parts.push(`<line x1="${m.l}" x2="${m.l + pw}" y1="${y(v)}" y2="${y(v)}" stroke="#eef0f3"/>`);
      parts.push(`<text x="${m.l - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#5b6372">${esc(fmt(v))}</text>`);
    }
    for (const s of xs) parts.push(`<text x="${x(s)}" y="${m.t + ph + 18}" text-anchor="middle" font-size="11" fill="#5b6372">${s}</text>`);
    parts.push(`<text x="${m.l + pw / 2}" y="${H - 10}" text-anchor="middle" font-size="12">shards</text>`);
    parts.push(`<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${m.t + ph}" stroke="#5b6372"/><line x1="${m.l}" x2="${m.l + pw}" y1="${m.t + ph}" y2="${m.t + ph}" stroke="#5b6372"/>`);
    dots?.forEach((ds, i) => ds.forEach((d) => parts.push(`<circle cx="${x(xs[i]!)}" cy="${y(d)}" r="3" fill="#0c8599" fill-opacity="0.6"><title>one shard: ${esc(fmt(d))}</title></circle>`)));
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${values.map((v, i) => `${x(xs[i]!)},${y(v)}`).join(' ')}"/>`);
    values.forEach((v, i) => parts.push(`<circle cx="${x(xs[i]!)}" cy="${y(v)}" r="4" fill="${rows[i]!.valid ? color : '#fff'}" stroke="${color}" stroke-width="2"><title>${xs[i]} shards: ${esc(fmt(v))}${rows[i]!.valid ? '' : ' (invalid: ' + esc(rows[i]!.reasons.join('; ')) + ')'}</title></circle>`));
    parts.push('</g>');
    return parts.join('\n');
  };
  const ops = (v: number) => (v >= 1000 ? `${+(v / 1000).toFixed(1)}k` : String(Math.round(v)));
  const us = (v: number) => (v >= 1000 ? `${+(v / 1000).toFixed(2)} ms` : `${Math.round(v)} µs`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H + 54}" font-family="sans-serif">`,
    `<text x="${W}" y="18" text-anchor="middle" font-size="14" font-weight="700">${esc(title)}</text>`,
    panel(0, 'Throughput (ops/s); dots: each shard', rows.map((r) => r.opsPerSec), ops, '#3b5bdb', rows.map((r) => r.shardOpsPerSec)),
    panel(W, 'p95 latency', rows.map((r) => r.p95Us), us, '#d98b06'),
    `<text x="10" y="${H + 46}" font-size="11" fill="#5b6372">Hollow points: runs marked invalid (reason in the tooltip and the CSV).</text>`,
    '</svg>',
  ].join('\n');
}

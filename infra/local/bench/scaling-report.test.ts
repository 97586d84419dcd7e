import { describe, expect, it } from 'vitest';
import { niceMax, toCsv, toSvg, type ScalingRow } from './scaling-report';

const row = (shards: number, opsPerSec: number, valid = true): ScalingRow => ({
  shards, opsPerSec, p95Us: 300 * shards, p99Us: 900, shardOpsPerSec: Array.from({ length: shards }, () => opsPerSec / shards), skew: 1.1, clientCpu: 0.5, valid, reasons: valid ? [] : ['client-cpu: busy <95%>'], benchmarkId: 'b',
});

describe('scaling report', () => {
  it('CSV: one line per shard count with per-shard ops', () => {
    const csv = toCsv([row(1, 1000), row(2, 1800)]).trim().split('\n');
    expect(csv[0]).toBe('shards,ops_per_sec,p95_us,p99_us,skew,client_cpu,valid,shard_ops_per_sec,reasons');
    expect(csv[2]).toBe('2,1800,600,900,1.100,0.50,true,900 900,""');
  });

  it('SVG: a point per run on each panel, each shard as a dot, invalid runs hollow and escaped', () => {
    const svg = toSvg([row(1, 1000), row(2, 1800), row(3, 2000, false)], 'YCSB C <test>');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('YCSB C &lt;test&gt;');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/one shard:/g)).toHaveLength(6);
    expect(svg).toContain('invalid: client-cpu: busy &lt;95%&gt;');
    expect(svg).toContain('fill="#fff"');
  });

  it('axis ends are readable', () => {
    expect([0, 0.7, 1, 3, 7, 12, 480, 1800].map(niceMax)).toEqual([1, 1, 1, 5, 10, 20, 500, 2000]);
  });
});

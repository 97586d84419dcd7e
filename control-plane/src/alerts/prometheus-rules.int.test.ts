/**
 * The exported rule file against the real promtool (Debian's prometheus
 * package): `promtool check rules` accepts it and `promtool test rules` shows
 * each exported rule firing on series named as Strata's /metrics names them,
 * only after its `for`, and not below its threshold.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { alertName, prometheusRuleFile, ruleSummary, type ExportRule } from './prometheus-rules';

const cluster = { id: '0b7c3a52-7f57-4a9e-9d1e-0c2f1d3e4a5b', name: 'orders-cache' };
const other = { id: '9f1d2c3b-1111-4a9e-9d1e-0c2f1d3e4a5b', name: 'other' };
const rule = (id: string, metric: ExportRule['metric'], threshold: number, forSeconds: number, c = cluster): ExportRule =>
  ({ id: `${id}000000-0000-4000-8000-000000000000`, name: `${metric} high`, metric, threshold, forSeconds, cluster: c });

const RULES = [
  rule('a1', 'memory_used_percent', 80, 60),
  rule('a2', 'ops_per_sec', 100, 60),
  rule('a3', 'latency_p99_ms', 5, 60),
  rule('a4', 'replication_lag_bytes', 1000, 60),
  rule('a5', 'connected_clients', 10, 60),
  rule('a6', 'evictions', 1, 60),
  rule('a7', 'cluster_degraded', 0, 120),
  rule('a8', 'node_down', 0, 60),
  rule('a9', 'failover', 0, 300),
  rule('b1', 'memory_used_percent', 80, 60, other),
];

const L = (extra: string, inst = 'i1', role = 'primary', node = 'node-1') =>
  `{cluster="orders-cache",cluster_id="${cluster.id}",shard="0",instance="${inst}",node="${node}",role="${role}"${extra}}`;

/** Series: orders-cache goes over every threshold from minute 2 on; `other` stays below. */
const TEST = `rule_files: [rules.yml]
evaluation_interval: 15s
tests:
  - interval: 15s
    input_series:
      - series: 'strata_redis_memory_used_bytes${L('')}'
        values: '50+0x7 90+0x20'
      - series: 'strata_redis_memory_max_bytes${L('')}'
        values: '100+0x28'
      - series: 'strata_redis_memory_used_bytes{cluster="other",cluster_id="${other.id}",shard="0",instance="o1",node="node-1",role="primary"}'
        values: '10+0x28'
      - series: 'strata_redis_memory_max_bytes{cluster="other",cluster_id="${other.id}",shard="0",instance="o1",node="node-1",role="primary"}'
        values: '100+0x28'
      - series: 'strata_redis_commands_total${L(',class="read"')}'
        values: '0+0x7 0+3000x20'
      - series: 'strata_redis_commands_total${L(',class="write"', 'i2', 'replica', 'node-2')}'
        values: '0+100000x28'
      - series: 'strata_redis_command_latency_seconds_bucket${L(',le="0.001"')}'
        values: '0+100x7 700+0x20'
      - series: 'strata_redis_command_latency_seconds_bucket${L(',le="0.01"')}'
        values: '0+100x7 700+100x20'
      - series: 'strata_redis_command_latency_seconds_bucket${L(',le="+Inf"')}'
        values: '0+100x7 700+100x20'
      - series: 'strata_redis_replication_lag_bytes${L('', 'i2', 'replica', 'node-2')}'
        values: '0+0x7 5000+0x20'
      - series: 'strata_redis_connected_clients${L('')}'
        values: '2+0x7 50+0x20'
      - series: 'strata_redis_evicted_keys_total${L('')}'
        values: '0+0x7 0+300x20'
      - series: 'strata_redis_up${L('')}'
        values: '1+0x28'
      - series: 'strata_redis_up${L('', 'i2', 'replica', 'node-2')}'
        values: '1+0x7 0+0x20'
      - series: 'strata_node_up{node="node-1",node_id="n1"}'
        values: '1+0x28'
      - series: 'strata_node_up{node="node-2",node_id="n2"}'
        values: '1+0x7 0+0x20'
    alert_rule_test:
${RULES.filter((r) => r.metric !== 'failover').map((r) => `      - eval_time: 2m
        alertname: ${alertName(r)}
        exp_alerts: []
`).join('')}${RULES.filter((r) => r.metric !== 'failover' && r.metric !== 'cluster_degraded' && r.cluster === cluster).map((r) => `      - eval_time: 4m
        alertname: ${alertName(r)}
        exp_alerts:
          - exp_labels: { strata_rule_id: "${r.id}", metric: "${r.metric}", cluster: "orders-cache", cluster_id: "${cluster.id}" }
            exp_annotations: { summary: ${JSON.stringify(ruleSummary(r, 'orders-cache'))} }
`).join('')}      - eval_time: 3m30s
        alertname: ${alertName(RULES[6]!)}
        exp_alerts: []
      - eval_time: 5m
        alertname: ${alertName(RULES[6]!)}
        exp_alerts:
          - exp_labels: { strata_rule_id: "${RULES[6]!.id}", metric: "cluster_degraded", cluster: "orders-cache", cluster_id: "${cluster.id}" }
            exp_annotations: { summary: ${JSON.stringify(ruleSummary(RULES[6]!, 'orders-cache'))} }
      - eval_time: 6m
        alertname: ${alertName(RULES[9]!)}
        exp_alerts: []
`;

describe('Prometheus rule export', () => {
  it('passes promtool check rules and promtool test rules', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'strata-promrules-'));
    try {
      const file = prometheusRuleFile(RULES);
      expect(file).toContain('# failover high (failover): evaluated by Strata only');
      writeFileSync(path.join(dir, 'rules.yml'), file);
      writeFileSync(path.join(dir, 'test.yml'), TEST);
      const check = execFileSync('promtool', ['check', 'rules', path.join(dir, 'rules.yml')], { encoding: 'utf8' });
      expect(check).toContain('SUCCESS: 9 rules found');
      const run = (() => {
        try {
          return execFileSync('promtool', ['test', 'rules', 'test.yml'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' });
        } catch (err) {
          const e = err as { stdout?: string; stderr?: string };
          throw new Error(`promtool test rules failed:\n${e.stdout}\n${e.stderr}`);
        }
      })();
      expect(run).toContain('SUCCESS');
      // An empty export is a valid file too.
      writeFileSync(path.join(dir, 'empty.yml'), prometheusRuleFile([]));
      expect(execFileSync('promtool', ['check', 'rules', path.join(dir, 'empty.yml')], { encoding: 'utf8' })).toContain('SUCCESS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

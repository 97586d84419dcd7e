import { describe, expect, it } from 'vitest';
import { evaluate, type Breach } from './alert-evaluation';
import { gaugeValues } from './alert-values';
import { F, INSTANCE_SLOT_WIDTH, PRIMARY_SLOT } from '../metrics/fields';

const gauge = { threshold: 80, forSeconds: 3, kind: 'gauge' as const };

describe('evaluate', () => {
  it('fires at the first sample forSeconds after the first one above, and resolves at the first sample below', () => {
    const b: Breach = { since: null };
    const steps: [number | null, number, boolean][] = [[50, 100, false], [85, 101, false], [90, 102, false], [91, 103, false], [91, 104, false]];
    const out = steps.map(([value, sec, firing]) => evaluate(gauge, b, firing, { value, sec }).action);
    expect(out).toEqual(['none', 'none', 'none', 'none', 'fire']);
    expect(evaluate(gauge, b, true, { value: 95, sec: 104 }).action).toBe('none');
    expect(evaluate(gauge, b, true, { value: null, sec: 105 }).action).toBe('none');
    expect(evaluate(gauge, b, true, { value: 80, sec: 106 })).toEqual({ action: 'resolve', value: 80 });
    expect(b.since).toBeNull();
  });
  it('a dip below restarts the count; the same second seen twice counts once', () => {
    const b: Breach = { since: null };
    expect(evaluate(gauge, b, false, { value: 90, sec: 10 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 90, sec: 11 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 10, sec: 12 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 90, sec: 13 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 90, sec: 14 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 90, sec: 14 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 90, sec: 15 }).action).toBe('none');
    expect(evaluate(gauge, b, false, { value: 90, sec: 16 }).action).toBe('fire');
  });
  it('events fire while the window holds more than the threshold and resolve when it empties', () => {
    const ev = { threshold: 0, forSeconds: 60, kind: 'event' as const };
    const b: Breach = { since: null };
    expect(evaluate(ev, b, false, { value: 0, sec: 1 }).action).toBe('none');
    expect(evaluate(ev, b, false, { value: 1, sec: 2 })).toEqual({ action: 'fire', value: 1 });
    expect(evaluate(ev, b, true, { value: 2, sec: 3 }).action).toBe('none');
    expect(evaluate(ev, b, true, { value: 0, sec: 70 }).action).toBe('resolve');
  });
});

describe('gaugeValues', () => {
  const row = (o: Partial<Record<keyof typeof F, number>>, primary: boolean) => {
    const r = new Float32Array(INSTANCE_SLOT_WIDTH).fill(Number.NaN);
    for (const [k, v] of Object.entries(o)) r[F[k as keyof typeof F]] = v;
    r[PRIMARY_SLOT] = primary ? 1 : 0;
    return r;
  };
  it('takes the fullest instance, the slowest p99 in ms, sums clients and evictions, counts replica writes once', () => {
    const v = gaugeValues([
      row({ memory_used: 50, memory_max: 100, latency_p99: 1500, clients: 3, evictions: 2, ops_read: 10, ops_write: 5 }, true),
      row({ memory_used: 90, memory_max: 100, latency_p99: 500, clients: 1, evictions: 0, ops_read: 4, ops_write: 5, repl_lag: 1234 }, false),
      row({ memory_used: 10, memory_max: 0, clients: 1, ops_read: 0, ops_write: 0 }, true),
    ]);
    expect(v).toEqual({ memory_used_percent: 90, ops_per_sec: 19, latency_p99_ms: 1.5, replication_lag_bytes: 1234, connected_clients: 5, evictions: 2 });
    expect(gaugeValues([]).memory_used_percent).toBeNull();
  });
});

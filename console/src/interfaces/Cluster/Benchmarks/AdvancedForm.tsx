import { useState, type FormEvent } from 'react';
import type { BenchmarkRequestInput, BenchmarkWorkload } from '@strata/api';
import type { ApiError } from '../../../data/fetcher';
import { Field } from '../../../components/ui/Field';
import { WORKLOAD_LABELS } from './bench-format';

const WORKLOADS = Object.keys(WORKLOAD_LABELS) as BenchmarkWorkload[];

/** Every benchmark parameter; the server validates and names bad fields. */
export function AdvancedForm({ onSubmit, disabled, error }: { onSubmit: (r: BenchmarkRequestInput) => void; disabled: boolean; error: ApiError | null }) {
  const [v, setV] = useState({
    workload: 'ycsb-c' as BenchmarkWorkload, recordCount: '10000', durationSec: '10', warmupSec: '2', connections: '16', pipeline: '1',
    targetOpsPerSec: '', workers: '', valueSize: '100', ratio: '1:1', seed: '',
  });
  const fieldError = (f: string) => error?.fieldErrors.find((e) => e.field === f)?.message;
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV({ ...v, [k]: e.target.value });
  const num = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit({
      workload: v.workload,
      recordCount: num(v.recordCount),
      durationSec: v.workload === 'analytic' ? undefined : num(v.durationSec),
      warmupSec: num(v.warmupSec),
      connections: num(v.connections),
      pipeline: num(v.pipeline),
      targetOpsPerSec: num(v.targetOpsPerSec),
      workers: num(v.workers),
      seed: num(v.seed),
      ...(v.workload === 'getset' ? { valueSize: num(v.valueSize), ratio: v.ratio } : {}),
    });
  };
  return (
    <form className="bench-form" onSubmit={submit} noValidate>
      <Field label="Workload" error={fieldError('workload')}>
        <select className="input" value={v.workload} onChange={set('workload')}>
          {WORKLOADS.map((w) => <option key={w} value={w}>{WORKLOAD_LABELS[w]}</option>)}
        </select>
      </Field>
      <Field label="Records" hint="Loaded before the run; key range for GET/SET" error={fieldError('recordCount')}><input className="input" inputMode="numeric" value={v.recordCount} onChange={set('recordCount')} /></Field>
      <Field label="Steady phase (s)" error={fieldError('durationSec')}><input className="input" inputMode="numeric" value={v.durationSec} onChange={set('durationSec')} /></Field>
      <Field label="Warm-up (s)" hint="Measured but discarded" error={fieldError('warmupSec')}><input className="input" inputMode="numeric" value={v.warmupSec} onChange={set('warmupSec')} /></Field>
      <Field label="Connections" error={fieldError('connections')}><input className="input" inputMode="numeric" value={v.connections} onChange={set('connections')} /></Field>
      <Field label="Pipeline depth" error={fieldError('pipeline')}><input className="input" inputMode="numeric" value={v.pipeline} onChange={set('pipeline')} /></Field>
      <Field label="Target ops/s" hint="Empty: capacity run (closed loop)" error={fieldError('targetOpsPerSec')}><input className="input" inputMode="numeric" value={v.targetOpsPerSec} onChange={set('targetOpsPerSec')} /></Field>
      <Field label="Worker threads" hint="Empty: one per node" error={fieldError('workers')}><input className="input" inputMode="numeric" value={v.workers} onChange={set('workers')} /></Field>
      {v.workload === 'getset' && (
        <>
          <Field label="Value size (bytes)" error={fieldError('valueSize')}><input className="input" inputMode="numeric" value={v.valueSize} onChange={set('valueSize')} /></Field>
          <Field label="SET:GET ratio" error={fieldError('ratio')}><input className="input" value={v.ratio} onChange={set('ratio')} /></Field>
        </>
      )}
      <Field label="Seed" hint="Empty: random; stored with the result" error={fieldError('seed')}><input className="input" inputMode="numeric" value={v.seed} onChange={set('seed')} /></Field>
      <div className="bench-form-actions">
        <button type="submit" className="btn btn-primary" disabled={disabled}>Start benchmark</button>
      </div>
    </form>
  );
}

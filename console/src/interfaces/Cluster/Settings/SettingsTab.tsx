import { useState } from 'react';
import { LIMITS, type Cluster, type Durability, type EvictionPolicy, type MigrationPriority, type Operation, type TopologyPlan, type UpdateClusterRequest, shardLabel, shardName } from '@strata/api';
import { useClusterPlanMutation, useClusterUpdateMutation } from '../../../data/clusters/cluster-update-mutation';
import { useOperationControlMutation } from '../../../data/clusters/operation-control-mutation';
import { useShardSwitchoverMutation } from '../../../data/clusters/shard-switchover-mutation';
import { useClusterTopologyQuery } from '../../../data/clusters/cluster-topology-query';
import { isApiError } from '../../../data/fetcher';
import { isOperationActive } from '../../../data/polling';
import { formatMemoryMb, plural } from '../../../lib/format';
import { Field } from '../../../components/ui/Field';
import { ProgressBar } from '../../../components/ui/ProgressBar';
import { DURABILITY_OPTIONS, EVICTION_OPTIONS, MEMORY_OPTIONS_MB } from '../../ClusterCreate/options';
import { DurabilityAdvice } from '../../Nodes/DurabilityAdvice';
import { PlanPreview } from './PlanPreview';

type Form = { shards: string; replicasPerShard: string; memoryMbPerShard: number; durability: Durability; evictionPolicy: EvictionPolicy; migrationPriority: MigrationPriority };

const PRIORITY_HINTS: Record<MigrationPriority, string> = {
  gentle: 'Smallest steps, one source shard at a time, pausing whenever a primary is busy: slowest, least felt by your application.',
  balanced: 'Short steps, source shards in parallel, pausing when a primary is busy.',
  fast: 'Long steps, never pausing: quickest, but requests on moving shards may wait several milliseconds.',
};

const fromSpec = (c: Cluster): Form => ({
  shards: String(c.spec.shards), replicasPerShard: String(c.spec.replicasPerShard), memoryMbPerShard: c.spec.memoryMbPerShard,
  durability: c.spec.durability, evictionPolicy: c.spec.evictionPolicy, migrationPriority: c.spec.migrationPriority,
});

/** Only the fields that differ from the cluster's spec. */
function changes(c: Cluster, f: Form): UpdateClusterRequest {
  const out: UpdateClusterRequest = {};
  if (Number(f.shards) !== c.spec.shards) out.shards = Number(f.shards);
  if (Number(f.replicasPerShard) !== c.spec.replicasPerShard) out.replicasPerShard = Number(f.replicasPerShard);
  if (f.memoryMbPerShard !== c.spec.memoryMbPerShard) out.memoryMbPerShard = f.memoryMbPerShard;
  if (f.durability !== c.spec.durability) out.durability = f.durability;
  if (f.evictionPolicy !== c.spec.evictionPolicy) out.evictionPolicy = f.evictionPolicy;
  if (f.migrationPriority !== c.spec.migrationPriority) out.migrationPriority = f.migrationPriority;
  return out;
}

/** Settings tab: change the topology with the plan previewed first, follow the migration, switch primaries over. */
export function SettingsTab({ cluster, latest }: { cluster: Cluster; latest: Operation | undefined }) {
  const [form, setForm] = useState<Form>(() => fromSpec(cluster));
  const [plan, setPlan] = useState<{ body: UpdateClusterRequest; plan: TopologyPlan } | null>(null);
  const preview = useClusterPlanMutation(cluster.id);
  const apply = useClusterUpdateMutation(cluster.id);
  const running = latest && isOperationActive(latest.state) ? latest : undefined;
  const body = changes(cluster, form);
  const changed = Object.keys(body).length > 0;
  const error = preview.error ?? apply.error;
  const fieldError = (f: string) => (isApiError(error) ? error.fieldErrors.find((e) => e.field === f)?.message : undefined);
  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((p) => ({ ...p, [k]: v }));
    setPlan(null);
    preview.reset();
  };

  return (
    <div className="stack-lg">
      {latest?.kind === 'update-cluster' && (running || Date.now() - Date.parse(latest.finishedAt ?? latest.updatedAt) < 10 * 60_000) && (
        <MigrationPanel clusterId={cluster.id} operation={latest} />
      )}
      <section className="card form-section" aria-labelledby="settings-title" data-testid="settings-form">
        <h2 id="settings-title" className="card-title">Change the cluster</h2>
        <p className="muted small">Changes run online: slots move with live migration, settings apply without restarts. You see the plan before anything changes.</p>
        <div className="grid-2">
          <Field label="Shards" error={fieldError('shards')} hint={`${LIMITS.shards.min}–${LIMITS.shards.max}. Now ${cluster.spec.shards}.`}>
            <input className="input" type="number" name="shards" min={LIMITS.shards.min} max={LIMITS.shards.max} value={form.shards} onChange={(e) => set('shards', e.target.value)} />
          </Field>
          <Field label="Replicas per shard" error={fieldError('replicasPerShard')} hint={`${LIMITS.replicasPerShard.min}–${LIMITS.replicasPerShard.max}. Now ${cluster.spec.replicasPerShard}.`}>
            <input className="input" type="number" name="replicasPerShard" min={LIMITS.replicasPerShard.min} max={LIMITS.replicasPerShard.max} value={form.replicasPerShard} onChange={(e) => set('replicasPerShard', e.target.value)} />
          </Field>
        </div>
        <div className="grid-2">
          <Field label="Memory per shard" error={fieldError('memoryMbPerShard')}>
            <select className="input" name="memoryMbPerShard" value={form.memoryMbPerShard} onChange={(e) => set('memoryMbPerShard', Number(e.target.value))}>
              {[...new Set([...MEMORY_OPTIONS_MB, cluster.spec.memoryMbPerShard])].sort((a, b) => a - b).map((mb) => <option key={mb} value={mb}>{formatMemoryMb(mb)}</option>)}
            </select>
          </Field>
          <div>
          <Field label="Durability" error={fieldError('durability')}>
            <select className="input" name="durability" value={form.durability} onChange={(e) => set('durability', e.target.value as Durability)}>
              {(Object.keys(DURABILITY_OPTIONS) as Durability[]).map((d) => <option key={d} value={d}>{DURABILITY_OPTIONS[d].title}</option>)}
            </select>
          </Field>
          <DurabilityAdvice durability={form.durability} />
          </div>
        </div>
        <Field label="Eviction policy" error={fieldError('evictionPolicy')} hint={EVICTION_OPTIONS[form.evictionPolicy]}>
          <select className="input" name="evictionPolicy" value={form.evictionPolicy} onChange={(e) => set('evictionPolicy', e.target.value as EvictionPolicy)}>
            {(Object.keys(EVICTION_OPTIONS) as EvictionPolicy[]).map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </Field>
        <Field label="Migration priority" error={fieldError('migrationPriority')} hint={PRIORITY_HINTS[form.migrationPriority]}>
          <select className="input" name="migrationPriority" value={form.migrationPriority} onChange={(e) => set('migrationPriority', e.target.value as MigrationPriority)}>
            {(Object.keys(PRIORITY_HINTS) as MigrationPriority[]).map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </Field>
        {error && (
          <p className="field-error" role="alert" data-testid="settings-error">
            {isApiError(error) ? error.summary : String(error)}
            {isApiError(error) && error.problem?.operationId ? ` (operation ${error.problem.operationId})` : ''}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => { setForm(fromSpec(cluster)); setPlan(null); preview.reset(); apply.reset(); }} disabled={!changed}>Reset</button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!changed || preview.isPending || !!running}
            onClick={() => preview.mutate(body, { onSuccess: (r) => setPlan({ body, plan: r.plan }) })}
          >
            {preview.isPending ? 'Planning…' : 'Preview plan'}
          </button>
        </div>
      </section>
      {plan && (
        <PlanPreview
          plan={plan.plan}
          shards={Math.max(cluster.spec.shards, Number(form.shards))}
          applying={apply.isPending}
          onApply={() => apply.mutate(plan.body, { onSuccess: () => setPlan(null) })}
          onDiscard={() => setPlan(null)}
        />
      )}
      <SwitchoverPanel cluster={cluster} busy={!!running} />
    </div>
  );
}

/** The running change: overall progress, per-slot progress, rate and ETA, with pause / resume / cancel. */
function MigrationPanel({ clusterId, operation }: { clusterId: string; operation: Operation }) {
  const control = useOperationControlMutation(clusterId);
  const m = operation.migration;
  const step = operation.steps.find((s) => s.state === 'running') ?? operation.steps.find((s) => s.state === 'pending');
  return (
    <section className="card settings-card" aria-labelledby="migration-title" data-testid="migration-progress">
      <div className="op-head">
        <h2 id="migration-title" className="card-title">
          {operation.state === 'succeeded' ? 'Change complete' : operation.state === 'cancelled' ? 'Change cancelled; the cluster is back as it was'
            : operation.state === 'failed' ? `Change failed: ${operation.error?.message ?? ''}`
            : operation.cancelRequested ? 'Cancelling: moving back' : operation.paused ? 'Change paused' : 'Changing the topology'}
        </h2>
        <span className="mono" data-testid="migration-percent">{Math.round(operation.progress * 100)}%</span>
      </div>
      <ProgressBar value={operation.progress} label="Change progress" tone={operation.state === 'failed' ? 'danger' : 'info'} />
      {step && <p className="small">{step.title}{step.detail ? ` — ${step.detail}` : ''}</p>}
      {m && (
        <>
          <ProgressBar value={m.slotsTotal ? m.slotsDone / m.slotsTotal : 0} label="Slots moved" />
          <dl className="stats" data-testid="migration-stats">
            <div><dt>Slots</dt><dd>{m.slotsDone} / {m.slotsTotal}</dd></div>
            <div><dt>Keys moved</dt><dd>{m.keysMoved.toLocaleString()}</dd></div>
            <div><dt>Data moved</dt><dd>{formatMemoryMb(Math.round(m.bytesMoved / 1048576))}</dd></div>
            <div><dt>Rate</dt><dd>{m.keysPerSec.toLocaleString()} keys/s</dd></div>
            <div><dt>ETA</dt><dd>{m.etaSeconds === null ? '—' : `${m.etaSeconds} s`}</dd></div>
          </dl>
        </>
      )}
      {isOperationActive(operation.state) && <div className="form-actions">
        {operation.paused
          ? <button type="button" className="btn btn-secondary" onClick={() => control.mutate({ id: operation.id, action: 'resume' })}>Resume</button>
          : <button type="button" className="btn btn-secondary" disabled={operation.cancelRequested} onClick={() => control.mutate({ id: operation.id, action: 'pause' })}>Pause</button>}
        <button type="button" className="btn btn-danger-outline" disabled={operation.cancelRequested} onClick={() => control.mutate({ id: operation.id, action: 'cancel' })}>Cancel change</button>
      </div>}
      {control.error && <p className="field-error" role="alert">{isApiError(control.error) ? control.error.summary : String(control.error)}</p>}
    </section>
  );
}

/** One button per shard: promote its replica without losing acknowledged writes. */
function SwitchoverPanel({ cluster, busy }: { cluster: Cluster; busy: boolean }) {
  const topology = useClusterTopologyQuery(cluster.id, { fast: busy });
  const switchover = useShardSwitchoverMutation(cluster.id);
  return (
    <section className="card settings-card" aria-labelledby="switchover-title">
      <h2 id="switchover-title" className="card-title">Switchover</h2>
      <p className="muted small">Promotes a shard's replica once it has caught up (CLUSTER FAILOVER): the primary pauses writes for a moment, no acknowledged write is lost.</p>
      <ul className="list-plain" data-testid="switchover-list">
        {topology.data?.shards.map((s) => {
          const primary = s.instances.find((i) => i.role === 'primary');
          const replicas = s.instances.filter((i) => i.role === 'replica');
          return (
            <li key={s.index} className="row-between">
              <span><span data-testid="shard-label">{shardLabel(s.index)}</span>: primary {primary?.address ?? '—'} ({plural(replicas.length, 'replica')})</span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={busy || replicas.length === 0 || switchover.isPending}
                onClick={() => switchover.mutate({ shard: s.index })}
                aria-label={`Switch over ${shardName(s.index)}`}
              >
                Switch over
              </button>
            </li>
          );
        })}
      </ul>
      {switchover.error && <p className="field-error" role="alert">{isApiError(switchover.error) ? switchover.error.summary : String(switchover.error)}</p>}
    </section>
  );
}

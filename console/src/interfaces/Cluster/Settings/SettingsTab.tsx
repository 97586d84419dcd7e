import { useEffect, useRef, useState } from 'react';
import { LIMITS, type Cluster, type Durability, type EvictionPolicy, type Fencing, type MigrationPriority, type Operation, type TlsClientAuth, type TopologyPlan, type UpdateClusterRequest } from '@strata/api';
import { useClusterPlanMutation, useClusterUpdateMutation } from '../../../data/clusters/cluster-update-mutation';
import { useCapacityQuery } from '../../../data/capacity/capacity-query';
import { isApiError } from '../../../data/fetcher';
import { isOperationActive } from '../../../data/polling';
import { formatMemoryMb } from '../../../lib/format';
import { memoryHint, replicasHint, shapeBounds, shardsHint, type CapacityField } from '../../../lib/capacity';
import type { ClusterShape } from '../../../lib/cluster-math';
import { toast } from '../../../lib/toast';
import { Field } from '../../../components/ui/Field';
import { CLIENT_AUTH_OPTIONS, DURABILITY_OPTIONS, EVICTION_OPTIONS, FENCING_OPTIONS, MEMORY_OPTIONS_MB, clientAuthWarning } from '../../ClusterCreate/options';
import { DurabilityAdvice } from '../../Nodes/DurabilityAdvice';
import { PlanPreview } from './PlanPreview';
import { SwitchoverPanel } from './SwitchoverPanel';
import { RestartPanel } from './RestartPanel';
import { TlsPanel } from './TlsPanel';
import { MaintenanceWindowPanel } from './MaintenanceWindowPanel';
import { MigrationPanel } from './MigrationPanel';
import { ApplyConfirm } from './ApplyConfirm';

type Form = { shards: string; replicasPerShard: string; memoryMbPerShard: number; durability: Durability; evictionPolicy: EvictionPolicy; fencing: Fencing; tlsClientAuth: TlsClientAuth; migrationPriority: MigrationPriority };
type FormField = keyof Form;

const PRIORITY_HINTS: Record<MigrationPriority, string> = {
  gentle: 'Smallest steps, one source shard at a time, pausing whenever a primary is busy: slowest, least felt by your application.',
  balanced: 'Short steps, source shards in parallel, pausing when a primary is busy.',
  fast: 'Long steps, never pausing: quickest, but requests on moving shards may wait several milliseconds.',
};

const fromSpec = (c: Cluster): Form => ({
  shards: String(c.spec.shards), replicasPerShard: String(c.spec.replicasPerShard), memoryMbPerShard: c.spec.memoryMbPerShard,
  durability: c.spec.durability, evictionPolicy: c.spec.evictionPolicy, fencing: c.spec.fencing, tlsClientAuth: c.spec.tlsClientAuth, migrationPriority: c.spec.migrationPriority,
});

/** Only the fields that differ from the cluster's spec. */
function changes(c: Cluster, f: Form): UpdateClusterRequest {
  const out: UpdateClusterRequest = {};
  if (Number(f.shards) !== c.spec.shards) out.shards = Number(f.shards);
  if (Number(f.replicasPerShard) !== c.spec.replicasPerShard) out.replicasPerShard = Number(f.replicasPerShard);
  if (f.memoryMbPerShard !== c.spec.memoryMbPerShard) out.memoryMbPerShard = f.memoryMbPerShard;
  if (f.durability !== c.spec.durability) out.durability = f.durability;
  if (f.evictionPolicy !== c.spec.evictionPolicy) out.evictionPolicy = f.evictionPolicy;
  if (f.fencing !== c.spec.fencing) out.fencing = f.fencing;
  if (f.tlsClientAuth !== c.spec.tlsClientAuth) out.tlsClientAuth = f.tlsClientAuth;
  if (f.migrationPriority !== c.spec.migrationPriority) out.migrationPriority = f.migrationPriority;
  return out;
}

function shapeOf(f: Form): ClusterShape | null {
  const s = Number(f.shards);
  const r = Number(f.replicasPerShard);
  if (!Number.isInteger(s) || !Number.isInteger(r) || s < LIMITS.shards.min || s > LIMITS.shards.max) return null;
  if (r < LIMITS.replicasPerShard.min || r > LIMITS.replicasPerShard.max) return null;
  return { shards: s, replicasPerShard: r, memoryMbPerShard: f.memoryMbPerShard };
}

/**
 * Settings tab: change the topology with the plan previewed first, follow the
 * migration, switch primaries over. What the nodes can hold bounds the form
 * exactly as in the wizard (lib/capacity.ts), asked for this cluster's change;
 * the server's refusal shows once, at the field it names.
 */
export function SettingsTab({ cluster, latest }: { cluster: Cluster; latest: Operation | undefined }) {
  const [form, setForm] = useState<Form>(() => fromSpec(cluster));
  const [plan, setPlan] = useState<{ body: UpdateClusterRequest; plan: TopologyPlan } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const preview = useClusterPlanMutation(cluster.id);
  const apply = useClusterUpdateMutation(cluster.id);
  const running = latest && isOperationActive(latest.state) ? latest : undefined;
  const body = changes(cluster, form);
  const changed = Object.keys(body).length > 0;
  const error = preview.error ?? apply.error;

  const shape = shapeOf(form);
  const maxReplicasKnown = useRef<number>(LIMITS.replicasPerShard.max);
  const askReplicas = Math.min(shape?.replicasPerShard ?? cluster.spec.replicasPerShard, maxReplicasKnown.current);
  const capacity = useCapacityQuery({ replicasPerShard: askReplicas, memoryMbPerShard: form.memoryMbPerShard, clusterId: cluster.id });
  if (capacity.data) maxReplicasKnown.current = capacity.data.maxReplicasPerShard;
  const { check, shardsMax, replicasMax, memoryMax, memoryOptions } = shapeBounds(capacity.data, shape, askReplicas, form.memoryMbPerShard, MEMORY_OPTIONS_MB);
  const menu = [...new Set([...memoryOptions, cluster.spec.memoryMbPerShard])].sort((a, b) => a - b);

  const serverFieldError = (f: string) => (isApiError(error) ? error.fieldErrors.find((e) => e.field === f)?.message : undefined);
  const FIELDS: FormField[] = ['shards', 'replicasPerShard', 'memoryMbPerShard', 'durability', 'evictionPolicy', 'fencing', 'tlsClientAuth', 'migrationPriority'];
  /** One message per field: the server's refusal, else what the nodes cannot hold (said at once, as in the wizard). */
  const fieldError = (f: FormField) => serverFieldError(f) ?? (changed && check?.problem?.field === (f as CapacityField) ? check.problem.message : undefined);
  // The summary only for what no field shows.
  const unplaced = isApiError(error) ? error.fieldErrors.filter((e) => !FIELDS.includes(e.field as FormField)) : [];
  const summary = error && (!isApiError(error) || unplaced.length > 0 || error.fieldErrors.length === 0)
    ? (isApiError(error) ? (unplaced.length ? unplaced.map((e) => `${e.field}: ${e.message}`).join('; ') : error.summary) : String(error))
    : null;

  const set = <K extends keyof Form>(k: K, v: Form[K]) => {
    setForm((p) => ({ ...p, [k]: v }));
    setPlan(null);
    preview.reset();
    apply.reset();
  };

  // After Apply the progress panel is where the eye goes.
  const progressRef = useRef<HTMLDivElement>(null);
  const [scrollTo, setScrollTo] = useState<string | null>(null);
  useEffect(() => {
    if (scrollTo && latest?.id === scrollTo) {
      progressRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      setScrollTo(null);
    }
  }, [scrollTo, latest?.id]);

  return (
    <div className="stack-lg">
      <div ref={progressRef} className="scroll-target">
        {latest?.kind === 'update-cluster' && (running || Date.now() - Date.parse(latest.finishedAt ?? latest.updatedAt) < 10 * 60_000) && (
          <MigrationPanel clusterId={cluster.id} operation={latest} />
        )}
      </div>
      <section className="card form-section" aria-labelledby="settings-title" data-testid="settings-form">
        <h2 id="settings-title" className="card-title">Change the cluster</h2>
        <p className="muted small">Changes run online: slots move with live migration, settings apply without restarts. You see the plan before anything changes.</p>
        <div className="grid-2">
          <Field label="Shards" error={fieldError('shards')} hint={`${shardsHint(shardsMax)} Now ${cluster.spec.shards}.`}>
            <input className="input" type="number" inputMode="numeric" name="shards" min={LIMITS.shards.min} max={shardsMax} value={form.shards} onChange={(e) => set('shards', e.target.value)} />
          </Field>
          <Field label="Replicas per shard" error={fieldError('replicasPerShard')} hint={`${replicasHint(replicasMax)} Now ${cluster.spec.replicasPerShard}.`}>
            <input className="input" type="number" inputMode="numeric" name="replicasPerShard" min={LIMITS.replicasPerShard.min} max={replicasMax} value={form.replicasPerShard} onChange={(e) => set('replicasPerShard', e.target.value)} />
          </Field>
        </div>
        <div className="grid-2">
          <Field label="Memory per shard" error={fieldError('memoryMbPerShard')} hint={`${memoryHint(memoryMax, askReplicas)} Now ${formatMemoryMb(cluster.spec.memoryMbPerShard)}.`}>
            <select className="input" name="memoryMbPerShard" value={form.memoryMbPerShard} onChange={(e) => set('memoryMbPerShard', Number(e.target.value))}>
              {menu.map((mb) => (
                <option key={mb} value={mb}>
                  {formatMemoryMb(mb)}
                  {memoryMax !== undefined && mb > memoryMax ? ' (no room)' : ''}
                </option>
              ))}
            </select>
          </Field>
          <div>
          <Field label="Durability" error={fieldError('durability')} hint={DURABILITY_OPTIONS[form.durability].description}>
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
        <Field label="Write fencing" error={fieldError('fencing')} hint={FENCING_OPTIONS[form.fencing].description}>
          <select className="input" name="fencing" value={form.fencing} onChange={(e) => set('fencing', e.target.value as Fencing)}>
            {(Object.keys(FENCING_OPTIONS) as Fencing[]).map((f) => <option key={f} value={f}>{FENCING_OPTIONS[f].title}</option>)}
          </select>
        </Field>
        <ClientAuthField cluster={cluster} value={form.tlsClientAuth} error={fieldError('tlsClientAuth')} onChange={(v) => set('tlsClientAuth', v)} />
        <Field label="Migration priority" error={fieldError('migrationPriority')} hint={PRIORITY_HINTS[form.migrationPriority]}>
          <select className="input" name="migrationPriority" value={form.migrationPriority} onChange={(e) => set('migrationPriority', e.target.value as MigrationPriority)}>
            {(Object.keys(PRIORITY_HINTS) as MigrationPriority[]).map((p) => <option key={p} value={p}>{p}</option>)}
          </select>
        </Field>
        {summary && (
          <p className="field-error" role="alert" data-testid="settings-error">
            {summary}
            {isApiError(error) && error.problem?.operationId ? ` (operation ${error.problem.operationId})` : ''}
          </p>
        )}
        <div className="form-actions">
          <button type="button" className="btn btn-secondary" onClick={() => { setForm(fromSpec(cluster)); setPlan(null); preview.reset(); apply.reset(); }} disabled={!changed}>Reset</button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!changed || preview.isPending || !!running || !!check?.problem}
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
          onApply={() => setConfirming(true)}
          onDiscard={() => setPlan(null)}
        />
      )}
      {plan && (
        <ApplyConfirm
          open={confirming}
          cluster={cluster}
          plan={plan.plan}
          pending={apply.isPending}
          error={apply.error ? (isApiError(apply.error) ? apply.error.summary : String(apply.error)) : null}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            apply.mutate(plan.body, {
              onSuccess: (r) => {
                setConfirming(false);
                setPlan(null);
                setScrollTo(r.operation.id);
                toast('Change started: follow its progress at the top of this tab.');
              },
            })
          }
        />
      )}
      <SwitchoverPanel cluster={cluster} busy={!!running} />
      <TlsPanel cluster={cluster} busy={!!running} />
      <MaintenanceWindowPanel cluster={cluster} />
      <RestartPanel cluster={cluster} busy={!!running} />
    </div>
  );
}

/**
 * Client certificates (tls-auth-clients), changed in place through the same
 * plan and apply as the other settings. A cluster without TLS has no CA to
 * check certificates against: the field says so instead.
 */
function ClientAuthField({ cluster, value, error, onChange }: { cluster: Cluster; value: TlsClientAuth; error: string | undefined; onChange: (v: TlsClientAuth) => void }) {
  if (cluster.spec.tls !== 'required') {
    return (
      <p className="muted small" data-testid="client-auth-not-applicable">
        Client certificates: not applicable, this cluster does not require TLS.
      </p>
    );
  }
  const warning = clientAuthWarning(cluster.spec.tlsClientAuth, value);
  return (
    <div>
      <Field label="Client certificates" error={error} hint={`${CLIENT_AUTH_OPTIONS[value].description} Now ${CLIENT_AUTH_OPTIONS[cluster.spec.tlsClientAuth].title.toLowerCase()}.`}>
        <select className="input" name="tlsClientAuth" value={value} onChange={(e) => onChange(e.target.value as TlsClientAuth)}>
          {(Object.keys(CLIENT_AUTH_OPTIONS) as TlsClientAuth[]).map((a) => <option key={a} value={a}>{CLIENT_AUTH_OPTIONS[a].title}</option>)}
        </select>
      </Field>
      {warning && <p className="summary-warning" data-testid="client-auth-warning"><strong>Warning:</strong> {warning}</p>}
    </div>
  );
}

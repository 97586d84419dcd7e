import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Durability, EngineVersion, EvictionPolicy, Fencing, LIMITS, type TlsClientAuth } from '@strata/api';
import { useClusterCreateMutation } from '../../data/clusters/cluster-create-mutation';
import { useCapacityQuery } from '../../data/capacity/capacity-query';
import { useBackupQuery } from '../../data/backups/backup-query';
import { useClustersQuery } from '../../data/clusters/clusters-query';
import { Link, navigate, useLocation } from '../../lib/router';
import { useDocumentTitle } from '../../lib/hooks';
import { formatMemoryMb } from '../../lib/format';
import type { ClusterShape } from '../../lib/cluster-math';
import { memoryHint, replicasHint, shapeBounds, shardsHint, suggestName } from '../../lib/capacity';
import { PageHeader } from '../../components/layout/PageHeader';
import { Field } from '../../components/ui/Field';
import { InlineAlert } from '../../components/ui/States';
import { ClusterSummary } from './ClusterSummary';
import { CLIENT_AUTH_OPTIONS, DURABILITY_OPTIONS, ENGINE_OPTIONS, EVICTION_OPTIONS, FENCING_OPTIONS, MEMORY_OPTIONS_MB } from './options';
import { DurabilityAdvice } from '../Nodes/DurabilityAdvice';
import { RestoreSourceCard } from './RestoreSourceCard';
import { restoreFormValues, restoreMemoryProblem } from './restore-prefill';
import {
  INITIAL_VALUES,
  mapServerErrors,
  validateClusterForm,
  type ClusterFormValues,
  type FieldErrors,
  type FormField,
} from './validation';

export default function CreateClusterPage() {
  useDocumentTitle('Create cluster');
  const create = useClusterCreateMutation();
  const [values, setValues] = useState<ClusterFormValues>(INITIAL_VALUES);
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<{ title: string; lines: string[] } | null>(null);
  const [focusTick, setFocusTick] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  // A restore: the wizard opened from a backup (`?restoreFrom=<backupId>`), prefilled once from its manifest.
  const restoreFrom = useLocation().search.get('restoreFrom');
  const backup = useBackupQuery(restoreFrom);
  const clusters = useClustersQuery();
  const manifest = backup.data?.backup.status === 'completed' ? backup.data.backup.manifest : null;
  const [restoreError, setRestoreError] = useState<string | null>(null);
  const prefilled = useRef(false);
  useEffect(() => {
    if (!manifest || prefilled.current || clusters.isPending) return;
    prefilled.current = true;
    setValues(restoreFormValues(manifest, clusters.data?.items.map((c) => c.name) ?? []));
  }, [manifest, clusters.isPending, clusters.data]);
  const memoryNeed = manifest ? restoreMemoryProblem(manifest, values.shards, values.memoryMbPerShard) : null;

  const validation = useMemo(() => validateClusterForm(values), [values]);
  const clientErrors: FieldErrors = validation.ok ? {} : validation.errors;
  const shape: ClusterShape | null = useMemo(() => {
    const s = Number(values.shards);
    const r = Number(values.replicasPerShard);
    if (!Number.isInteger(s) || !Number.isInteger(r) || s < LIMITS.shards.min || s > LIMITS.shards.max) return null;
    if (r < LIMITS.replicasPerShard.min || r > LIMITS.replicasPerShard.max) return null;
    return { shards: s, replicasPerShard: r, memoryMbPerShard: values.memoryMbPerShard };
  }, [values]);
  // The server's planner bounds what is offered, asked again whenever replicas, memory or shards change.
  // More replicas than nodes is refused at the replicas field; the memory menu then stays bounded for the most replicas placeable.
  const replicas = shape?.replicasPerShard ?? 0;
  const maxReplicasKnown = useRef<number>(LIMITS.replicasPerShard.max);
  const askReplicas = Math.min(replicas, maxReplicasKnown.current);
  const capacity = useCapacityQuery({ replicasPerShard: askReplicas, memoryMbPerShard: values.memoryMbPerShard, shards: shape?.shards });
  if (capacity.data) maxReplicasKnown.current = capacity.data.maxReplicasPerShard;
  const { check, shardsMax, replicasMax, memoryMax, memoryOptions } = shapeBounds(capacity.data, shape, askReplicas, values.memoryMbPerShard, MEMORY_OPTIONS_MB);
  const nameSuggestion = clientErrors.name && values.name.trim() ? suggestName(values.name) : null;

  function errorFor(f: FormField): string | undefined {
    if (serverErrors[f]) return serverErrors[f];
    if ((submitted || touched[f]) && clientErrors[f]) return clientErrors[f];
    // What the nodes cannot hold is said at once, at the field at fault.
    if (check?.problem?.field === f) return check.problem.message;
    if (f === 'memoryMbPerShard' && memoryNeed) return memoryNeed;
    return undefined;
  }

  function set<K extends FormField>(field: K, value: ClusterFormValues[K]) {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
    setFormError(null);
  }
  const touch = (f: FormField) => () => setTouched((t) => ({ ...t, [f]: true }));

  // After a failed submit, move focus to the first field with an error.
  useEffect(() => {
    if (focusTick === 0) return;
    const el = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    el?.focus({ preventScroll: true });
    el?.closest('.field')?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [focusTick]);

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setSubmitted(true);
    setFormError(null);
    if (!validation.ok || check?.problem || memoryNeed) {
      setFocusTick((t) => t + 1);
      return;
    }
    if (restoreFrom && !manifest) return;
    setRestoreError(null);
    create.mutate(restoreFrom ? { ...validation.body, restoreFrom: { backupId: restoreFrom } } : validation.body, {
      onSuccess: ({ cluster }) => navigate(`/clusters/${cluster.id}`),
      onError: (err) => {
        // What the server says about the backup itself (not completed, damaged) shows on the backup's card.
        const aboutBackup = err.fieldErrors.filter((e) => e.field.startsWith('restoreFrom'));
        if (aboutBackup.length) setRestoreError(err.summary);
        const { fields, other } = mapServerErrors(err.fieldErrors.filter((e) => !e.field.startsWith('restoreFrom')));
        setServerErrors(fields);
        if (aboutBackup.length) {
          setFocusTick((t) => t + 1);
          return;
        }
        if (Object.keys(fields).length === 0 || other.length > 0) {
          setFormError({ title: err.problem?.title ?? 'The cluster was not created', lines: other.length ? other : [err.summary] });
        }
        setFocusTick((t) => t + 1);
      },
    });
  }

  return (
    <>
      <PageHeader
        crumbs={[{ href: '/clusters', title: 'Clusters' }]}
        title="Create cluster"
        description={
          restoreFrom
            ? 'A new cluster holding the data of a backup. Its shape is yours to choose: shards, replicas and memory may differ from the backup\'s.'
            : 'Choose the shape of your Redis Cluster. You can see what it will use before you create it.'
        }
      />
      <div className="wizard">
        <form ref={formRef} id="create-cluster-form" className="wizard-form" onSubmit={onSubmit} noValidate aria-label="Create cluster">
          {formError && (
            <InlineAlert tone="danger" title={formError.title}>
              {formError.lines.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </InlineAlert>
          )}
          {restoreFrom && <RestoreSourceCard backupId={restoreFrom} query={backup} error={restoreError} />}
          <section className="card form-section" aria-labelledby="sec-basics">
            <h2 id="sec-basics" className="card-title">
              <span className="step-num" aria-hidden="true">1</span> Name
            </h2>
            <Field
              label="Cluster name"
              error={errorFor('name')}
              hint={
                nameSuggestion ? (
                  <span data-testid="name-suggestion">
                    Try{' '}
                    <button type="button" className="link-button mono" onClick={() => set('name', nameSuggestion)}>
                      {nameSuggestion}
                    </button>
                    {' '}— {LIMITS.name.min}–{LIMITS.name.max} characters: lowercase letters, digits and dashes.
                  </span>
                ) : (
                  `${LIMITS.name.min}–${LIMITS.name.max} characters: lowercase letters, digits and dashes. Used in URLs and logs.`
                )
              }
            >
              <input
                className="input"
                name="name"
                autoComplete="off"
                spellCheck={false}
                maxLength={LIMITS.name.max + 10}
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
                onBlur={touch('name')}
                placeholder="e.g. sessions-cache"
              />
            </Field>
          </section>

          <section className="card form-section" aria-labelledby="sec-shape">
            <h2 id="sec-shape" className="card-title">
              <span className="step-num" aria-hidden="true">2</span> Shape
            </h2>
            <div className="grid-2">
              <Field label="Shards" error={errorFor('shards')} hint={`${shardsHint(shardsMax)} Hash slots are split evenly between shards.`}>
                <input
                  className="input"
                  type="number"
                  inputMode="numeric"
                  name="shards"
                  min={LIMITS.shards.min}
                  max={shardsMax}
                  step={1}
                  value={values.shards}
                  onChange={(e) => set('shards', e.target.value)}
                  onBlur={touch('shards')}
                />
              </Field>
              <Field
                label="Replicas per shard"
                error={errorFor('replicasPerShard')}
                hint={`${replicasHint(replicasMax)} Replicas take over if a primary fails.`}
              >
                <input
                  className="input"
                  type="number"
                  inputMode="numeric"
                  name="replicasPerShard"
                  min={LIMITS.replicasPerShard.min}
                  max={replicasMax}
                  step={1}
                  value={values.replicasPerShard}
                  onChange={(e) => set('replicasPerShard', e.target.value)}
                  onBlur={touch('replicasPerShard')}
                />
              </Field>
            </div>
            <Field label="Memory per shard" error={errorFor('memoryMbPerShard')} hint={memoryHint(memoryMax, replicas)}
            >
              <select
                className="input"
                name="memoryMbPerShard"
                value={values.memoryMbPerShard}
                onChange={(e) => set('memoryMbPerShard', Number(e.target.value))}
                onBlur={touch('memoryMbPerShard')}
              >
                {memoryOptions.map((mb) => (
                  <option key={mb} value={mb}>
                    {formatMemoryMb(mb)}
                    {memoryMax !== undefined && mb > memoryMax ? ' (no room)' : ''}
                  </option>
                ))}
              </select>
            </Field>
          </section>

          <section className="card form-section" aria-labelledby="sec-data">
            <h2 id="sec-data" className="card-title">
              <span className="step-num" aria-hidden="true">3</span> Data
            </h2>
            <fieldset className="fieldset" aria-describedby={errorFor('durability') ? 'durability-error' : undefined}>
              <legend className="field-label">Durability</legend>
              <div className="radio-cards">
                {Durability.options.map((d) => (
                  <label key={d} className="radio-card">
                    <input type="radio" name="durability" value={d} checked={values.durability === d} onChange={() => set('durability', d)} />
                    <span className="radio-card-body">
                      <span className="radio-card-title">{DURABILITY_OPTIONS[d].title}</span>
                      <span className="radio-card-text">{DURABILITY_OPTIONS[d].description}</span>
                    </span>
                  </label>
                ))}
              </div>
              <DurabilityAdvice durability={values.durability} />
              {errorFor('durability') && (
                <p id="durability-error" className="field-error">
                  {errorFor('durability')}
                </p>
              )}
            </fieldset>
            <Field label="Eviction policy" error={errorFor('evictionPolicy')} hint={EVICTION_OPTIONS[values.evictionPolicy]}>
              <select
                className="input"
                name="evictionPolicy"
                value={values.evictionPolicy}
                onChange={(e) => set('evictionPolicy', e.target.value as EvictionPolicy)}
              >
                {EvictionPolicy.options.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Engine" error={errorFor('engineVersion')} hint={`${ENGINE_OPTIONS[values.engineVersion].description} Set at creation.`}>
              <select className="input" name="engineVersion" value={values.engineVersion} onChange={(e) => set('engineVersion', e.target.value as EngineVersion)}>
                {EngineVersion.options.map((v) => (
                  <option key={v} value={v}>
                    {ENGINE_OPTIONS[v].title}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Write fencing" error={errorFor('fencing')} hint={FENCING_OPTIONS[values.fencing].description}>
              <select className="input" name="fencing" value={values.fencing} onChange={(e) => set('fencing', e.target.value as Fencing)}>
                {Fencing.options.map((f) => (
                  <option key={f} value={f}>
                    {FENCING_OPTIONS[f].title}
                  </option>
                ))}
              </select>
            </Field>
          </section>

          <section className="card form-section" aria-labelledby="sec-security">
            <h2 id="sec-security" className="card-title">
              <span className="step-num" aria-hidden="true">4</span> Security
            </h2>
            <label style={{ display: 'block' }}>
              <input
                type="checkbox"
                name="tls"
                checked={values.tls === 'required'}
                onChange={(e) => set('tls', e.target.checked ? 'required' : 'off')}
                aria-describedby="tls-hint"
              />
              {' '}Require TLS
            </label>
            <p id="tls-hint" className="field-hint">
              Clients, replication and the cluster bus speak TLS only, with certificates from the cluster&apos;s own CA (downloadable once
              it is ready). Set at creation.
            </p>
            {errorFor('tls') && <p className="field-error">{errorFor('tls')}</p>}
            {values.tls === 'required' && (
              <>
                <label style={{ display: 'block' }}>
                  Client certificates{' '}
                  <select
                    name="tlsClientAuth"
                    value={values.tlsClientAuth}
                    onChange={(e) => set('tlsClientAuth', e.target.value as TlsClientAuth)}
                    aria-describedby="tls-client-auth-hint"
                  >
                    {(Object.keys(CLIENT_AUTH_OPTIONS) as TlsClientAuth[]).map((a) => <option key={a} value={a}>{CLIENT_AUTH_OPTIONS[a].title}</option>)}
                  </select>
                </label>
                <p id="tls-client-auth-hint" className="field-hint">
                  {CLIENT_AUTH_OPTIONS[values.tlsClientAuth].description} Can be changed later on the Settings tab.
                </p>
                {errorFor('tlsClientAuth') && <p className="field-error">{errorFor('tlsClientAuth')}</p>}
              </>
            )}
          </section>
        </form>
        <div className="wizard-aside">
          <ClusterSummary shape={shape} durability={values.durability} check={check} capacityError={capacity.error} />
        </div>
        {/* After the summary in the page order, so a phone shows what will be created before the button. */}
        <div className="form-actions wizard-actions">
          <Link to="/clusters" className="btn btn-secondary">
            Cancel
          </Link>
          <button type="submit" form="create-cluster-form" className="btn btn-primary" disabled={create.isPending || (!!restoreFrom && !manifest)}>
            {create.isPending ? 'Creating…' : 'Create cluster'}
          </button>
        </div>
      </div>
    </>
  );
}

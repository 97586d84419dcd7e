import { useState, type FormEvent } from 'react';
import { ALERT_METRICS, type AlertMetric, type AlertRule } from '@strata/api';
import { Field } from '../../components/ui/Field';
import { Badge } from '../../components/ui/Badge';
import { EmptyState, ErrorState, InlineAlert, SkeletonRows } from '../../components/ui/States';
import { isApiError } from '../../data/fetcher';
import { useClustersQuery } from '../../data/clusters/clusters-query';
import { useAlertRulesQuery } from '../../data/alerts/alert-rules-query';
import { useAlertRuleCreateMutation, useAlertRuleDeleteMutation, useAlertRuleUpdateMutation } from '../../data/alerts/alert-rule-mutations';
import { useChannelsQuery } from '../../data/alerts/channels-query';
import { ruleCondition, validateRuleForm, type FormErrors, type RuleForm } from './alert-forms';

const METRICS = Object.keys(ALERT_METRICS) as AlertMetric[];
const EMPTY: RuleForm = { clusterId: '', metric: 'memory_used_percent', threshold: '80', forSeconds: '60', channelIds: [] };

/** The rule editor: add, change threshold and duration, enable or disable, delete. */
export function RulesSection() {
  const rules = useAlertRulesQuery();
  const clusters = useClustersQuery();
  const channels = useChannelsQuery();
  const create = useAlertRuleCreateMutation();
  const [form, setForm] = useState<RuleForm>(EMPTY);
  const [errors, setErrors] = useState<FormErrors<RuleForm>>({});
  const clusterName = (id: string | null) => (id ? clusters.data?.items.find((c) => c.id === id)?.name ?? id : 'All clusters');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateRuleForm(form);
    setErrors(v.errors);
    if (!v.request) return;
    create.mutate(v.request, {
      onSuccess: () => setForm({ ...EMPTY, clusterId: form.clusterId }),
      onError: (err) => {
        if (isApiError(err)) setErrors(Object.fromEntries(err.fieldErrors.map((f) => [f.field.split('.')[0]!, f.message])));
      },
    });
  };
  const m = ALERT_METRICS[form.metric];

  return (
    <section className="card" aria-labelledby="rules-title" style={{ marginBottom: 24, padding: 20 }}>
      <h2 id="rules-title">Rules</h2>
      <p className="muted">A rule fires when its value stays above the threshold for its duration (events: more than the threshold within it), and resolves when it no longer is.</p>
      <form onSubmit={submit} noValidate aria-label="Add alert rule">
        <Field label="Cluster" error={errors.clusterId}>
          <select className="input" value={form.clusterId} onChange={(e) => setForm({ ...form, clusterId: e.target.value })}>
            <option value="">All clusters (organization rule)</option>
            {clusters.data?.items.map((c) => <option key={c.id} value={c.id}>{c.name}</option>)}
          </select>
        </Field>
        <Field label="Metric" hint={m.help} error={errors.metric}>
          <select className="input" value={form.metric} onChange={(e) => setForm({ ...form, metric: e.target.value as AlertMetric })}>
            {METRICS.map((k) => <option key={k} value={k}>{ALERT_METRICS[k].label}</option>)}
          </select>
        </Field>
        <Field label={`Threshold${m.unit && m.kind === 'gauge' ? ` (${m.unit})` : ''}`} error={errors.threshold}>
          <input className="input" inputMode="decimal" value={form.threshold} onChange={(e) => setForm({ ...form, threshold: e.target.value })} />
        </Field>
        <Field label="For (seconds)" error={errors.forSeconds}>
          <input className="input" inputMode="numeric" value={form.forSeconds} onChange={(e) => setForm({ ...form, forSeconds: e.target.value })} />
        </Field>
        <fieldset className="field" aria-invalid={errors.channelIds ? true : undefined}>
          <legend className="field-label">Notify</legend>
          {!channels.data?.items.length && <p className="muted small">No channels yet: add one below (the alert still shows here).</p>}
          {channels.data?.items.map((c) => (
            <label key={c.id} style={{ display: 'block' }}>
              <input type="checkbox" checked={form.channelIds.includes(c.id)}
                onChange={() => setForm((f) => ({ ...f, channelIds: f.channelIds.includes(c.id) ? f.channelIds.filter((x) => x !== c.id) : [...f.channelIds, c.id] }))} />{' '}
              {c.name} <span className="muted">({c.type})</span>
            </label>
          ))}
          {errors.channelIds && <p className="field-error">{errors.channelIds}</p>}
        </fieldset>
        {create.isError && isApiError(create.error) && !create.error.fieldErrors.length && <InlineAlert tone="danger" title={create.error.summary} />}
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>Add rule</button>
      </form>
      {rules.isError ? (
        <ErrorState error={rules.error} title="Could not load rules" onRetry={() => void rules.refetch()} />
      ) : !rules.isPending && !rules.data.items.length ? (
        <EmptyState icon="alert" title="No rules yet">Add one above.</EmptyState>
      ) : (
        <table className="table table-cards" aria-label="Alert rules" aria-busy={rules.isPending}>
          <thead>
            <tr><th scope="col">Rule</th><th scope="col">Cluster</th><th scope="col">Condition</th><th scope="col">State</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {rules.isPending ? <SkeletonRows cols={5} /> : rules.data.items.map((r) => <RuleRow key={r.id} rule={r} cluster={clusterName(r.clusterId)} />)}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RuleRow({ rule, cluster }: { rule: AlertRule; cluster: string }) {
  const update = useAlertRuleUpdateMutation();
  const remove = useAlertRuleDeleteMutation();
  const [editing, setEditing] = useState(false);
  const [threshold, setThreshold] = useState(String(rule.threshold));
  const [forSeconds, setForSeconds] = useState(String(rule.forSeconds));
  const fieldError = (f: string) => (isApiError(update.error) ? update.error.fieldErrors.find((e) => e.field === f)?.message : undefined);
  return (
    <tr data-testid={`rule-${rule.id}`}>
      <td data-label="Rule">{rule.name}</td>
      <td data-label="Cluster">{cluster}</td>
      <td data-label="Condition">
        {editing ? (
          <form aria-label={`Edit ${rule.name}`} noValidate onSubmit={(e) => {
            e.preventDefault();
            update.mutate({ id: rule.id, body: { threshold: Number(threshold), forSeconds: Number(forSeconds) } }, { onSuccess: () => setEditing(false) });
          }}>
            <Field label="Threshold" error={fieldError('threshold')}><input className="input" inputMode="decimal" value={threshold} onChange={(e) => setThreshold(e.target.value)} /></Field>
            <Field label="For (seconds)" error={fieldError('forSeconds')}><input className="input" inputMode="numeric" value={forSeconds} onChange={(e) => setForSeconds(e.target.value)} /></Field>
            <button type="submit" className="btn btn-primary btn-sm" disabled={update.isPending}>Save</button>{' '}
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(false)}>Cancel</button>
          </form>
        ) : ruleCondition(rule)}
      </td>
      <td data-label="State">
        {!rule.enabled ? <Badge tone="neutral">Disabled</Badge> : rule.firing ? <Badge tone="danger" pulse>Firing</Badge> : <Badge tone="success">OK</Badge>}
      </td>
      <td data-label="Actions">
        {!editing && <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing(true)}>Edit<span className="visually-hidden"> {rule.name}</span></button>}{' '}
        <button type="button" className="btn btn-secondary btn-sm" disabled={update.isPending} onClick={() => update.mutate({ id: rule.id, body: { enabled: !rule.enabled } })}>
          {rule.enabled ? 'Disable' : 'Enable'}<span className="visually-hidden"> {rule.name}</span>
        </button>{' '}
        <button type="button" className="btn btn-danger-outline btn-sm" disabled={remove.isPending}
          onClick={() => { if (window.confirm(`Delete rule "${rule.name}"? Its firing alerts resolve; their history stays.`)) remove.mutate(rule.id); }}>
          Delete<span className="visually-hidden"> {rule.name}</span>
        </button>
      </td>
    </tr>
  );
}

import { useState } from 'react';
import { AUDIT_KINDS, AUDIT_RESOURCE_TYPES, type AuditEntry } from '@strata/api';
import { getAllAudit, useAuditQuery, type AuditFilters } from '../../data/access/audit-query';
import { useNow } from '../../lib/hooks';
import { auditCsv } from '../../lib/audit-csv';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/Badge';
import { Field } from '../../components/ui/Field';
import { TimeAgo } from '../../components/ui/TimeAgo';
import { ErrorState, SkeletonRows } from '../../components/ui/States';

const RESOURCE_LABELS: Record<string, string> = {
  cluster: 'Clusters', node: 'Nodes', user: 'Users', token: 'API tokens', organization: 'Organizations', benchmark: 'Benchmarks', operation: 'Changes', session: 'Sign-ins', backup: 'Backups',
};

/** A datetime-local value ("2026-11-26T10:00") as an ISO time, in the browser's zone. */
const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The audit log (organization admins): who did what to which resource, filterable, exportable as CSV. */
export function AuditSection() {
  const [form, setForm] = useState({ actor: '', kind: '', resource: '', from: '', to: '' });
  const filters: AuditFilters = { actor: form.actor.trim() || undefined, kind: form.kind || undefined, resource: form.resource.trim() || undefined, from: iso(form.from), to: iso(form.to) };
  const audit = useAuditQuery(true, filters);
  const now = useNow(10_000);
  const [exporting, setExporting] = useState(false);
  const items = audit.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const filtered = Object.values(form).some(Boolean);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await getAllAudit(filters);
      const url = URL.createObjectURL(new Blob([auditCsv(all)], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `strata-audit-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      toast(`Exported ${all.length.toLocaleString()} audit ${all.length === 1 ? 'entry' : 'entries'} as CSV.`);
    } catch (err) {
      toast(`Could not export the audit log: ${(err as Error).message}`, 'danger');
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="card pad" aria-labelledby="audit-title">
      <div className="row-between audit-head">
        <h2 id="audit-title">Audit log</h2>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void exportCsv()} disabled={exporting}>
          {exporting ? 'Exporting…' : filtered ? 'Export these entries (CSV)' : 'Export CSV'}
        </button>
      </div>
      <form className="audit-filters" role="search" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <Field label="Who"><input className="input" name="actor" placeholder="email or token name" value={form.actor} onChange={set('actor')} /></Field>
        <Field label="Action">
          <select className="input" name="kind" value={form.kind} onChange={set('kind')}>
            <option value="">Any action</option>
            {AUDIT_RESOURCE_TYPES.map((t) => (
              <optgroup key={t} label={RESOURCE_LABELS[t] ?? t}>
                <option value={t}>All: {(RESOURCE_LABELS[t] ?? t).toLowerCase()}</option>
                {AUDIT_KINDS.filter(([k]) => k.startsWith(`${t}.`)).map(([k, label]) => <option key={k} value={k}>{label}</option>)}
              </optgroup>
            ))}
          </select>
        </Field>
        <Field label="Resource"><input className="input" name="resource" placeholder="name or id" value={form.resource} onChange={set('resource')} /></Field>
        <Field label="From"><input className="input" type="datetime-local" name="from" value={form.from} onChange={set('from')} /></Field>
        <Field label="To"><input className="input" type="datetime-local" name="to" value={form.to} onChange={set('to')} /></Field>
        {filtered && (
          <div className="audit-filters-reset">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => setForm({ actor: '', kind: '', resource: '', from: '', to: '' })}>Clear filters</button>
          </div>
        )}
      </form>
      {audit.isError ? <ErrorState error={audit.error} title="Could not load the audit log" onRetry={() => void audit.refetch()} /> : (
        <>
          <table className="table table-cards" aria-label="Audit log" aria-busy={audit.isPending}>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Resource</th><th scope="col">Result</th><th scope="col">Detail</th></tr></thead>
            <tbody>
              {audit.isPending ? <SkeletonRows cols={6} /> : items.length === 0 ? (
                <tr><td colSpan={6} className="muted">{filtered ? 'No entry matches these filters.' : 'Nothing recorded yet.'}</td></tr>
              ) : items.map((e) => <AuditRow key={e.id} e={e} now={now} />)}
            </tbody>
          </table>
          {audit.hasNextPage && (
            <button type="button" className="btn btn-secondary audit-more" disabled={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
              {audit.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function AuditRow({ e, now }: { e: AuditEntry; now: number }) {
  const failed = e.status >= 400;
  return (
    <tr data-testid="audit-entry" data-kind={e.kind}>
      <td data-label="When"><TimeAgo at={e.at} now={now} /></td>
      <td data-label="Who"><span>{e.actor.name}</span> <span className="muted small">({e.actor.type})</span></td>
      <td data-label="What">
        <span>{e.summary.replace(/ \(dry run: nothing changed\)$/, '')}</span>
        {e.dryRun && <> <Badge tone="neutral" testId="audit-dry-run">Dry run: nothing changed</Badge></>}
        <div className="cell-sub mono small" title="the API request">{e.action}</div>
      </td>
      <td data-label="Resource">
        {e.resource.name || e.resource.id ? (
          <>
            <span>{e.resource.name ?? '—'}</span>
            {e.resource.id && <div className="cell-sub mono small" title={e.resource.id}>{e.resource.type} {e.resource.id.slice(0, 8)}</div>}
          </>
        ) : <span className="muted">—</span>}
      </td>
      <td data-label="Result"><Badge tone={failed ? 'danger' : 'success'}>{failed ? `refused (${e.status})` : `done (${e.status})`}</Badge></td>
      <td data-label="Detail"><code className="audit-detail">{Object.keys(e.detail).length ? JSON.stringify(e.detail) : ''}</code></td>
    </tr>
  );
}

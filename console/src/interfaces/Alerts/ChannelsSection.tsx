import { useState, type FormEvent } from 'react';
import type { NotificationChannel } from '@strata/api';
import { useNow } from '../../lib/hooks';
import { formatAgo, formatDateTime } from '../../lib/format';
import { Field } from '../../components/ui/Field';
import { Badge } from '../../components/ui/Badge';
import { EmptyState, ErrorState, InlineAlert, SkeletonRows } from '../../components/ui/States';
import { isApiError } from '../../data/fetcher';
import { useChannelsQuery } from '../../data/alerts/channels-query';
import { useChannelCreateMutation, useChannelDeleteMutation, useChannelTestMutation } from '../../data/alerts/channel-mutations';
import { useDeliveriesQuery } from '../../data/alerts/deliveries-query';
import { validateChannelForm, type ChannelForm, type FormErrors } from './alert-forms';

const EMPTY: ChannelForm = { type: 'webhook', name: '', url: '', secret: '', format: 'json', to: '' };

/** Webhooks and e-mail recipients, each with "Send test" and its delivery log. */
export function ChannelsSection() {
  const channels = useChannelsQuery();
  const create = useChannelCreateMutation();
  const [form, setForm] = useState<ChannelForm>(EMPTY);
  const [errors, setErrors] = useState<FormErrors<ChannelForm>>({});

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateChannelForm(form);
    setErrors(v.errors);
    if (!v.request) return;
    create.mutate(v.request, {
      onSuccess: () => setForm(EMPTY),
      onError: (err) => {
        if (isApiError(err)) setErrors(Object.fromEntries(err.fieldErrors.map((f) => [f.field.split('.')[0]!, f.message])));
      },
    });
  };

  return (
    <section className="card" aria-labelledby="channels-title" style={{ marginBottom: 24, padding: 20 }}>
      <h2 id="channels-title">Notification channels</h2>
      <p className="muted">Webhooks get a signed JSON POST (<code>X-Strata-Signature</code>: HMAC-SHA256 of the body with the secret, hex) or a Slack message; e-mail goes through the operator&apos;s SMTP server.</p>
      <form onSubmit={submit} noValidate aria-label="Add notification channel">
        <Field label="Type" error={errors.type}>
          <select className="input" value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as ChannelForm['type'] })}>
            <option value="webhook">Webhook</option>
            <option value="email">E-mail</option>
          </select>
        </Field>
        <Field label="Name" hint="Optional." error={errors.name}>
          <input className="input" value={form.name} maxLength={100} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        {form.type === 'webhook' ? (
          <>
            <Field label="URL" error={errors.url}><input className="input" value={form.url} placeholder="https://" onChange={(e) => setForm({ ...form, url: e.target.value })} /></Field>
            <Field label="Secret" hint="Signs every request; never shown again." error={errors.secret}>
              <input className="input" type="password" autoComplete="new-password" value={form.secret} onChange={(e) => setForm({ ...form, secret: e.target.value })} />
            </Field>
            <Field label="Format" error={errors.format}>
              <select className="input" value={form.format} onChange={(e) => setForm({ ...form, format: e.target.value as ChannelForm['format'] })}>
                <option value="json">JSON</option>
                <option value="slack">Slack</option>
              </select>
            </Field>
          </>
        ) : (
          <Field label="Recipients" hint="E-mail addresses, separated by commas." error={errors.to}>
            <input className="input" value={form.to} onChange={(e) => setForm({ ...form, to: e.target.value })} />
          </Field>
        )}
        {create.isError && isApiError(create.error) && !create.error.fieldErrors.length && <InlineAlert tone="danger" title={create.error.summary} />}
        <button type="submit" className="btn btn-secondary" disabled={create.isPending}>Add channel</button>
      </form>
      {channels.isError ? (
        <ErrorState error={channels.error} title="Could not load channels" onRetry={() => void channels.refetch()} />
      ) : !channels.isPending && !channels.data.items.length ? (
        <EmptyState icon="alert" title="No channels yet">Add a webhook or e-mail recipients above.</EmptyState>
      ) : (
        <ul className="plain-list" aria-label="Notification channels" aria-busy={channels.isPending}>
          {channels.isPending ? <li><table className="table"><tbody><SkeletonRows cols={3} /></tbody></table></li> : channels.data.items.map((c) => <ChannelItem key={c.id} channel={c} />)}
        </ul>
      )}
    </section>
  );
}

function ChannelItem({ channel }: { channel: NotificationChannel }) {
  const test = useChannelTestMutation();
  const remove = useChannelDeleteMutation();
  const [open, setOpen] = useState(false);
  const deliveries = useDeliveriesQuery(channel.id, open);
  const now = useNow(5000);
  return (
    <li className="card" style={{ padding: 12, marginTop: 12 }} data-testid={`channel-${channel.id}`}>
      <strong>{channel.name}</strong> <Badge tone="neutral">{channel.type === 'webhook' ? (channel.format === 'slack' ? 'Slack webhook' : 'webhook') : 'e-mail'}</Badge>{' '}
      <span className="muted small" style={{ overflowWrap: 'anywhere' }}>{channel.url ?? channel.to?.join(', ')}</span>
      <div style={{ marginTop: 8 }}>
        <button type="button" className="btn btn-secondary btn-sm" disabled={test.isPending} onClick={() => { test.mutate(channel.id); setOpen(true); }}>
          Send test<span className="visually-hidden"> to {channel.name}</span>
        </button>{' '}
        <button type="button" className="btn btn-secondary btn-sm" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide' : 'Show'} delivery log<span className="visually-hidden"> of {channel.name}</span>
        </button>{' '}
        <button type="button" className="btn btn-danger-outline btn-sm" disabled={remove.isPending}
          onClick={() => { if (window.confirm(`Delete channel "${channel.name}"? Rules stop notifying it.`)) remove.mutate(channel.id); }}>
          Delete<span className="visually-hidden"> {channel.name}</span>
        </button>
      </div>
      {open && (deliveries.isError ? <ErrorState error={deliveries.error} title="Could not load the delivery log" /> : (
        <table className="table table-cards" aria-label={`Delivery log of ${channel.name}`} aria-busy={deliveries.isPending} style={{ marginTop: 8 }}>
          <thead><tr><th scope="col">When</th><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th></tr></thead>
          <tbody>
            {deliveries.isPending ? <SkeletonRows cols={4} /> : !deliveries.data.items.length ? (
              <tr><td colSpan={4} className="muted">Nothing sent yet.</td></tr>
            ) : deliveries.data.items.map((d) => (
              <tr key={d.id}>
                <td data-label="When" title={formatDateTime(d.createdAt)}>{formatAgo(d.createdAt, now)}</td>
                <td data-label="Event">{d.event}</td>
                <td data-label="Status">
                  <Badge tone={d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'danger' : 'info'} pulse={d.status === 'pending'}>{d.status}</Badge>
                </td>
                <td data-label="Attempts">
                  {d.attempts.map((a) => (
                    <div key={a.attempt} className="small">#{a.attempt} {a.statusCode ?? '—'}{a.error ? `: ${a.error}` : ''} ({a.durationMs} ms)</div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ))}
    </li>
  );
}

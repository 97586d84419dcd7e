import { useState, type FormEvent } from 'react';
import { CreateDatabaseUserRequest, type DatabaseUser, type DatabaseUserPreset, type DatabaseUserWithPassword } from '@strata/api';
import { useDatabaseUsersQuery } from '../../../data/database-users/database-users-query';
import { useDatabaseUserCreateMutation } from '../../../data/database-users/database-user-create-mutation';
import { useDatabaseUserRotateMutation } from '../../../data/database-users/database-user-rotate-mutation';
import { useDatabaseUserDeleteMutation } from '../../../data/database-users/database-user-delete-mutation';
import { isApiError } from '../../../data/fetcher';
import { formatDateTime } from '../../../lib/format';
import { Badge } from '../../../components/ui/Badge';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog';
import { CopyButton } from '../../../components/ui/CopyButton';
import { Field } from '../../../components/ui/Field';
import { EmptyState, ErrorState, InlineAlert, SkeletonRows } from '../../../components/ui/States';

export const PRESET_LABELS: Record<DatabaseUserPreset, string> = {
  'read-only': 'Read only',
  'read-write': 'Read and write',
  'read-write-safe': 'Read and write, no dangerous commands',
};

const PRESET_HINTS: Record<DatabaseUserPreset, string> = {
  'read-only': 'GET, SCAN, HGETALL…: no write, admin or dangerous command.',
  'read-write': "What the cluster's own user may do: every data command (KEYS, FLUSHALL and SORT included), no admin command.",
  'read-write-safe': 'Reads and writes without KEYS, FLUSHALL, FLUSHDB, SORT or any admin command.',
};

interface Form { name: string; preset: DatabaseUserPreset; keyPatterns: string; channelPatterns: string; password: string }
const EMPTY: Form = { name: '', preset: 'read-only', keyPatterns: '', channelPatterns: '', password: '' };

/** "orders:*, users:*" → ["orders:*", "users:*"]; empty → absent (every key). */
const patterns = (s: string) => (s.trim() ? s.split(/[\s,]+/).filter(Boolean) : undefined);

/** The request, or the errors per field, checked with the API's own schema. */
function validate(f: Form): { request?: CreateDatabaseUserRequest; errors: Record<string, string> } {
  const r = CreateDatabaseUserRequest.safeParse({
    name: f.name, preset: f.preset, keyPatterns: patterns(f.keyPatterns), channelPatterns: patterns(f.channelPatterns), password: f.password || undefined,
  });
  if (r.success) return { request: r.data, errors: {} };
  return { errors: Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message])) };
}

/** The cluster's database users: list, add (password shown once), rotate, delete. */
export function UsersTab({ clusterId }: { clusterId: string }) {
  const users = useDatabaseUsersQuery(clusterId);
  const create = useDatabaseUserCreateMutation(clusterId);
  const rotate = useDatabaseUserRotateMutation(clusterId);
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<{ what: 'created' | 'rotated'; result: DatabaseUserWithPassword } | null>(null);
  const [deleting, setDeleting] = useState<DatabaseUser | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validate(form);
    setErrors(v.errors);
    if (!v.request) return;
    create.mutate(v.request, {
      onSuccess: (result) => { setShown({ what: 'created', result }); setForm(EMPTY); },
      onError: (err) => { if (isApiError(err)) setErrors(Object.fromEntries(err.fieldErrors.map((f) => [f.field.split('.')[0]!, f.message]))); },
    });
  };

  return (
    <div className="stack-lg">
      <section className="card" aria-labelledby="db-users-title" style={{ padding: 20 }}>
        <h2 id="db-users-title">Database users</h2>
        <p className="muted">
          Users your applications connect as, each with narrower rights than the cluster&apos;s own user. Strata keeps only a hash of each password: it is shown once.
        </p>
        {shown && (
          <InlineAlert tone="info" title={`${shown.what === 'created' ? 'Password' : 'New password'} of "${shown.result.user.name}": copy it now, it is not shown again`}>
            <code data-testid="database-user-password">{shown.result.password}</code>{' '}
            <CopyButton text={shown.result.password} label={`Copy the password of ${shown.result.user.name}`} compact />
            {shown.what === 'rotated' && shown.result.user.previousPasswordExpiresAt && (
              <p className="small">The previous password keeps working until {formatDateTime(shown.result.user.previousPasswordExpiresAt)}.</p>
            )}
          </InlineAlert>
        )}
        {rotate.isError && isApiError(rotate.error) && <InlineAlert tone="danger" title={rotate.error.summary} />}
        {users.isError ? (
          <ErrorState error={users.error} title="Could not load database users" onRetry={() => void users.refetch()} />
        ) : !users.isPending && !users.data.items.length ? (
          <EmptyState icon="terminal" title="No database users yet">Add one below.</EmptyState>
        ) : (
          <table className="table table-cards" aria-label="Database users" aria-busy={users.isPending}>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Rights</th><th scope="col">Keys</th><th scope="col">Channels</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {users.isPending ? <SkeletonRows cols={6} /> : users.data.items.map((u) => (
                <tr key={u.name} data-testid={`database-user-${u.name}`}>
                  <td data-label="Name"><code>{u.name}</code></td>
                  <td data-label="Rights">{PRESET_LABELS[u.preset]}</td>
                  <td data-label="Keys">{u.keyPatterns.length ? u.keyPatterns.map((p) => <code key={p}>{p} </code>) : <span className="muted">every key</span>}</td>
                  <td data-label="Channels">{u.channelPatterns.length ? u.channelPatterns.map((p) => <code key={p}>{p} </code>) : <span className="muted">every channel</span>}</td>
                  <td data-label="Status">
                    {u.applied ? <Badge tone="success">active</Badge> : <Badge tone="warning">applying</Badge>}
                    {u.previousPasswordExpiresAt && <span className="muted small"> old password until {formatDateTime(u.previousPasswordExpiresAt)}</span>}
                  </td>
                  <td data-label="Actions">
                    <button type="button" className="btn btn-secondary btn-sm" disabled={rotate.isPending}
                      onClick={() => rotate.mutate({ name: u.name }, { onSuccess: (result) => setShown({ what: 'rotated', result }) })}>
                      Rotate password<span className="visually-hidden"> of {u.name}</span>
                    </button>{' '}
                    <button type="button" className="btn btn-danger-outline btn-sm" onClick={() => setDeleting(u)}>
                      Delete<span className="visually-hidden"> {u.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="card" aria-labelledby="db-user-add-title" style={{ padding: 20 }}>
        <h2 id="db-user-add-title">Add a database user</h2>
        <form onSubmit={submit} noValidate aria-label="Add database user" className="stack">
          <Field label="Name" hint="Letters, digits, _ . -" error={errors.name}>
            <input className="input" value={form.name} maxLength={64} onChange={(e) => setForm({ ...form, name: e.target.value })} />
          </Field>
          <Field label="Rights" hint={PRESET_HINTS[form.preset]} error={errors.preset}>
            <select className="input" value={form.preset} onChange={(e) => setForm({ ...form, preset: e.target.value as DatabaseUserPreset })}>
              {(Object.keys(PRESET_LABELS) as DatabaseUserPreset[]).map((p) => <option key={p} value={p}>{PRESET_LABELS[p]}</option>)}
            </select>
          </Field>
          <Field label="Key patterns" hint="Globs separated by commas, e.g. orders:*, carts:*. Empty: every key." error={errors.keyPatterns}>
            <input className="input mono" value={form.keyPatterns} onChange={(e) => setForm({ ...form, keyPatterns: e.target.value })} />
          </Field>
          <Field label="Channel patterns" hint="Pub/Sub channel globs. Empty: every channel." error={errors.channelPatterns}>
            <input className="input mono" value={form.channelPatterns} onChange={(e) => setForm({ ...form, channelPatterns: e.target.value })} />
          </Field>
          <Field label="Password" hint="Empty: Strata generates one (64 characters). Yours must have at least 16." error={errors.password}>
            <input className="input" type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
          </Field>
          {create.isError && isApiError(create.error) && !create.error.fieldErrors.length && <InlineAlert tone="danger" title={create.error.summary} />}
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>Add user</button>
        </form>
      </section>
      <DeleteUserDialog clusterId={clusterId} user={deleting} onClose={() => setDeleting(null)} />
    </div>
  );
}

function DeleteUserDialog({ clusterId, user, onClose }: { clusterId: string; user: DatabaseUser | null; onClose: () => void }) {
  const del = useDatabaseUserDeleteMutation(clusterId);
  return (
    <ConfirmDialog
      open={!!user}
      title={`Delete user ${user?.name ?? ''}?`}
      impact={<p>Every instance removes <code>{user?.name}</code> and closes its open connections at once. Applications using it stop working.</p>}
      confirmLabel="Delete user"
      pendingLabel="Deleting…"
      pending={del.isPending}
      error={del.isError ? (isApiError(del.error) ? del.error.summary : 'Could not delete the user.') : null}
      onConfirm={() => user && del.mutate(user.name, { onSuccess: () => { del.reset(); onClose(); } })}
      onClose={() => { del.reset(); onClose(); }}
      testId="delete-database-user"
    />
  );
}

import { useState, type FormEvent } from 'react';
import { ROLE_SCOPES, type ApiToken, type Role, type Scope, type Session } from '@strata/api';
import { useDocumentTitle, useNow } from '../../lib/hooks';
import { formatAgo, formatDateTime } from '../../lib/format';
import { PageHeader } from '../../components/layout/PageHeader';
import { Badge } from '../../components/ui/Badge';
import { CopyButton } from '../../components/ui/CopyButton';
import { Field } from '../../components/ui/Field';
import { EmptyState, ErrorState, InlineAlert, SkeletonRows } from '../../components/ui/States';
import { isApiError } from '../../data/fetcher';
import { useTokensQuery } from '../../data/access/tokens-query';
import { useTokenCreateMutation, useTokenRevokeMutation } from '../../data/access/token-mutations';
import { useUsersQuery } from '../../data/access/users-query';
import { useUserCreateMutation, useUserRoleMutation } from '../../data/access/user-mutations';
import { AuditSection } from './AuditSection';
import { SCOPE_LABELS, grantableScopes, validateTokenForm, type TokenForm } from './token-form';

const ROLES: Role[] = ['viewer', 'member', 'admin'];

/** API tokens for everyone; users, roles and the audit log for organization admins. */
export default function SettingsPage({ session }: { session: Session }) {
  useDocumentTitle('Access');
  const isAdmin = session.scopes.includes('admin');
  return (
    <>
      <PageHeader title="Access" description={`API tokens${isAdmin ? ', users and the audit log' : ''} of ${session.organization.name}. Your role: ${session.user.role}.`} />
      <TokensSection session={session} />
      {isAdmin && <UsersSection session={session} />}
      {isAdmin && <AuditSection />}
    </>
  );
}

function TokensSection({ session }: { session: Session }) {
  const tokens = useTokensQuery();
  const create = useTokenCreateMutation();
  const revoke = useTokenRevokeMutation();
  const now = useNow(10_000);
  const scopes = grantableScopes(session.scopes);
  const [form, setForm] = useState<TokenForm>({ name: '', scopes: ['clusters:read'], expiresInDays: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof TokenForm, string>>>({});
  const [created, setCreated] = useState<ApiToken | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateTokenForm(form);
    setErrors(v.errors);
    if (!v.request) return;
    create.mutate(v.request, {
      onSuccess: (t) => { setCreated(t); setForm({ name: '', scopes: ['clusters:read'], expiresInDays: '' }); },
      onError: (err) => {
        if (isApiError(err)) setErrors(Object.fromEntries(err.fieldErrors.map((f) => [f.field, f.message])));
      },
    });
  };
  const toggle = (s: Scope) => setForm((f) => ({ ...f, scopes: f.scopes.includes(s) ? f.scopes.filter((x) => x !== s) : [...f.scopes, s] }));

  return (
    <section className="card" aria-labelledby="tokens-title" style={{ marginBottom: 24, padding: 20 }}>
      <h2 id="tokens-title">API tokens</h2>
      <p className="muted">For Terraform, CI and scripts: send as <code>Authorization: Bearer …</code>. A token can do at most what your role allows.</p>
      {created && (
        <InlineAlert tone="info" title={`Token "${created.name}" created: copy it now, it is not shown again`}>
          <code data-testid="new-token-secret">{created.token}</code> <CopyButton text={created.token} label="Copy token" compact />
        </InlineAlert>
      )}
      <form onSubmit={submit} noValidate aria-label="Create API token">
        <Field label="Name" error={errors.name}>
          <input className="input" value={form.name} maxLength={60} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <fieldset className="field" aria-invalid={errors.scopes ? true : undefined}>
          <legend className="field-label">Scopes</legend>
          {scopes.map((s) => (
            <label key={s} style={{ display: 'block' }}>
              <input type="checkbox" checked={form.scopes.includes(s)} onChange={() => toggle(s)} /> <code>{s}</code> <span className="muted">{SCOPE_LABELS[s]}</span>
            </label>
          ))}
          {errors.scopes && <p className="field-error">{errors.scopes}</p>}
        </fieldset>
        <Field label="Expires in (days)" hint="Empty: never expires." error={errors.expiresInDays}>
          <input className="input" inputMode="numeric" value={form.expiresInDays} onChange={(e) => setForm({ ...form, expiresInDays: e.target.value })} />
        </Field>
        {create.isError && !isApiError(create.error) && <InlineAlert tone="danger" title="Could not create the token" />}
        {create.isError && isApiError(create.error) && !create.error.fieldErrors.length && <InlineAlert tone="danger" title={create.error.summary} />}
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>Create token</button>
      </form>
      {tokens.isError ? (
        <ErrorState error={tokens.error} title="Could not load tokens" onRetry={() => void tokens.refetch()} />
      ) : !tokens.isPending && !tokens.data.items.length ? (
        <EmptyState icon="terminal" title="No API tokens yet">Create one above.</EmptyState>
      ) : (
        <table className="table table-cards" aria-label="API tokens" aria-busy={tokens.isPending}>
          <thead>
            <tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created by</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {tokens.isPending ? <SkeletonRows cols={6} /> : tokens.data.items.map((t) => (
              <tr key={t.id}>
                <td data-label="Name">{t.name}</td>
                <td data-label="Scopes">{t.scopes.map((s) => <Badge key={s} tone="neutral">{s}</Badge>)}</td>
                <td data-label="Created by">{t.createdBy ?? <span className="muted">Strata</span>}</td>
                <td data-label="Last used" title={t.lastUsedAt ? formatDateTime(t.lastUsedAt) : undefined}>{t.lastUsedAt ? formatAgo(t.lastUsedAt, now) : <span className="muted">never</span>}</td>
                <td data-label="Expires">{t.expiresAt ? formatDateTime(t.expiresAt) : <span className="muted">never</span>}</td>
                <td data-label="Actions">
                  {t.revokedAt ? <Badge tone="danger">revoked</Badge> : (
                    <button type="button" className="btn btn-danger-outline btn-sm" disabled={revoke.isPending}
                      onClick={() => { if (window.confirm(`Revoke "${t.name}"? Anything using it stops working at once.`)) revoke.mutate(t.id); }}>
                      Revoke<span className="visually-hidden"> {t.name}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function UsersSection({ session }: { session: Session }) {
  const users = useUsersQuery(true);
  const create = useUserCreateMutation();
  const setRole = useUserRoleMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setNewRole] = useState<Role>('member');
  const fieldError = (f: string) => (isApiError(create.error) ? create.error.fieldErrors.find((e) => e.field === f)?.message : undefined);

  return (
    <section className="card" aria-labelledby="users-title" style={{ marginBottom: 24, padding: 20 }}>
      <h2 id="users-title">Users and roles</h2>
      <p className="muted">viewer: {ROLE_SCOPES.viewer.join(', ')} · member: {ROLE_SCOPES.member.join(', ')} · admin: everything. A role also bounds the user&apos;s tokens.</p>
      {setRole.isError && isApiError(setRole.error) && <InlineAlert tone="danger" title={setRole.error.summary} />}
      {users.isError ? <ErrorState error={users.error} title="Could not load users" onRetry={() => void users.refetch()} /> : (
        <table className="table table-cards" aria-label="Users" aria-busy={users.isPending}>
          <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Since</th></tr></thead>
          <tbody>
            {users.isPending ? <SkeletonRows cols={3} /> : users.data.items.map((u) => (
              <tr key={u.id}>
                <td data-label="Email">{u.email}{u.id === session.user.id && <span className="muted"> (you)</span>}</td>
                <td data-label="Role">
                  <select className="input" aria-label={`Role of ${u.email}`} value={u.role} disabled={setRole.isPending}
                    onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as Role })}>
                    {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
                  </select>
                </td>
                <td data-label="Since">{formatDateTime(u.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form aria-label="Add user" noValidate onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ email, password, role }, { onSuccess: () => { setEmail(''); setPassword(''); } });
      }}>
        <Field label="Email" error={fieldError('email')}><input className="input" type="email" value={email} onChange={(e) => setEmail(e.target.value)} /></Field>
        <Field label="Initial password" hint="At least 8 characters." error={fieldError('password')}><input className="input" type="password" value={password} onChange={(e) => setPassword(e.target.value)} /></Field>
        <Field label="Role"><select className="input" value={role} onChange={(e) => setNewRole(e.target.value as Role)}>{ROLES.map((r) => <option key={r} value={r}>{r}</option>)}</select></Field>
        {create.isError && isApiError(create.error) && !create.error.fieldErrors.length && <InlineAlert tone="danger" title={create.error.summary} />}
        <button type="submit" className="btn btn-secondary" disabled={create.isPending}>Add user</button>
      </form>
    </section>
  );
}

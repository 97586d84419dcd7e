import { useState, type FormEvent } from 'react';
import { useSignInMutation } from '../../data/session/sign-in-mutation';
import { useDocumentTitle } from '../../lib/hooks';
import { Logo } from '../../components/layout/AppShell';
import { Field } from '../../components/ui/Field';
import { InlineAlert } from '../../components/ui/States';

export default function SignInPage() {
  useDocumentTitle('Sign in');
  const signIn = useSignInMutation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);

  const emailError = touched && !email.trim() ? 'Enter your email address.' : undefined;
  const passwordError = touched && !password ? 'Enter your password.' : undefined;

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!email.trim() || !password) return;
    // On success the session query updates and App redirects to ?next= or /clusters.
    signIn.mutate({ email: email.trim(), password });
  }

  const error = signIn.error;
  const message =
    error?.code === 'invalid_credentials'
      ? 'The email or password is incorrect.'
      : error?.code === 'validation_failed'
        ? 'Enter your email and password.'
        : error?.code === 'sign_in_locked'
          ? `Too many wrong passwords in a row: sign-in for this email is locked${error.retryAfterSeconds ? ` for ${waitText(error.retryAfterSeconds)}` : ''}. Wait and try again.`
          : error?.summary;

  return (
    <div className="auth">
      <main className="auth-card" id="main">
        <div className="auth-brand">
          <Logo size={36} />
          <span className="brand-name">Strata</span>
        </div>
        <h1 className="auth-title">Sign in to your console</h1>
        <p className="auth-subtitle">Managed Redis Cluster, on your own nodes.</p>
        {error && (
          <InlineAlert tone="danger" title="Could not sign in">
            {message}
          </InlineAlert>
        )}
        <form onSubmit={onSubmit} noValidate className="stack">
          <Field label="Email" error={emailError}>
            <input
              className="input"
              type="email"
              name="email"
              autoComplete="username"
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </Field>
          <Field label="Password" error={passwordError}>
            <input
              className="input"
              type="password"
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </Field>
          <button type="submit" className="btn btn-primary btn-block" disabled={signIn.isPending}>
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
        <p className="auth-foot">The first administrator is created when the control plane starts for the first time.</p>
      </main>
    </div>
  );
}

/** "40 seconds", "15 minutes". */
function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}

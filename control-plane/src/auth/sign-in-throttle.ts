/**
 * Locks an email out of console sign-in after repeated failures: after
 * `maxFailures` wrong passwords in a row (no success between, none older than
 * the lock time apart) the email is locked for `lockMs`, and every sign-in of
 * it is refused with 429 `sign_in_locked` and Retry-After, right password or
 * not. Counted per email hash in PostgreSQL, so a restart does not unlock and
 * unknown emails are treated the same as known ones.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { tooManyRequests, type AppError } from '../errors';

export interface SignInThrottleOptions {
  maxFailures: number;
  lockMs: number;
}

const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

export class SignInThrottle {
  constructor(private readonly pool: pg.Pool, private readonly o: SignInThrottleOptions) {}

  /** Throws 429 sign_in_locked while the email is locked. */
  async check(email: string): Promise<void> {
    const { rows } = await this.pool.query<{ left_ms: number }>(
      `SELECT (EXTRACT(EPOCH FROM locked_until - now()) * 1000)::float8 AS left_ms FROM sign_in_failures WHERE email_hash = $1 AND locked_until > now()`,
      [emailHash(email)],
    );
    if (rows[0]) throw locked(rows[0].left_ms);
  }

  /** Counts a wrong password; true when this failure locked the email. */
  async failed(email: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ failures: number; locked: boolean }>(
      `INSERT INTO sign_in_failures AS f (email_hash, failures, last_failure_at) VALUES ($1, 1, now())
       ON CONFLICT (email_hash) DO UPDATE SET
         failures = CASE WHEN f.last_failure_at < now() - make_interval(secs => $2 / 1000.0) OR f.locked_until IS NOT NULL THEN 1 ELSE f.failures + 1 END,
         last_failure_at = now(),
         locked_until = NULL
       RETURNING failures, false AS locked`,
      [emailHash(email), this.o.lockMs],
    );
    if ((rows[0]?.failures ?? 0) < this.o.maxFailures) return false;
    await this.pool.query(
      `UPDATE sign_in_failures SET failures = 0, locked_until = now() + make_interval(secs => $2 / 1000.0) WHERE email_hash = $1`,
      [emailHash(email), this.o.lockMs],
    );
    return true;
  }

  /** A successful sign-in clears the count. */
  async succeeded(email: string): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE email_hash = $1', [emailHash(email)]);
  }
}

function locked(leftMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(leftMs / 1000));
  return tooManyRequests('sign_in_locked', 'Sign-in locked',
    `Too many wrong passwords for this email in a row; sign-in is locked for ${seconds} s more, whatever the password.`, seconds);
}

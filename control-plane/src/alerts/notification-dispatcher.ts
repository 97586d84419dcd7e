/**
 * Sends queued deliveries (the queue is the notification_deliveries table, so
 * nothing waits in memory): at most `concurrency` at once and one per channel,
 * each attempt bounded by `timeoutMs`, retried with exponential backoff, then
 * marked failed. It shares nothing with the reconciler but the database pool,
 * and holds one connection at a time.
 */
import type { Logger } from 'pino';
import type { AlertNotification } from '@strata/api';
import type { SecretBox } from '../crypto/secret-box';
import type { AlertStore, ChannelRow, DeliveryRow } from './alert.store';
import { EmailSender, postWebhook, type AttemptResult, type SmtpSettings } from './notification-senders';

export interface DispatchTimings {
  /** Fallback: how often the queue is looked at unasked (new deliveries wake it at once, the next retry schedules its own wake). */
  pollMs: number;
  /** One attempt's limit (connect, send, answer). */
  timeoutMs: number;
  /** Attempts before a delivery is failed. */
  maxAttempts: number;
  /** Wait after the first failed attempt; doubles each time up to backoffMaxMs. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Deliveries in flight at once (over all channels; one per channel). */
  concurrency: number;
  /** Undelivered notifications a channel may hold before its oldest are dropped. */
  maxPendingPerChannel: number;
}

export const DEFAULT_DISPATCH: DispatchTimings = {
  pollMs: 15_000, timeoutMs: 5000, maxAttempts: 4, backoffBaseMs: 1000, backoffMaxMs: 60_000, concurrency: 32, maxPendingPerChannel: 100,
};

export const backoffMs = (t: DispatchTimings, attempt: number) => Math.min(t.backoffMaxMs, t.backoffBaseMs * 2 ** (attempt - 1));

export class NotificationDispatcher {
  private readonly inFlight = new Set<string>();
  private timer?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private stopped = true;
  private dueTimer?: NodeJS.Timeout;
  private readonly email: EmailSender | null;

  constructor(private readonly d: { store: AlertStore; box: SecretBox; log: Logger; timings: DispatchTimings; smtp: SmtpSettings | null }) {
    this.email = d.smtp ? new EmailSender(d.smtp, d.timings.timeoutMs) : null;
  }

  get smtpConfigured(): boolean {
    return !!this.email;
  }

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.d.timings.pollMs);
    this.timer.unref();
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.dueTimer);
    this.email?.close();
  }

  /** Looks for due deliveries now (a new one was queued). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.pass().catch((err) => this.d.log.error({ err }, 'notification pass failed')).finally(() => {
      this.running = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async pass(): Promise<void> {
    const t = this.d.timings;
    const claimed = await this.d.store.claimDue(t.concurrency - this.inFlight.size, [...this.inFlight], t.timeoutMs + 30_000);
    if (!claimed.length && !this.inFlight.size) {
      // Idle: wake when the next retry falls due instead of asking the database every poll (the poll stays as
      // the fallback for deliveries another process queued).
      const next = await this.d.store.nextDueAt();
      clearTimeout(this.dueTimer);
      if (next !== null && !this.stopped) {
        this.dueTimer = setTimeout(() => this.wake(), Math.max(0, next - Date.now()) + 5);
        this.dueTimer.unref();
      }
    }
    for (const c of claimed) {
      this.inFlight.add(c.channelId);
      void this.deliver(c, c.channel).catch((err) => this.d.log.error({ err, deliveryId: c.id }, 'recording a delivery attempt failed')).finally(() => {
        this.inFlight.delete(c.channelId);
        this.wake();
      });
    }
  }

  /** One attempt on the channel's transport. */
  private async send(ch: ChannelRow, n: AlertNotification): Promise<AttemptResult> {
    if (ch.type === 'email') {
      return this.email ? this.email.send(ch.to ?? [], n) : { ok: false, statusCode: null, error: 'no SMTP server configured (STRATA_SMTP_URL)' };
    }
    let secret: string | null;
    try {
      secret = ch.secretEnc ? this.d.box.open(ch.secretEnc) : null;
    } catch {
      return { ok: false, statusCode: null, error: 'the channel secret cannot be decrypted (master key changed?)' };
    }
    return postWebhook(ch.url!, ch.format ?? 'json', secret, n, this.d.timings.timeoutMs);
  }

  private async deliver(d: DeliveryRow, ch: ChannelRow): Promise<void> {
    const t = this.d.timings;
    const n = { ...(d.payload as AlertNotification), sentAt: new Date().toISOString() };
    const started = Date.now();
    const r = await this.send(ch, n);
    const attempt = d.attempts.length + 1;
    const record = { attempt, at: new Date(started).toISOString(), statusCode: r.statusCode, error: r.error, durationMs: Date.now() - started };
    const retryAt = !r.ok && attempt < t.maxAttempts ? new Date(Date.now() + backoffMs(t, attempt)) : null;
    if (!r.ok) this.d.log.warn({ deliveryId: d.id, channelId: ch.id, attempt, error: r.error, retry: !!retryAt }, 'notification not delivered');
    await this.d.store.recordAttempt(d.id, record, r.ok ? { delivered: true } : { delivered: false, retryAt });
  }
}

/**
 * The two ways out: an HTTP POST (webhooks) and SMTP (e-mail). Each attempt
 * ends within its timeout whatever the other side does, and answers with a
 * status code or an error, never throws.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertNotification } from '@strata/api';
import { emailMessage, sign, SIGNATURE_HEADER, webhookBody } from './notification-payload';

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

export interface SmtpSettings {
  /** smtp://user:pass@host:port or smtps://... */
  url: string;
  from: string;
}

const reason = (err: unknown): string => {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`.slice(0, 500);
};

export async function postWebhook(url: string, format: 'json' | 'slack', secret: string | null, n: AlertNotification, timeoutMs: number): Promise<AttemptResult> {
  const body = webhookBody(n, format);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json', 'User-Agent': 'Strata-Notifications/1', 'X-Strata-Delivery': n.deliveryId, 'X-Strata-Event': n.event,
  };
  if (secret) headers[SIGNATURE_HEADER] = sign(secret, body);
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => {});
    const ok = res.status >= 200 && res.status < 300;
    return { ok, statusCode: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    return { ok: false, statusCode: null, error: reason(err) };
  }
}

export class EmailSender {
  private readonly transport: Transporter;

  constructor(private readonly smtp: SmtpSettings, timeoutMs: number) {
    const u = new URL(smtp.url);
    const secure = u.protocol === 'smtps:';
    this.transport = nodemailer.createTransport({
      host: u.hostname, port: Number(u.port) || (secure ? 465 : 587), secure,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs,
    });
  }

  async send(to: string[], n: AlertNotification): Promise<AttemptResult> {
    const m = emailMessage(n);
    try {
      const info = await this.transport.sendMail({
        from: this.smtp.from, to, subject: m.subject, text: m.text, headers: { 'X-Strata-Delivery': n.deliveryId, 'X-Strata-Event': n.event },
      });
      const code = Number(/^(\d{3})/.exec(String(info.response ?? ''))?.[1] ?? 250);
      return { ok: true, statusCode: code, error: null };
    } catch (err) {
      const code = (err as { responseCode?: number }).responseCode;
      return { ok: false, statusCode: code ?? null, error: reason(err) };
    }
  }

  close(): void {
    this.transport.close();
  }
}

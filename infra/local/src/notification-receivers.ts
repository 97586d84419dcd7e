/**
 * Local receivers for notification tests and benches: an HTTP server that
 * records webhook requests (and can answer 500 or never answer), and a real
 * SMTP server (smtp-server) that records the mail it accepts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Requests that arrived, whatever they were answered (hung ones included). */
  attempts: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Paths: `/ok...` answers 204, `/fail...` 500, `/hang...` never answers (until close), `/slow...`
 * answers 200 after `slowMs`. Only `/ok` and `/slow` requests are recorded in `received`.
 */
export async function startWebhookReceiver(host = '127.0.0.1', slowMs = 3000): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const attempts = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      attempts.set(path, (attempts.get(path) ?? 0) + 1);
      const r = { path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      if (path.startsWith('/ok')) {
        received.push(r);
        res.writeHead(204).end();
      } else if (path.startsWith('/fail')) res.writeHead(500).end('boom');
      else if (path.startsWith('/slow')) setTimeout(() => { received.push(r); res.writeHead(200).end(); }, slowMs).unref();
      else hanging.add(res);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    received,
    attempts,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  at: number;
}

export interface SmtpReceiver {
  /** For STRATA_SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback (no TLS, no authentication) keeping every message it accepts. */
export async function startSmtpReceiver(host = '127.0.0.1'): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const { port } = (server as unknown as { server: http.Server }).server.address() as AddressInfo;
  return { url: `smtp://${host}:${port}`, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { OPERATION_TABLE } from '@strata/api';
import { validationFailed } from '../errors';
import { authenticateNode } from '../auth/auth.middleware';
import type { NodeStore } from '../stores/node.store';
import { parseBody } from './validate';
import { problemFromError } from './problem.middleware';
import { BODY_LIMIT } from './app';

/** The agent operations every node sends every second: the bulk of a fleet's requests. */
export type FastOperation = 'pushAgentMetrics' | 'reportAgentStatus' | 'getAgentEndpoints';
type Body<N extends FastOperation> = (typeof OPERATION_TABLE)[N] extends { body: infer B extends z.ZodType } ? z.infer<B> : undefined;
export type FastHandlers = { [N in FastOperation]: (nodeId: string, body: Body<N>) => Promise<unknown> };

export interface FastLaneDeps {
  nodes: NodeStore;
  log: Logger;
  handlers: FastHandlers;
  /** API latency (the same histogram Express requests go to). */
  observe?: (method: string, route: string, status: number, seconds: number) => void;
}

/**
 * Serves the agents' once-a-second requests (POST /v1/agent/metrics, which
 * carries the status report, POST /v1/agent/status and GET
 * /v1/agent/endpoints, the list an agent polls every second) without Express:
 * measured here, Express's router, body parser and response helpers cost
 * ~250 us of CPU per request, more than the ingestion itself; at 1,000 nodes
 * that was a quarter of a core. Method, path and body schema come from
 * OPERATION_TABLE, the handlers are the ones the Express routes call, and
 * errors are the same problem+json (401, 400 naming the field, 413). Every
 * other request goes to `app`.
 */
export function agentFastLane(app: RequestListener, d: FastLaneDeps): RequestListener {
  const gate = new PerTurnGate(PUSHES_PER_TURN);
  const lanes = new Map<string, FastOperation>();
  for (const name of ['pushAgentMetrics', 'reportAgentStatus', 'getAgentEndpoints'] as const) {
    const op = OPERATION_TABLE[name];
    lanes.set(`${op.method.toUpperCase()} ${op.path}`, name);
  }
  const answers = new AnswerMemo();
  return (req, res) => {
    const name = lanes.get(`${req.method} ${req.url}`);
    if (!name) return app(req, res);
    void serve(name, req, res, d, gate, answers);
  };
}

/** Metrics pushes handled per turn of the event loop (~0.5 ms of CPU each). */
const PUSHES_PER_TURN = 8;

/**
 * Lets at most `perTurn` callers through per turn of the event loop. A
 * fleet's pushes arrive in a burst every second; handled as they arrive,
 * hundreds of them ran back to back in one turn, and an API request needing
 * three or four turns (authentication, a query, the answer) waited behind
 * each batch: p99 in the hundreds of milliseconds with the loop itself never
 * blocked for long. Through the gate, every turn does a few pushes and
 * whatever else is ready.
 */
export class PerTurnGate {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  constructor(private readonly perTurn: number) {}

  pass(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.release());
      }
    });
  }

  private release(): void {
    for (const resolve of this.waiting.splice(0, this.perTurn)) resolve();
    if (this.waiting.length) setImmediate(() => this.release());
    else this.scheduled = false;
  }
}

/**
 * The JSON of the last answer, for a handler that answers with the same
 * object again (the endpoint list is cached for 500 ms and every agent asks
 * for it each second).
 */
class AnswerMemo {
  private last?: { out: unknown; payload: string };

  json(out: unknown): string {
    if (this.last && this.last.out === out && typeof out === 'object' && out !== null) return this.last.payload;
    const payload = JSON.stringify(out);
    this.last = { out, payload };
    return payload;
  }
}

async function serve(name: FastOperation, req: IncomingMessage, res: ServerResponse, d: FastLaneDeps, gate: PerTurnGate, answers: AnswerMemo): Promise<void> {
  const started = performance.now();
  const op = OPERATION_TABLE[name];
  const route = op.path;
  try {
    const node = await authenticateNode(req, d.nodes);
    let body: unknown;
    if ('body' in op) {
      const text = await readBody(req);
      // Status reports on their own route are changes (a crash, a failover): they never queue behind metrics.
      if (name === 'pushAgentMetrics') await gate.pass();
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
        throw validationFailed([{ field: '(body)', message: 'send the body as application/json' }]);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw Object.assign(new Error('bad json'), { type: 'entity.parse.failed' });
      }
      body = parseBody(op.body, json);
    }
    const out = await (d.handlers[name] as (nodeId: string, body: unknown) => Promise<unknown>)(node.id, body);
    const status = op.success.status;
    if (status === 204) {
      res.writeHead(204).end();
    } else {
      const payload = name === 'getAgentEndpoints' ? answers.json(out) : JSON.stringify(out);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) }).end(payload);
    }
    d.observe?.(req.method!, route, status, (performance.now() - started) / 1000);
  } catch (err) {
    const p = problemFromError(err, req.url);
    if (p.status >= 500) d.log.error({ err, path: req.url }, 'request failed');
    const payload = JSON.stringify(p);
    // A body too large is not read to its end: close the connection instead of reading megabytes to keep it.
    const headers = { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...(p.status === 413 ? { connection: 'close' } : {}) };
    if (!res.headersSent) res.writeHead(p.status, headers).end(payload);
    d.observe?.(req.method!, route, p.status, (performance.now() - started) / 1000);
  }
}

const tooLarge = () => Object.assign(new Error('request entity too large'), { type: 'entity.too.large', limit: BODY_LIMIT });

function readBody(req: IncomingMessage): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > BODY_LIMIT) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > BODY_LIMIT) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
      } else chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

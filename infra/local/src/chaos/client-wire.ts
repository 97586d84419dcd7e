/**
 * What a chaos client process (client-worker.ts) and the checker say to each
 * other, one JSON object a line. Pure: lines in, checked messages out.
 *
 * Checker -> worker (its stdin): the first line is the worker's
 * `WorkerConfig`; a later `stop` line, or the end of stdin (the checker
 * ended, however it ended), stops its clients.
 * Worker -> checker (its stdout): `{"ready":true}` once it has a slot map
 * and its clients append, `{"op":{...}}` for every finished append (timed in
 * ms since the config's `t0`, a wall-clock time both share), and
 * `{"done":N}` (the ops it sent) when its clients have stopped.
 */
import type { AppendOp } from './history';
import type { Login } from './list-appender';

export interface WorkerConfig {
  seeds: string[];
  login: Login;
  keys: string[];
  /** Wall-clock ms (Date.now()) the run's times count from. */
  t0: number;
  /** Wall-clock ms after which the clients stop by themselves (and the process exits soon after). */
  deadline: number;
  clients: { client: number; kind: 'plain' | 'wait' }[];
}

export type WorkerMessage = { ready: true } | { op: AppendOp } | { done: number };

export const STOP_LINE = 'stop';

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');
const isKind = (x: unknown): x is 'plain' | 'wait' => x === 'plain' || x === 'wait';
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

export function parseWorkerConfig(line: string): WorkerConfig {
  const c = JSON.parse(line) as Partial<WorkerConfig>;
  const ok = isStrings(c.seeds) && c.seeds.length > 0 && typeof c.login?.username === 'string' && typeof c.login.password === 'string'
    && isStrings(c.keys) && c.keys.length > 0 && isFiniteNumber(c.t0) && isFiniteNumber(c.deadline)
    && Array.isArray(c.clients) && c.clients.length > 0 && c.clients.every((x) => Number.isInteger(x?.client) && x.client >= 1 && isKind(x.kind));
  if (!ok) throw new Error('chaos client: not a worker config');
  return c as WorkerConfig;
}

function isAppendOp(o: unknown): o is AppendOp {
  const x = o as Partial<AppendOp> | null;
  return !!x && Number.isInteger(x.client) && typeof x.key === 'string' && Number.isInteger(x.value) && isKind(x.kind)
    && (x.status === 'ok' || x.status === 'failed' || x.status === 'unknown') && isFiniteNumber(x.start) && isFiniteNumber(x.end)
    && (x.error === undefined || typeof x.error === 'string');
}

/** A worker's line as a message; null for anything else (a stray line is not an op). */
export function parseWorkerLine(line: string): WorkerMessage | null {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!m || typeof m !== 'object') return null;
  if (m.ready === true) return { ready: true };
  if (Number.isInteger(m.done) && (m.done as number) >= 0) return { done: m.done as number };
  if (isAppendOp(m.op)) return { op: m.op };
  return null;
}

export const workerLine = (m: WorkerMessage): string => `${JSON.stringify(m)}\n`;

/**
 * One worker's stream as it arrives: its ops, whether it said ready, and whether it is whole (its `done` count
 * matches the ops received: a worker killed or crashed loses the ops it had not written yet, which a run reports).
 */
export class WorkerStream {
  readonly ops: AppendOp[] = [];
  ready = false;
  done: number | null = null;
  strayLines = 0;

  accept(line: string): WorkerMessage | null {
    const m = parseWorkerLine(line);
    if (!m) this.strayLines++;
    else if ('op' in m) this.ops.push(m.op);
    else if ('ready' in m) this.ready = true;
    else this.done = m.done;
    return m;
  }

  get whole(): boolean {
    return this.done === this.ops.length;
  }
}

/**
 * One history from the ops recorded in this process and those each worker sent, in start order. An op of a
 * client that was not placed where it came from is left out and counted (it would be a wiring mistake, and
 * its client's figures would be wrong).
 */
export function mergeHistories(sources: readonly { host: string; ops: readonly AppendOp[] }[], clients: readonly { client: number; host: string }[]): { ops: AppendOp[]; misplaced: number } {
  const hostOf = new Map(clients.map((c) => [c.client, c.host]));
  const ops: AppendOp[] = [];
  let misplaced = 0;
  for (const s of sources) for (const op of s.ops) {
    if (hostOf.get(op.client) === s.host) ops.push(op);
    else misplaced++;
  }
  ops.sort((a, b) => a.start - b.start || a.client - b.client);
  return { ops, misplaced };
}

/**
 * The analytic query done client-side: every primary is scanned in parallel
 * (SCAN ... COUNT 1000 TYPE hash on that node), and `HGET key field0` for each
 * batch is pipelined on the same connection, counting sentences as the bytes
 * arrive. Each server call is small, so no node is blocked for long (the
 * longest batch, send to last reply, is reported as an upper bound).
 */
import { performance } from 'node:perf_hooks';
import { RespConnection, type ReplyHandler } from './resp-connection';
import { ParseMode, ReplyType, type Reply } from './resp';
import { splitEndpoint } from './ops-runner';

export interface AnalyticNodeResult {
  endpoint: string;
  records: number;
  sentences: number;
  longestBatchMs: number;
  errors: number;
  firstError?: string;
}

const BATCHES_IN_FLIGHT = 4;
const SCAN_COUNT = '1000';

export async function scanNode(endpoint: string, auth: { username: string; password: string } | undefined): Promise<AnalyticNodeResult> {
  const [host, port] = splitEndpoint(endpoint);
  const conn = await RespConnection.connect(host, port, auth);
  const seen = new Set<string>();
  const result: AnalyticNodeResult = { endpoint, records: 0, sentences: 0, longestBatchMs: 0, errors: 0 };
  try {
    let cursor = '0';
    let started = false;
    const pending: Promise<void>[] = [];
    while (!started || cursor !== '0') {
      started = true;
      const t0 = performance.now();
      const reply = await conn.call(['SCAN', cursor, 'COUNT', SCAN_COUNT, 'TYPE', 'hash']);
      if (reply instanceof Error) throw reply;
      const [next, keys] = reply as [string, string[]];
      cursor = next;
      const fresh = keys.filter((k) => !seen.has(k));
      for (const k of fresh) seen.add(k);
      pending.push(hgetBatch(conn, fresh, t0, result));
      if (pending.length >= BATCHES_IN_FLIGHT) await pending.shift();
    }
    await Promise.all(pending);
    result.records = seen.size;
  } finally {
    conn.close();
  }
  return result;
}

function hgetBatch(conn: RespConnection, keys: string[], t0: number, result: AnalyticNodeResult): Promise<void> {
  if (keys.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = keys.length;
    const handler: ReplyHandler = {
      onReply(r: Reply, now: number) {
        if (r.type === ReplyType.Error) {
          result.errors++;
          result.firstError ??= String(r.value);
        } else if (r.integer > 0) {
          result.sentences += r.integer;
        } else {
          result.errors++;
          result.firstError ??= 'record without field0';
        }
        if (--left === 0) {
          result.longestBatchMs = Math.max(result.longestBatchMs, now - t0);
          resolve();
        }
      },
      onFailure(err: Error) {
        result.errors++;
        result.firstError ??= err.message;
        if (--left === 0) resolve();
      },
    };
    for (const k of keys) conn.send('*3\r\n$4\r\nHGET\r\n$' + k.length + '\r\n' + k + '\r\n$6\r\nfield0\r\n', handler, ParseMode.Dots);
  });
}

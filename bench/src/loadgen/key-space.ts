/**
 * Counting and removing the keys under a prefix on a Redis Cluster (a
 * benchmark's own key space, bench-keys.ts): SCAN MATCH on every primary the
 * cluster names now (CLUSTER SLOTS, asked of any reachable member, so a
 * failover during the run is followed), UNLINK in batches. Keys without the
 * prefix are never read or written.
 */
import { RespConnection } from './resp-connection';
import { parseClusterSlots } from './slot-map';
import { globEscape } from './analytic-scan';

type Auth = { username: string; password: string; tls?: { ca: string; cert?: string; key?: string } } | undefined;

const split = (e: string): [string, number] => {
  const i = e.lastIndexOf(':');
  return [e.slice(0, i), Number(e.slice(i + 1))];
};

/** The cluster's current primaries (host:port), asked of the first member that answers. */
export async function currentPrimaries(members: readonly string[], auth: Auth): Promise<string[]> {
  let last: unknown = new Error('no cluster member given');
  for (const m of members) {
    try {
      const [host, port] = split(m);
      const c = await RespConnection.connect(host, port, auth, 3000);
      try {
        const reply = await c.call(['CLUSTER', 'SLOTS']);
        if (reply instanceof Error) throw reply;
        return [...new Set(parseClusterSlots(reply).map((r) => `${r.host}:${r.port}`))];
      } finally {
        c.close();
      }
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}

/** Walks every key under `prefix` on one primary, a SCAN page at a time. */
async function eachPage(conn: RespConnection, prefix: string, page: (keys: string[]) => Promise<void>): Promise<void> {
  if (!prefix) throw new Error('refusing to walk every key: empty prefix');
  let cursor = '0';
  do {
    const reply = await conn.call(['SCAN', cursor, 'MATCH', `${globEscape(prefix)}*`, 'COUNT', '1000']);
    if (reply instanceof Error) throw reply;
    const [next, keys] = reply as [string, string[]];
    cursor = next;
    if (keys.length) await page(keys);
  } while (cursor !== '0');
}

async function onPrimaries<T>(members: readonly string[], auth: Auth, f: (conn: RespConnection) => Promise<T>): Promise<T[]> {
  const primaries = await currentPrimaries(members, auth);
  return Promise.all(
    primaries.map(async (p) => {
      const [host, port] = split(p);
      const conn = await RespConnection.connect(host, port, auth, 3000);
      try {
        return await f(conn);
      } finally {
        conn.close();
      }
    }),
  );
}

/** Keys under `prefix` on the cluster's primaries. */
export async function countKeys(members: readonly string[], auth: Auth, prefix: string): Promise<number> {
  const counts = await onPrimaries(members, auth, async (conn) => {
    let n = 0;
    await eachPage(conn, prefix, async (keys) => {
      n += keys.length;
    });
    return n;
  });
  return counts.reduce((a, b) => a + b, 0);
}

/** Removes every key under `prefix` (UNLINK: freed in the background); returns how many were removed. */
export async function removeKeys(members: readonly string[], auth: Auth, prefix: string): Promise<number> {
  const removed = await onPrimaries(members, auth, async (conn) => {
    let n = 0;
    await eachPage(conn, prefix, async (keys) => {
      // One key per UNLINK: keys of one page may live in different slots (a multi-key UNLINK needs one slot).
      const replies = await Promise.all(keys.map((k) => conn.call(['UNLINK', k])));
      for (const r of replies) if (typeof r === 'number') n += r;
    });
    return n;
  });
  return removed.reduce((a, b) => a + b, 0);
}

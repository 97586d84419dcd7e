/**
 * Cluster membership changes: a new instance joins as a replica of its
 * shard's primary, and members forget every node that is no member.
 */
import type { Redis } from 'ioredis';
import type { AdminLogin } from './admin-connection';
import { AdminConnectionPool } from './admin-connection';
import { parseClusterNodes } from './cluster-reply.parser';
import { membership, nodesToForget } from '../membership.rule';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * MEETs the primary, waits until the handshake is done, then REPLICATEs it
 * and waits until Redis calls itself a replica of it. Idempotent.
 */
export async function joinAsReplica(client: Redis, primary: { host: string; port: number }, opts: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  const find = async () => parseClusterNodes(String(await client.call('CLUSTER', 'NODES')))
    .find((n) => n.host === primary.host && n.port === primary.port && !n.flags.includes('handshake'));
  let entry = await find();
  if (!entry) await client.call('CLUSTER', 'MEET', primary.host, String(primary.port));
  while (!entry || entry.role !== 'primary') {
    if (Date.now() > deadline) throw new Error(`${primary.host}:${primary.port} did not become known as a primary in time`);
    await sleep(50);
    entry = await find();
  }
  const myself = parseClusterNodes(String(await client.call('CLUSTER', 'NODES'))).find((n) => n.myself)!;
  if (myself.role === 'replica' && myself.primaryId === entry.id) return;
  for (;;) {
    try {
      await client.call('CLUSTER', 'REPLICATE', entry.id);
      return;
    } catch (err) {
      // A primary that owns no slot but holds keys (one killed and restarted with its files while keys were
      // copied into its new shard, whose replica took over meanwhile) is refused: "To set a master the node
      // must be empty and without assigned slots". A node without slots serves none of its keys; as a replica
      // it would drop them at the full sync anyway. Empty it and ask again.
      if (/must be empty/.test((err as Error).message)) {
        const me = parseClusterNodes(String(await client.call('CLUSTER', 'NODES'))).find((n) => n.myself)!;
        if (me.role === 'primary' && me.slots.length === 0) {
          await client.call('FLUSHALL', 'SYNC');
          continue;
        }
      }
      // "Unknown node" until the primary's id has spread to this node.
      if (Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

/**
 * Every running member forgets every node it knows that has neither a
 * member's Redis id nor a member's address (membership.rule.ts). Members that
 * do not run are only kept. Nodes a member does not know are fine.
 */
export async function forgetNodes(opts: {
  members: { host: string; port: number; engineId: string | null; running: boolean }[];
  username: string;
  password: string;
  /** TLS cluster: verify instances against this CA. */
  tls?: AdminLogin['tls'];
}): Promise<void> {
  const pool = new AdminConnectionPool({ username: opts.username, password: opts.password, tls: opts.tls }, 3000);
  try {
    const runners = opts.members.filter((m) => m.running);
    const myIds = await Promise.all(runners.map(async (m) => String(await (await pool.get(m.host, m.port)).call('CLUSTER', 'MYID'))));
    const members = membership(opts.members, myIds);
    await Promise.all(runners.map(async (m) => {
      const c = await pool.get(m.host, m.port);
      for (const id of nodesToForget(parseClusterNodes(String(await c.call('CLUSTER', 'NODES'))), members)) {
        try {
          await c.call('CLUSTER', 'FORGET', id);
        } catch (err) {
          if (!/Unknown node/i.test((err as Error).message)) throw err;
        }
      }
    }));
  } finally {
    await pool.closeAll();
  }
}

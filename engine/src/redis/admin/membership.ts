/**
 * Cluster membership changes for node-loss healing: a new instance joins
 * as a replica of its shard's primary, and members forget lost node ids.
 */
import type { Redis } from 'ioredis';
import { AdminConnectionPool } from './admin-connection';
import { parseClusterNodes } from './cluster-reply.parser';

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
      // "Unknown node" until the primary's id has spread to this node.
      if (Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

/** CLUSTER FORGET each lost id on every member (members that do not know it are fine). */
export async function forgetNodes(opts: {
  members: { host: string; port: number }[];
  engineIds: string[];
  /** lost instances whose node id was never recorded: node ids known at these addresses (and no member's) are forgotten too */
  lostAddresses?: { host: string; port: number }[];
  /** every instance's address: node ids known at none of them (and no member's) are forgotten too */
  keepAddresses?: { host: string; port: number }[];
  username: string;
  password: string;
}): Promise<void> {
  const pool = new AdminConnectionPool({ username: opts.username, password: opts.password }, 3000);
  try {
    const myIds = await Promise.all(opts.members.map(async (m) => String(await (await pool.get(m.host, m.port)).call('CLUSTER', 'MYID'))));
    const memberIds = new Set(myIds);
    const lostAt = new Set((opts.lostAddresses ?? []).map((a) => `${a.host}:${a.port}`));
    const keep = opts.keepAddresses ? new Set(opts.keepAddresses.map((a) => `${a.host}:${a.port}`)) : null;
    await Promise.all(opts.members.map(async (m, k) => {
      const c = await pool.get(m.host, m.port);
      const myId = myIds[k]!;
      const ids = new Set(opts.engineIds);
      if (lostAt.size || keep) {
        for (const e of parseClusterNodes(String(await c.call('CLUSTER', 'NODES')))) {
          if (e.myself || memberIds.has(e.id)) continue;
          const at = `${e.host}:${e.port}`;
          if (lostAt.has(at) || (keep && !keep.has(at))) ids.add(e.id);
        }
      }
      for (const id of ids) {
        if (id === myId) continue;
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

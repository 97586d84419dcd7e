/**
 * Promotes a replica: `CLUSTER FAILOVER FORCE` / `TAKEOVER` when its primary
 * is dead (the agent saw the process exit), or a plain `CLUSTER FAILOVER`
 * for a data-safe switchover (the primary pauses writes until the replica
 * has caught up). Waits until the replica is a primary.
 */
import type { Redis } from 'ioredis';

export type PromoteMode = 'force' | 'takeover' | 'switchover';

export interface PromoteResult {
  mode: PromoteMode;
  /** When the replica said it was a primary. */
  promotedAt: string;
}

const POLL_MS = 10;
/** A forced failover that has not won its election by then is retried as a takeover. */
const FORCE_FALLBACK_MS = 700;

async function isPrimary(client: Redis): Promise<boolean> {
  const role = (await client.call('ROLE')) as unknown[];
  return role?.[0] === 'master';
}

export async function promoteReplica(client: Redis, mode: PromoteMode, opts: { timeoutMs?: number; log?: (msg: string) => void } = {}): Promise<PromoteResult> {
  const log = opts.log ?? (() => {});
  if (await isPrimary(client)) return { mode, promotedAt: new Date().toISOString() };
  const started = Date.now();
  const deadline = started + (opts.timeoutMs ?? (mode === 'switchover' ? 15_000 : 5_000));
  let used: PromoteMode = mode;
  const issue = async (m: PromoteMode) => {
    await client.call('CLUSTER', 'FAILOVER', ...(m === 'switchover' ? [] : [m.toUpperCase()]));
    log(`CLUSTER FAILOVER ${m === 'switchover' ? '' : m.toUpperCase()} issued`);
  };
  await issue(mode);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (await isPrimary(client)) return { mode: used, promotedAt: new Date().toISOString() };
    if (used === 'force' && Date.now() - started > FORCE_FALLBACK_MS) {
      used = 'takeover';
      await issue('takeover');
    }
  }
  throw new Error(`replica was not promoted within ${Date.now() - started} ms (CLUSTER FAILOVER ${mode})`);
}

/**
 * Diagnostics read from a running engine (used only by agents): its slow
 * log, and a throttled scan for its biggest and hottest keys.
 */
import type { Redis } from 'ioredis';
import { TopN, parseSlowLogEntry, printable, restAfter, type SlowRecord } from '../diagnostics/key-rank';

export interface SlowLogReading {
  length: number;
  slowerThanMicros: number | null;
  maxLen: number | null;
  role: 'primary' | 'replica' | null;
  entries: SlowRecord[];
}

const configNumber = async (client: Redis, name: string): Promise<number | null> => {
  const r = (await client.call('CONFIG', 'GET', name)) as string[];
  return r.length >= 2 ? Number(r[1]) : null;
};

/** The newest `limit` entries of the instance's SLOWLOG, with its settings. */
export async function readSlowLog(client: Redis, limit: number, limits: { args: number; argChars: number }): Promise<SlowLogReading> {
  const [raw, length, slowerThanMicros, maxLen, role] = await Promise.all([
    client.callBuffer('SLOWLOG', 'GET', String(limit)) as Promise<unknown[]>,
    client.call('SLOWLOG', 'LEN') as Promise<number>,
    configNumber(client, 'slowlog-log-slower-than'),
    configNumber(client, 'slowlog-max-len'),
    client.call('ROLE').then((r) => { const kind = String((r as unknown[])[0]); return kind === 'master' ? 'primary' as const : kind === 'slave' ? 'replica' as const : null; }),
  ]);
  return { length: Number(length), slowerThanMicros, maxLen, role, entries: raw.map((e) => parseSlowLogEntry(e, limits)) };
}

export async function resetSlowLog(client: Redis): Promise<void> {
  await client.call('SLOWLOG', 'RESET');
}

export interface KeyScanOptions {
  topN: number;
  budgetMs: number;
  batchSize: number;
  pauseMs: number;
  hotKeys: boolean;
  shouldStop?: () => boolean;
  /** Called after every batch. */
  onBatch?: (p: { keysScanned: number; keysInShard: number }) => void;
  /** Longest shown key name. */
  keyChars?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface KeyScanOutcome {
  keysScanned: number;
  keysInShard: number;
  complete: boolean;
  elapsedMs: number;
  batches: number;
  bigKeys: { key: string; type: string; bytes: number }[];
  hotKeys: { key: string; type: string; freq: number }[] | null;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * One batch on the engine itself: SCAN, then MEMORY USAGE (and OBJECT FREQ)
 * of each key it returned, answering only the keys above the lists' current
 * floors. A few hundred microseconds of the engine's time; the scanner gets a
 * handful of keys back instead of a reply per key (on a small host the
 * scanner's own CPU is what its neighbours feel). Keys of this node only, so
 * no key is declared (Redis Cluster allows that in a script without flags).
 * ARGV: cursor, count, big floor, hot (0/1), hot floor.
 */
const BATCH_SCRIPT = `
local r = redis.call('SCAN', ARGV[1], 'COUNT', ARGV[2])
local bigFloor, hot, hotFloor = tonumber(ARGV[3]), ARGV[4] == '1', tonumber(ARGV[5])
local big, hotKeys = {}, {}
for _, k in ipairs(r[2]) do
  local b = redis.pcall('MEMORY', 'USAGE', k)
  if type(b) == 'number' and b > bigFloor then big[#big + 1] = k; big[#big + 1] = b end
  if hot then
    local f = redis.pcall('OBJECT', 'FREQ', k)
    if type(f) == 'number' and f > hotFloor then hotKeys[#hotKeys + 1] = k; hotKeys[#hotKeys + 1] = f end
  end
end
return {r[1], #r[2], big, hotKeys}`;

/**
 * SCAN the instance's keys in batches, each one script call on the engine
 * (`BATCH_SCRIPT`: SCAN + MEMORY USAGE, and OBJECT FREQ under an LFU policy).
 * It rests after each batch
 * (`restAfter`) and stops when SCAN went round, the budget is spent or
 * `shouldStop` says so. The types of the keys kept are read at the end.
 * Give it a connection of its own: its calls on a shared one would delay
 * whatever else uses it.
 */
export async function scanKeys(client: Redis, o: KeyScanOptions): Promise<KeyScanOutcome> {
  const started = performance.now();
  const sleep = o.sleep ?? defaultSleep;
  const keysInShard = Number(await client.call('DBSIZE'));
  const big = new TopN<Buffer>(o.topN);
  const hot = o.hotKeys ? new TopN<Buffer>(o.topN) : null;
  let cursor = '0';
  let keysScanned = 0;
  let batches = 0;
  let complete = false;
  for (;;) {
    if (o.shouldStop?.() || performance.now() - started >= o.budgetMs) break;
    const batchStart = performance.now();
    const floor = (t: TopN<Buffer> | null) => String(t && Number.isFinite(t.floor) ? t.floor : -1);
    const [next, count, bigPairs, hotPairs] = (await client.callBuffer(
      'EVAL', BATCH_SCRIPT, '0', cursor, String(o.batchSize), floor(big), hot ? '1' : '0', floor(hot),
    )) as [Buffer, number, (Buffer | number)[], (Buffer | number)[]];
    cursor = next.toString();
    for (let i = 0; i + 1 < bigPairs.length; i += 2) big.offer(bigPairs[i] as Buffer, Number(bigPairs[i + 1]));
    if (hot) for (let i = 0; i + 1 < hotPairs.length; i += 2) hot.offer(hotPairs[i] as Buffer, Number(hotPairs[i + 1]));
    keysScanned += Number(count);
    batches++;
    o.onBatch?.({ keysScanned, keysInShard });
    if (cursor === '0') { complete = true; break; }
    await sleep(restAfter(performance.now() - batchStart, o.pauseMs));
  }
  const keyChars = o.keyChars ?? 200;
  const typeOf = async (list: { item: Buffer }[]): Promise<string[]> => {
    if (!list.length) return [];
    const p = client.pipeline();
    for (const { item } of list) p.call('TYPE', item);
    return ((await p.exec()) ?? []).map(([err, t]) => (err ? 'unknown' : String(t)));
  };
  const bigList = big.list();
  const bigTypes = await typeOf(bigList);
  const hotList = hot?.list() ?? [];
  const hotTypes = await typeOf(hotList);
  return {
    keysScanned, keysInShard, complete, batches, elapsedMs: Math.round(performance.now() - started),
    bigKeys: bigList.map((b, i) => ({ key: printable(b.item, keyChars), type: bigTypes[i]!, bytes: b.score })),
    hotKeys: hot ? hotList.map((h, i) => ({ key: printable(h.item, keyChars), type: hotTypes[i]!, freq: h.score })) : null,
  };
}

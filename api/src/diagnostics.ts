/**
 * Diagnostics of a running cluster: the slow log of every instance merged,
 * big and hot keys per shard found by a throttled scan, and per-shard load
 * and memory side by side (skew). Also what agents are asked to do for them
 * and what they answer.
 */
import { z, Id, Timestamp, safeString, freeText } from './common';
import { InstanceRole } from './clusters';

// ---- Slow log ----

export const SLOWLOG_LIMITS = { perInstance: { min: 1, max: 1000, default: 128 }, argChars: 64, args: 16 } as const;

export const SlowLogQuery = z.object({
  limit: z.coerce.number().int().min(SLOWLOG_LIMITS.perInstance.min).max(SLOWLOG_LIMITS.perInstance.max).optional()
    .describe(`newest entries read from each instance (default ${SLOWLOG_LIMITS.perInstance.default})`),
});
export type SlowLogQuery = z.infer<typeof SlowLogQuery>;

/** One entry of one instance's SLOWLOG, as an agent reads it. */
export const SlowLogRecord = z.object({
  id: z.number().int().describe("the entry's id on its instance"),
  at: Timestamp.describe('when the command ran (second resolution)'),
  durationMicros: z.number().int(),
  command: safeString().describe('the command name, upper case'),
  args: z.array(safeString()).describe(`its arguments, each cut to ${SLOWLOG_LIMITS.argChars} characters, at most ${SLOWLOG_LIMITS.args}; bytes that are not printable shown as \\xHH`),
  argsOmitted: z.number().int().describe('arguments left out (by Redis or here)'),
  client: safeString().describe('client address (host:port)'),
  clientName: safeString().describe('CLIENT SETNAME of the client, or empty'),
});
export type SlowLogRecord = z.infer<typeof SlowLogRecord>;

export const SlowLogEntry = SlowLogRecord.extend({
  instanceId: Id,
  shard: z.number().int(),
  role: InstanceRole.nullable().describe('its role when read'),
  address: z.string().describe('host:port of the instance'),
  nodeName: z.string(),
}).openapi('SlowLogEntry');
export type SlowLogEntry = z.infer<typeof SlowLogEntry>;

export const SlowLogSource = z.object({
  instanceId: Id,
  shard: z.number().int(),
  address: z.string(),
  ok: z.boolean(),
  error: z.string().optional().describe('why it could not be read (node offline, engine down, no answer in time)'),
  length: z.number().int().nullable().describe('entries the instance holds (SLOWLOG LEN)'),
  slowerThanMicros: z.number().int().nullable().describe('slowlog-log-slower-than on the instance'),
  maxLen: z.number().int().nullable().describe('slowlog-max-len on the instance'),
}).openapi('SlowLogSource');
export type SlowLogSource = z.infer<typeof SlowLogSource>;

export const SlowLog = z.object({
  clusterId: Id,
  readAt: Timestamp,
  entries: z.array(SlowLogEntry).describe('every instance\'s entries merged: newest first, the slowest first within a second'),
  sources: z.array(SlowLogSource).describe('each instance read, and whether it answered'),
}).openapi('SlowLog');
export type SlowLog = z.infer<typeof SlowLog>;

export const SlowLogReset = z.object({
  reset: z.number().int().describe('instances whose slow log was emptied'),
  sources: z.array(SlowLogSource),
}).openapi('SlowLogReset');
export type SlowLogReset = z.infer<typeof SlowLogReset>;

// ---- Key scans (big keys, hot keys) ----

export const KEY_SCAN_LIMITS = {
  topN: { min: 1, max: 100, default: 10 },
  budgetMs: { min: 500, max: 600_000, default: 300_000 },
  batchSize: { min: 10, max: 1000, default: 1000 },
  pauseMs: { min: 0, max: 1000, default: 1000 },
} as const;

export const KeyScanRequest = z
  .strictObject({
    topN: z.number().int().min(KEY_SCAN_LIMITS.topN.min).max(KEY_SCAN_LIMITS.topN.max).optional()
      .describe(`keys kept per shard and list (default ${KEY_SCAN_LIMITS.topN.default})`),
    budgetMs: z.number().int().min(KEY_SCAN_LIMITS.budgetMs.min).max(KEY_SCAN_LIMITS.budgetMs.max).optional()
      .describe(`longest a shard's scan may take; it stops there and says how far it got (default ${KEY_SCAN_LIMITS.budgetMs.default})`),
    batchSize: z.number().int().min(KEY_SCAN_LIMITS.batchSize.min).max(KEY_SCAN_LIMITS.batchSize.max).optional()
      .describe(`keys per SCAN call and per pipelined batch of MEMORY USAGE (default ${KEY_SCAN_LIMITS.batchSize.default})`),
    pauseMs: z.number().int().min(KEY_SCAN_LIMITS.pauseMs.min).max(KEY_SCAN_LIMITS.pauseMs.max).optional()
      .describe(`least rest between batches, so the primary serves its clients in between (default ${KEY_SCAN_LIMITS.pauseMs.default}); the scan also rests at least four times as long as its last batch took`),
  })
  .openapi('KeyScanRequest');
export type KeyScanRequest = z.infer<typeof KeyScanRequest>;

export const KeyScanParams = z.object({
  topN: z.number().int(), budgetMs: z.number().int(), batchSize: z.number().int(), pauseMs: z.number().int(),
  hotKeys: z.boolean().describe('OBJECT FREQ is read too (the eviction policy is an LFU one)'),
});
export type KeyScanParams = z.infer<typeof KeyScanParams>;

export const BigKey = z.object({
  key: safeString().describe('bytes that are not printable shown as \\xHH; cut to 200 characters'),
  type: safeString().describe('string, list, set, zset, hash, stream'),
  bytes: z.number().int().describe('MEMORY USAGE (nested values sampled)'),
}).openapi('BigKey');
export type BigKey = z.infer<typeof BigKey>;

export const HotKey = z.object({
  key: safeString(),
  type: safeString(),
  freq: z.number().int().describe('OBJECT FREQ: the logarithmic LFU access counter (0-255), decayed over time'),
}).openapi('HotKey');
export type HotKey = z.infer<typeof HotKey>;

/** What a shard's scan reports when it ends. */
export const KeyScanShardResult = z.object({
  kind: z.literal('key-scan'),
  keysScanned: z.number().int(),
  keysInShard: z.number().int().describe('DBSIZE when the scan began'),
  complete: z.boolean().describe('false: the time budget ran out (or it was stopped) before SCAN went round'),
  elapsedMs: z.number().int(),
  batches: z.number().int(),
  bigKeys: z.array(BigKey),
  hotKeys: z.array(HotKey).nullable(),
});
export type KeyScanShardResult = z.infer<typeof KeyScanShardResult>;

export const KeyScanStatus = z.enum(['running', 'completed', 'failed']);
export type KeyScanStatus = z.infer<typeof KeyScanStatus>;

export const KeyScanShard = z.object({
  shard: z.number().int(),
  instanceId: Id,
  address: z.string(),
  state: z.enum(['pending', 'running', 'completed', 'failed']),
  progress: z.number().min(0).max(1).describe('keys scanned over the shard\'s keys (SCAN may visit a key twice, so it is an estimate)'),
  detail: z.string().nullable(),
  error: z.string().nullable(),
  result: KeyScanShardResult.omit({ kind: true }).nullable(),
}).openapi('KeyScanShard');
export type KeyScanShard = z.infer<typeof KeyScanShard>;

export const HotKeysAvailability = z.object({
  available: z.boolean(),
  evictionPolicy: z.string(),
  reason: z.string().describe('why hot keys are or are not reported'),
}).openapi('HotKeysAvailability');
export type HotKeysAvailability = z.infer<typeof HotKeysAvailability>;

export const KeyScan = z.object({
  id: Id,
  clusterId: Id,
  status: KeyScanStatus,
  params: KeyScanParams,
  hotKeys: HotKeysAvailability,
  shards: z.array(KeyScanShard),
  createdAt: Timestamp,
  finishedAt: Timestamp.nullable(),
}).openapi('KeyScan');
export type KeyScan = z.infer<typeof KeyScan>;

export const KeyScanList = z.object({ items: z.array(KeyScan) }).openapi('KeyScanList');
export type KeyScanList = z.infer<typeof KeyScanList>;

export const KeyScanParamsPath = z.object({ id: z.string(), scanId: z.string() });

/** The eviction policies that keep LFU counters (OBJECT FREQ answers only under them). */
export const LFU_POLICIES = ['allkeys-lfu', 'volatile-lfu'] as const;

export function hotKeysAvailability(evictionPolicy: string): HotKeysAvailability {
  return (LFU_POLICIES as readonly string[]).includes(evictionPolicy)
    ? { available: true, evictionPolicy, reason: `the eviction policy (${evictionPolicy}) keeps an access counter per key (OBJECT FREQ)` }
    : {
      available: false, evictionPolicy,
      reason: `the eviction policy is ${evictionPolicy}: Redis keeps access counters (OBJECT FREQ) only under an LFU policy (allkeys-lfu or volatile-lfu); change evictionPolicy to see hot keys`,
    };
}

// ---- Heat: per-shard load and memory ----

export const HeatShard = z.object({
  shard: z.number().int(),
  opsPerSec: z.number().nullable().describe('reads + writes per second on the shard, averaged over the window'),
  memoryUsedBytes: z.number().nullable().describe("the shard's primary"),
  memoryMaxBytes: z.number().nullable(),
  keys: z.number().nullable(),
  latencyP99Micros: z.number().nullable().describe('slowest member\'s server-side p99, µs'),
  opsShare: z.number().nullable().describe("the shard's part of the cluster's ops (0-1)"),
  memoryShare: z.number().nullable().describe("the shard's part of the cluster's used memory (0-1)"),
}).openapi('HeatShard');
export type HeatShard = z.infer<typeof HeatShard>;

export const Heat = z.object({
  clusterId: Id,
  windowSeconds: z.number().int(),
  at: z.number().int().nullable().describe('unix seconds of the newest sample (null: no samples yet)'),
  shards: z.array(HeatShard),
  skew: z.object({
    ops: z.number().nullable().describe('busiest shard over the mean (1 = even)'),
    memory: z.number().nullable().describe('fullest shard over the mean (1 = even)'),
  }),
}).openapi('Heat');
export type Heat = z.infer<typeof Heat>;

export const HeatQuery = z.object({
  window: z.coerce.number().int().min(1).max(900).optional().describe('seconds averaged (default 10)'),
});

// ---- Agent side ----

export const SlowLogTaskSpec = z.object({
  clusterId: Id,
  instances: z.array(z.object({ instanceId: Id, port: z.number().int() })).describe("the cluster's instances on the agent's node"),
  limit: z.number().int(),
  reset: z.boolean().describe('true: empty the slow log (SLOWLOG RESET) instead of reading it'),
});
export type SlowLogTaskSpec = z.infer<typeof SlowLogTaskSpec>;

export const SlowLogTaskResult = z.object({
  kind: z.literal('slowlog'),
  instances: z.array(z.object({
    instanceId: Id,
    ok: z.boolean(),
    error: freeText().optional(),
    length: z.number().int().nullable(),
    slowerThanMicros: z.number().int().nullable(),
    maxLen: z.number().int().nullable(),
    role: InstanceRole.nullable(),
    entries: z.array(SlowLogRecord),
  })),
});
export type SlowLogTaskResult = z.infer<typeof SlowLogTaskResult>;

export const KeyScanTaskSpec = z.object({
  scanId: Id,
  clusterId: Id,
  instanceId: Id,
  port: z.number().int(),
  shard: z.number().int(),
  params: KeyScanParams,
});
export type KeyScanTaskSpec = z.infer<typeof KeyScanTaskSpec>;

/** Messages between the load generator coordinator and its worker threads. */
import type { BenchmarkWorkload } from '@strata/api';

export interface WorkerConfig {
  workerIndex: number;
  workerCount: number;
  /** any cluster member; the slot map comes from CLUSTER SLOTS */
  seeds: string[];
  /** `tls`: the cluster requires TLS; connections verify its instances against `ca` (js worker threads only). */
  auth?: { username: string; password: string; tls?: { ca: string; cert?: string; key?: string } };
  workload: BenchmarkWorkload;
  recordCount: number;
  /** connections (sockets) of this thread, split evenly over the primaries; clients x pipeline ops in flight */
  clients: number;
  pipeline: number;
  /** open loop: this thread's share of the target rate (ops/s); absent = closed loop */
  targetOpsPerSec?: number;
  seed: number;
  valueSize: number;
  ratio: string;
  keyPattern: 'uniform' | 'gaussian';
  /** Prepended to every key (`benchKeyPrefix`): a run on a customer's cluster stays in its own key space. Empty: YCSB's own names. */
  keyPrefix?: string;
}

export type ToWorker =
  | { cmd: 'load'; from: number; to: number }
  | { cmd: 'run'; startAtMs: number; warmupSec: number; durationSec?: number; operationCount?: number; watchEndpoint?: string }
  | { cmd: 'analytic'; primaries: string[] }
  | { cmd: 'stop' };

export interface OpCounts {
  op: string;
  count: number;
  errors: number;
  misses: number;
  /** HdrHistogram compressed base64, microseconds */
  service: string;
  response?: string;
}

export type FromWorker =
  | { type: 'ready'; primaries: string[] }
  | { type: 'load-progress'; done: number }
  | { type: 'loaded'; inserted: number; errors: number; firstError?: string }
  | { type: 'interval'; t: number; phase: 'warmup' | 'steady'; ops: OpCounts[] }
  | {
      type: 'done';
      ops: OpCounts[];
      endpointCommands: Record<string, number>;
      steadyStartMs: number;
      steadyEndMs: number;
      /** event loop utilization of this thread over the steady window (0..1) */
      elu: number;
      scheduleLagP99Us?: number;
      redirects: number;
      firstError?: string;
      /** bit i set: an acknowledged write completed in [startMs + i*slotMs, +slotMs) */
      writeSlots?: { startMs: number; slotMs: number; bits: Uint8Array };
    }
  | { type: 'analytic-done'; records: number; sentences: number; longestBatchMs: number; errors: number; firstError?: string }
  | { type: 'error'; message: string };

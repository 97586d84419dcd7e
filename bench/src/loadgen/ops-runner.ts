/**
 * The load generator's core, running inside one worker thread: logical
 * clients with a socket per primary, `pipeline` operations in flight each,
 * slot routing with MOVED/ASK handling, per-op HDR histograms and 1-second
 * intervals. Closed loop (capacity) or open loop (target rate).
 */
import { performance } from 'node:perf_hooks';
import { ycsbKey } from '../ycsb-keys';
import { ValuePool, FIELD_COUNT, FIELD_NAMES, FIELD_LENGTH, valueIndex } from '../record';
import { getsetKey, opSourceFor, OP_KINDS, workerSeed, type Op, type OpSource } from '../workloads';
import { newHistogram, recordUs, encodeHistogram, RunRecorder, type Histogram } from '../histogram';
import { RespConnection, idleEventCount, type ReplyHandler } from './resp-connection';
import { ParseMode, ReplyType, type Reply } from './resp';
import { bulkBytes, decimalDigits, writeAscii, writeBulkAscii, writeBulkView, writeDigits, writeUint, type Encodable } from './command-writer';
import { SlotMap, parseClusterSlots, parseRedirect } from './slot-map';
import { keySlot } from './key-slot';
import type { OpCounts, WorkerConfig, FromWorker } from './protocol';
import { GetSetBatch, KeyPartition, getsetTemplates, type BatchHost, type GetsetTemplates } from './getset-batches';
import { Rng } from '../random';
import { parseRatio } from '../workloads';

const epochNow = (): number => performance.timeOrigin + performance.now();
/** Resolution of the acknowledged-writes bitmap. */
export const WRITE_SLOT_MS = 10;
const REROUTE_BACKOFF_MS = 100;
/** Record counts up to this have their keys cached (~60 bytes each). */
const KEY_CACHE_MAX = 2_000_000;

class OpStats {
  count = 0;
  errors = 0;
  misses = 0;
  service: Histogram = newHistogram();
  response: Histogram | undefined;
  intervalService: Histogram = newHistogram();
  /** records into intervalService (flushed at each tick) */
  readonly serviceRecorder = new RunRecorder(this.intervalService);
  intervalResponse: Histogram | undefined;
  intervalCount = 0;
  intervalErrors = 0;
  intervalMisses = 0;
  constructor(openLoop: boolean) {
    if (openLoop) {
      this.response = newHistogram();
      this.intervalResponse = newHistogram();
    }
  }
}

type Phase = 'idle' | 'load' | 'warmup' | 'steady' | 'draining';

/** The command an op sends at its current stage (written by InFlight.encode). */
const enum Cmd {
  Get,
  Set,
  HGetAll,
  /** HSET key fieldN value (update, rmw's write) */
  HSetOne,
  /** HSET key field0 v0 .. field9 v9 (insert) */
  HSetAll,
}

const HDR_GET = '*2\r\n$3\r\nGET\r\n';
const HDR_SET = '*3\r\n$3\r\nSET\r\n';
const HDR_HGETALL = '*2\r\n$7\r\nHGETALL\r\n';
const HDR_HSET_ONE = '*4\r\n$4\r\nHSET\r\n';
const HDR_HSET_ALL = '*22\r\n$4\r\nHSET\r\n';
/** getset keys are `<keyPrefix>memtier-<keynum>` (getsetKey): written as digits straight into the buffer. */
const UNKNOWN_SLOT = 0xffff;
/** Index of each op kind in OP_KINDS (stats), without a search per op. */
const KIND_INDEX = Object.fromEntries(OP_KINDS.map((k, i) => [k, i])) as Record<Op['kind'], number>;

/** One operation in flight; reused for the next op of the same pipeline slot. */
class InFlight implements ReplyHandler, Encodable {
  readonly op: Op = { kind: 'read', keynum: 0, field: 0 };
  /** the key, or '' for a getset key (written from op.keynum: no string per op, no string to fetch from memory) */
  key = '';
  slot = 0;
  cmd: Cmd = Cmd.Get;
  /** value pool index of SET / HSET (one field) */
  valueIndex = 0;
  maxBytes = 0;
  mode: ParseMode = ParseMode.Skip;
  sentAt = 0;
  intendedAt = 0;
  /** rmw: 0 = reading, 1 = writing */
  stage = 0;
  redirects = 0;
  asking = false;
  constructor(readonly runner: OpsRunner) {}
  onReply(reply: Reply, now: number): void {
    this.runner.onReply(this, reply, now);
  }
  onFailure(err: Error): void {
    this.runner.onFailure(this, err);
  }
  /** `$<len>\r\n<keyPrefix>memtier-<keynum>\r\n` */
  private writeGetsetKey(buf: Buffer, off: number): number {
    const k = this.op.keynum;
    const digits = decimalDigits(k);
    buf[off] = 36;
    const prefix = this.runner.getsetPrefix;
    off = writeUint(buf, off + 1, prefix.length + digits);
    buf[off] = 13;
    buf[off + 1] = 10;
    off = writeDigits(buf, writeAscii(buf, off + 2, prefix), k, digits);
    buf[off] = 13;
    buf[off + 1] = 10;
    return off + 2;
  }
  encode(buf: Buffer, off: number): number {
    const r = this.runner;
    switch (this.cmd) {
      case Cmd.Get:
        off = writeAscii(buf, off, HDR_GET);
        return this.key === '' ? this.writeGetsetKey(buf, off) : writeBulkAscii(buf, off, this.key);
      case Cmd.HGetAll:
        return writeBulkAscii(buf, writeAscii(buf, off, HDR_HGETALL), this.key);
      case Cmd.Set: {
        const p = r.getsetPool;
        off = writeAscii(buf, off, HDR_SET);
        off = this.key === '' ? this.writeGetsetKey(buf, off) : writeBulkAscii(buf, off, this.key);
        return writeBulkView(buf, off, p.view(this.valueIndex));
      }
      case Cmd.HSetOne: {
        const p = r.pool;
        off = writeBulkAscii(buf, writeAscii(buf, off, HDR_HSET_ONE), this.key);
        off = writeBulkAscii(buf, off, FIELD_NAMES[this.op.field]!);
        return writeBulkView(buf, off, p.view(this.valueIndex));
      }
      case Cmd.HSetAll: {
        const p = r.pool;
        off = writeBulkAscii(buf, writeAscii(buf, off, HDR_HSET_ALL), this.key);
        for (let i = 0; i < FIELD_COUNT; i++) {
          off = writeBulkAscii(buf, off, FIELD_NAMES[i]!);
          off = writeBulkView(buf, off, p.view(valueIndex('insert', this.op.keynum, i)));
        }
        return off;
      }
    }
  }
}

const ignore: ReplyHandler = { onReply() {}, onFailure() {} };

/** A queue with O(1) shift (Array.prototype.shift moves every element: it showed in profiles of waiting ops). */
class Fifo<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(x: T): void {
    this.items.push(x);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }
  takeAll(): T[] {
    const out = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    return out;
  }
}

export class OpsRunner {
  private slotMap = new SlotMap();
  /** Sockets per primary (endpoint index), used round-robin (see connectAll). */
  private readonly pools: (RespConnection[] | undefined)[] = [];
  /** In-flight slots: clients x pipeline. */
  private slots = 0;
  readonly pool: ValuePool;
  readonly getsetPool: ValuePool;
  /** Prepended to every key: the run's own key space (empty: YCSB's and memtier's own names). */
  readonly keyPrefix: string;
  readonly getsetPrefix: string;
  private readonly getsetTemplates: GetsetTemplates;
  private source: OpSource | undefined;
  private readonly stats: OpStats[];
  private phase: Phase = 'idle';
  private readonly openLoop: boolean;
  private redirects = 0;
  private firstError: string | undefined;
  private lag = newHistogram();
  private inflight = 0;
  private free: InFlight[] = [];
  private backlog: number[] = [];
  private nextIntended = 0;
  private intervalMs = 1000;
  private steadyStartMs = 0;
  private steadyEndMs = 0;
  private opsBudget = Infinity;
  private loadNext = 0;
  private loadTo = 0;
  private loadDone = 0;
  private loadErrors = 0;
  private onPhaseEnd: (() => void) | undefined;
  private refreshing: Promise<void> | undefined;
  /** Keys and their slots by keynum, filled as they are first used (building a YCSB key costs more than the rest of an op). */
  private readonly keyCache: (string | undefined)[];
  private readonly slotCache: Uint16Array;
  /** Ops waiting in `waiting` (no socket of their primary free). */
  private waitingCount = 0;
  private idleSeen = -1;
  private poolsChanged = false;
  /** Acknowledged writes per 10 ms slot since the run's start (for the time without writes around a failover). */
  private writeSlots = new Uint8Array(0);
  private runStartPerf = 0;
  /** Only writes to these slots are recorded (the fault's shard); undefined = all. */
  private watchedSlots: Uint8Array | undefined;
  /** Pipelined closed-loop getset: sockets bound to primaries carry whole batches (getset-batches.ts). */
  private batchMode = false;
  private partition: KeyPartition | undefined;
  private readonly batches = new Map<RespConnection, GetSetBatch>();
  private batchRng: Rng | undefined;

  constructor(
    private readonly cfg: WorkerConfig,
    private readonly post: (m: FromWorker) => void,
  ) {
    this.keyPrefix = cfg.keyPrefix ?? '';
    this.getsetPrefix = this.keyPrefix + 'memtier-';
    this.getsetTemplates = getsetTemplates(this.keyPrefix);
    this.openLoop = cfg.targetOpsPerSec !== undefined;
    this.pool = new ValuePool(cfg.seed, FIELD_LENGTH);
    this.getsetPool = new ValuePool(cfg.seed, cfg.valueSize, Math.max(1, Math.min(256, Math.floor(16_000_000 / cfg.valueSize))));
    this.stats = OP_KINDS.map(() => new OpStats(this.openLoop));
    const getset = cfg.workload === 'getset';
    // getset caches slots only (2 bytes a key), YCSB keys and slots (building a YCSB key costs more than the rest of an op)
    const cached = getset ? Math.min(cfg.recordCount, 16 * KEY_CACHE_MAX) : cfg.recordCount <= KEY_CACHE_MAX ? cfg.recordCount : 0;
    this.keyCache = new Array<string | undefined>(getset ? 0 : cached);
    this.slotCache = new Uint16Array(cached);
    if (getset) this.slotCache.fill(UNKNOWN_SLOT);
  }

  /** Reads the slot map and opens every client's sockets. */
  async connect(): Promise<string[]> {
    await this.refreshSlots();
    this.slots = this.cfg.clients * this.cfg.pipeline;
    await this.connectAll();
    return this.slotMap.primaries();
  }

  private async refreshSlots(): Promise<void> {
    let lastErr: unknown;
    const seeds = [...this.slotMap.primaries(), ...this.cfg.seeds];
    for (const seed of seeds) {
      const [host, port] = splitEndpoint(seed);
      try {
        const c = await RespConnection.connect(host, port, this.cfg.auth);
        const reply = await c.call(['CLUSTER', 'SLOTS']);
        c.close();
        if (reply instanceof Error) throw reply;
        this.slotMap.apply(parseClusterSlots(reply));
        return;
      } catch (err) {
        lastErr = err;
      }
    }
    throw lastErr instanceof Error ? lastErr : new Error('no cluster member reachable');
  }

  private async connectAll(): Promise<void> {
    const wanted = this.slotMap.primaries().map((e) => this.slotMap.indexOf(e));
    // Pipelined: the clients' sockets are split over the primaries, as redis-benchmark's clients are, so a write carries
    // up to `pipeline` requests. One request at a time (YCSB's threads): every client has a socket to every primary,
    // as a Jedis cluster client does, so an op never waits for another client's socket (zipfian keys crowd one shard).
    const perPrimary = this.cfg.pipeline === 1 ? this.cfg.clients : Math.max(1, Math.round(this.cfg.clients / wanted.length));
    await Promise.all(
      wanted
        .filter((idx) => !this.hasPool(idx))
        .map(async (idx) => {
          const [host, port] = splitEndpoint(this.slotMap.endpoints[idx]!);
          const pool = await Promise.all(Array.from({ length: perPrimary }, () => RespConnection.connect(host, port, this.cfg.auth)));
          // a full batch leaves at once: the server starts on it while this turn goes on
          for (const c of pool) c.flushAt = this.cfg.pipeline > 1 ? this.cfg.pipeline : Infinity;
          this.pools[idx] = pool;
          if (this.batchMode) this.startBatches();
          this.poolsChanged = true;
        }),
    );
  }

  // ---------- load phase ----------

  load(from: number, to: number): Promise<void> {
    this.phase = 'load';
    this.loadNext = from;
    this.loadTo = to;
    this.loadDone = 0;
    const progress = setInterval(() => this.post({ type: 'load-progress', done: this.loadDone }), 250);
    return new Promise((resolve) => {
      this.onPhaseEnd = () => {
        clearInterval(progress);
        this.phase = 'idle';
        this.post({ type: 'load-progress', done: this.loadDone });
        this.post({ type: 'loaded', inserted: this.loadDone, errors: this.loadErrors, firstError: this.firstError });
        resolve();
      };
      for (let i = 0; i < this.slots; i++) this.nextLoad(new InFlight(this));
      if (this.inflight === 0) this.onPhaseEnd();
    });
  }

  private nextLoad(f: InFlight): void {
    if (this.loadNext >= this.loadTo) return;
    const k = this.loadNext++;
    f.op.kind = 'insert';
    f.op.keynum = k;
    this.prepare(f, 'insert');
    this.inflight++;
    this.dispatch(f, performance.now());
  }

  // ---------- run phase ----------

  run(startAtMs: number, warmupSec: number, durationSec: number | undefined, operationCount: number | undefined, watchEndpoint?: string): Promise<void> {
    const c = this.cfg;
    if (c.workload === 'analytic') throw new Error('analytic has no run phase');
    this.source = opSourceFor(c.workload, {
      recordCount: c.recordCount,
      seed: workerSeed(c.seed, c.workerIndex),
      ratio: c.ratio,
      keyPattern: c.keyPattern,
      workerIndex: c.workerIndex,
      workerCount: c.workerCount,
    });
    this.steadyStartMs = startAtMs + warmupSec * 1000;
    this.steadyEndMs = durationSec !== undefined || operationCount === undefined ? this.steadyStartMs + (durationSec ?? 10) * 1000 : Infinity;
    this.opsBudget = operationCount ?? Infinity;
    this.runStartPerf = startAtMs - performance.timeOrigin;
    this.watchedSlots = undefined;
    if (watchEndpoint !== undefined) {
      const idx = this.slotMap.indexOf(watchEndpoint);
      this.watchedSlots = new Uint8Array(16384);
      for (let s = 0; s < 16384; s++) if (this.slotMap.owner[s] === idx) this.watchedSlots[s] = 1;
    }
    this.writeSlots = new Uint8Array(Math.ceil(((warmupSec + (durationSec ?? 10) + 10) * 1000) / WRITE_SLOT_MS / 8));
    this.batchMode =
      c.workload === 'getset' && c.pipeline > 1 && !this.openLoop && c.keyPattern === 'uniform' && c.recordCount <= this.slotCache.length;
    if (this.batchMode) {
      this.partition = new KeyPartition(c.recordCount, (k) => this.getsetSlot(k), this.slotMap.owner);
      this.partition.build(performance.now());
      this.batchRng = new Rng(workerSeed(c.seed, c.workerIndex));
      this.batches.clear();
    }
    return new Promise((resolve) => {
      const begin = () => {
        this.phase = warmupSec > 0 ? 'warmup' : 'steady';
        const steadyStartConns = () => this.snapshotCommands();
        let startSnapshot = warmupSec > 0 ? new Map<string, number>() : steadyStartConns();
        let eluStart = warmupSec > 0 ? undefined : performance.eventLoopUtilization();
        // The steady phase starts at a tick (the tick that closes the last warm-up second): ops are counted
        // per op, but their latencies only go into the interval histograms, which each steady tick adds to the totals.
        const tick = setInterval(() => {
          this.interval(startAtMs, warmupSec);
          if (this.phase === 'warmup' && epochNow() >= this.steadyStartMs - this.intervalMs / 2) {
            this.phase = 'steady';
            startSnapshot = steadyStartConns();
            eluStart = performance.eventLoopUtilization();
            this.lag.reset();
          }
        }, this.intervalMs);
        let stopTimer: NodeJS.Timeout | undefined;
        const finish = () => {
          if (stopTimer) clearTimeout(stopTimer);
          if (this.phase === 'steady') this.foldSteady();
          this.phase = 'draining';
          this.steadyEndMs = Math.min(this.steadyEndMs, epochNow());
          const endSnapshot = this.snapshotCommands();
          const elu = performance.eventLoopUtilization(eluStart);
          const waitDrain = (deadline: number) => {
            if (this.inflight > 0 && Date.now() < deadline) {
              setTimeout(() => waitDrain(deadline), 5);
              return;
            }
            clearInterval(tick);
            this.interval(startAtMs, warmupSec);
            const endpointCommands: Record<string, number> = {};
            for (const [e, n] of endSnapshot) endpointCommands[e] = n - (startSnapshot.get(e) ?? 0);
            this.post({
              type: 'done',
              ops: this.totals(),
              endpointCommands,
              steadyStartMs: this.steadyStartMs,
              steadyEndMs: this.steadyEndMs,
              elu: elu.utilization,
              scheduleLagP99Us: this.openLoop ? this.lag.getValueAtPercentile(99) : undefined,
              redirects: this.redirects,
              firstError: this.firstError,
              writeSlots: { startMs: startAtMs, slotMs: WRITE_SLOT_MS, bits: this.writeSlots },
            });
            this.phase = 'idle';
            this.batchMode = false;
            resolve();
          };
          waitDrain(Date.now() + 5000);
        };
        this.onPhaseEnd = finish;
        if (this.steadyEndMs !== Infinity) stopTimer = setTimeout(finish, Math.max(0, this.steadyEndMs - epochNow()));
        if (this.openLoop) {
          for (let i = 0; i < this.slots; i++) this.free.push(new InFlight(this));
          this.nextIntended = performance.now();
          this.pump();
        } else if (this.batchMode) {
          this.startBatches();
        } else {
          for (let i = 0; i < this.slots; i++) this.issue(new InFlight(this), performance.now());
        }
      };
      setTimeout(begin, Math.max(0, startAtMs - epochNow()));
    });
  }

  /** Slot of getset key `k` (cached for keys within the cache). */
  private getsetSlot(k: number): number {
    if (k >= this.slotCache.length) return keySlot(getsetKey(k, this.keyPrefix));
    let slot = this.slotCache[k]!;
    if (slot === UNKNOWN_SLOT) slot = this.slotCache[k] = keySlot(getsetKey(k, this.keyPrefix));
    return slot;
  }

  /** Batch mode: every open socket without a batch starts one. */
  private startBatches(): void {
    if (this.phase !== 'warmup' && this.phase !== 'steady') return;
    const [sets, gets] = parseRatio(this.cfg.ratio);
    const setBelow = Math.round((sets / (sets + gets)) * 4294967296);
    const now = performance.now();
    this.pools.forEach((pool, idx) => {
      for (const conn of pool ?? []) {
        if (conn.isClosed || this.batches.has(conn)) continue;
        const b = new GetSetBatch(conn, idx, this.cfg.pipeline, this.batchHost, this.partition!, this.batchRng!, setBelow, this.getsetPool, this.getsetTemplates);
        this.batches.set(conn, b);
        b.fill(now);
      }
    });
  }

  private readonly batchHost: BatchHost = {
    canStart: () => (this.phase === 'warmup' || this.phase === 'steady') && this.opsBudget > 0,
    started: (n) => {
      this.inflight += n;
    },
    finish: (set, keynum, sentAt, now, error, miss, message) => {
      this.inflight--;
      if (error && this.firstError === undefined) this.firstError = message;
      if (this.phase !== 'warmup' && this.phase !== 'steady' && this.phase !== 'draining') return;
      const s = this.stats[set ? KIND_INDEX.set : KIND_INDEX.get]!;
      s.serviceRecorder.record((now - sentAt) * 1000);
      this.countOp(s, error, miss);
      if (set && !error && (!this.watchedSlots || this.watchedSlots[this.getsetSlot(keynum)] === 1)) this.markWrite(now);
    },
    redirect: (set, keynum, sentAt, message, now) => {
      // the general path follows it (MOVED updates the slot map, ASK sends ASKING first) and counts it when done
      const f = new InFlight(this);
      f.op.kind = set ? 'set' : 'get';
      f.op.keynum = keynum;
      this.prepare(f, f.op.kind);
      f.sentAt = f.intendedAt = sentAt;
      f.stage = 0;
      this.onReply(f, { type: ReplyType.Error, integer: 0, value: message }, now);
    },
    batchEnded: () => {
      if (this.inflight === 0 && this.opsBudget <= 0 && (this.phase === 'warmup' || this.phase === 'steady')) this.onPhaseEnd?.();
    },
  };

  stop(): void {
    if (this.onPhaseEnd && (this.phase === 'warmup' || this.phase === 'steady' || this.phase === 'load')) {
      if (this.phase === 'load') this.loadTo = this.loadNext;
      else this.onPhaseEnd();
    }
  }

  private snapshotCommands(): Map<string, number> {
    const m = new Map<string, number>();
    for (const pool of this.pools) for (const conn of pool ?? []) m.set(conn.endpoint, (m.get(conn.endpoint) ?? 0) + conn.commands);
    return m;
  }

  /** Open loop: sends every op whose intended time has come. */
  private pump(): void {
    if (this.phase !== 'warmup' && this.phase !== 'steady') return;
    const rate = this.cfg.targetOpsPerSec!;
    const gap = 1000 / rate;
    const now = performance.now();
    while (this.nextIntended <= now) {
      this.backlog.push(this.nextIntended);
      if (this.phase === 'steady') recordUs(this.lag, (now - this.nextIntended) * 1000);
      this.nextIntended += gap;
    }
    while (this.backlog.length > 0 && this.free.length > 0) {
      const f = this.free.pop()!;
      f.intendedAt = this.backlog.shift()!;
      this.issue(f, now);
    }
    if (!this.pumpTimer) {
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = undefined;
        this.pump();
      }, Math.max(0, this.nextIntended - performance.now() - 0.5));
    }
  }
  private pumpTimer: NodeJS.Timeout | undefined;

  private issue(f: InFlight, now: number): void {
    if (this.opsBudget <= 0) {
      if (this.inflight === 0) this.onPhaseEnd?.();
      return;
    }
    this.source!.next(f.op);
    if (!this.openLoop) f.intendedAt = now;
    this.prepare(f, f.op.kind);
    f.stage = 0;
    this.inflight++;
    this.dispatch(f, now);
  }

  /** Builds the command for the op's current stage. */
  private prepare(f: InFlight, kind: Op['kind']): void {
    const op = f.op;
    const getset = this.cfg.workload === 'getset';
    const k = op.keynum;
    let keyBytes: number;
    if (getset) {
      // Only the slot is cached (2 bytes a key): fetching a cached string per op missed the CPU cache on most ops.
      f.key = '';
      keyBytes = this.getsetPrefix.length + 16;
      f.slot = this.getsetSlot(k);
    } else {
      if (k < this.keyCache.length) {
        let key = this.keyCache[k];
        if (key === undefined) {
          key = this.keyPrefix + ycsbKey(k);
          this.keyCache[k] = key;
          this.slotCache[k] = keySlot(key);
        }
        f.key = key;
        f.slot = this.slotCache[k]!;
      } else {
        f.key = this.keyPrefix + ycsbKey(k);
        f.slot = keySlot(f.key);
      }
      keyBytes = f.key.length;
    }
    f.redirects = 0;
    f.asking = false;
    f.mode = ParseMode.Skip;
    switch (kind) {
      case 'read':
      case 'rmw':
        f.cmd = Cmd.HGetAll;
        f.maxBytes = 32 + bulkBytes(keyBytes);
        break;
      case 'update':
        f.cmd = Cmd.HSetOne;
        f.valueIndex = valueIndex('update', op.keynum, op.field);
        f.maxBytes = 32 + bulkBytes(keyBytes) + bulkBytes(8) + bulkBytes(this.pool.length);
        break;
      case 'insert':
        if (getset) {
          f.cmd = Cmd.Set;
          f.valueIndex = op.keynum;
          f.maxBytes = 32 + bulkBytes(keyBytes) + bulkBytes(this.getsetPool.length);
        } else {
          f.cmd = Cmd.HSetAll;
          f.maxBytes = 32 + bulkBytes(keyBytes) + FIELD_COUNT * (bulkBytes(8) + bulkBytes(this.pool.length));
        }
        break;
      case 'get':
        f.cmd = Cmd.Get;
        f.maxBytes = 32 + bulkBytes(keyBytes);
        break;
      case 'set':
        f.cmd = Cmd.Set;
        f.valueIndex = op.keynum;
        f.maxBytes = 32 + bulkBytes(keyBytes) + bulkBytes(this.getsetPool.length);
        break;
    }
  }

  /**
   * A socket to a primary that takes another request, as redis-benchmark's
   * -P does: a batch of up to `pipeline` requests is written at once, and
   * the socket takes the next batch when every reply of the last one is in.
   * (Refilling each slot as its reply arrives instead costs a write
   * syscall for every few requests, which made the client the bottleneck.)
   * Ops of one event-loop turn fill the same socket first, so they leave in
   * one write. Undefined when every socket of that primary is busy (the op
   * waits) or the primary is not connected.
   */
  private conn(idx: number): RespConnection | undefined {
    const pool = idx >= 0 ? this.pools[idx] : undefined;
    if (!pool || pool.length === 0) return undefined;
    // batch mode: the sockets carry batches; a redirected op rides along on the first open one
    if (this.batchMode) return pool.find((c) => !c.isClosed);
    const cap = this.cfg.pipeline;
    const start = this.cursor[idx] ?? 0;
    for (let k = 0; k < pool.length; k++) {
      const i = (start + k) % pool.length;
      const c = pool[i]!;
      const n = c.inFlight;
      if (n < cap && (n === 0 || c.hasUnsent) && !c.isClosed) {
        this.cursor[idx] = i;
        return c;
      }
    }
    return undefined;
  }
  private readonly cursor: number[] = [];
  /** Ops waiting for room on a primary's sockets, per endpoint index. */
  private readonly waiting: Fifo<InFlight>[] = [];

  private hasPool(idx: number): boolean {
    return idx >= 0 && (this.pools[idx]?.some((c) => !c.isClosed) ?? false);
  }

  private wait(idx: number, f: InFlight): void {
    (this.waiting[idx] ??= new Fifo()).push(f);
    this.waitingCount++;
  }

  /** Sends ops that waited for room, oldest first. */
  private drainWaiting(): void {
    // Only a socket that just got its last reply, or new sockets, can take waiting ops.
    if (this.waitingCount === 0 || (idleEventCount() === this.idleSeen && !this.poolsChanged)) return;
    this.idleSeen = idleEventCount();
    this.poolsChanged = false;
    for (let idx = 0; idx < this.waiting.length; idx++) {
      const q = this.waiting[idx];
      while (q && q.length > 0) {
        const c = this.conn(idx);
        if (!c) break;
        const f = q.shift()!;
        this.waitingCount--;
        if (f.stage === 0 && f.redirects === 0) f.sentAt = performance.now();
        c.send(f, f, f.mode);
      }
    }
  }

  private dispatch(f: InFlight, now: number): void {
    const idx = this.slotMap.owner[f.slot]!;
    const conn = this.conn(idx);
    if (!conn) {
      if (this.hasPool(idx)) this.wait(idx, f);
      else void this.reroute(f);
      return;
    }
    if (f.stage === 0 && f.redirects === 0) f.sentAt = now;
    conn.send(f, f, f.mode);
  }

  /** Slot owner unknown or not connected: refresh the map, connect, retry. */
  private async reroute(f: InFlight): Promise<void> {
    try {
      this.refreshing ??= this.refreshSlots()
        .then(() => this.connectAll())
        .finally(() => {
          this.refreshing = undefined;
        });
      await this.refreshing;
      const idx = this.slotMap.owner[f.slot]!;
      if (!this.hasPool(idx)) throw new Error(`no connection for slot ${f.slot}`);
      const conn = this.conn(idx);
      if (conn) conn.send(f, f, f.mode);
      else this.wait(idx, f);
    } catch (err) {
      // The shard has no reachable primary (e.g. killed, replica not promoted yet): back off a little, as a client would, instead of spinning.
      await new Promise((r) => setTimeout(r, REROUTE_BACKOFF_MS));
      this.complete(f, performance.now(), true, false, err instanceof Error ? err.message : String(err));
    }
  }

  onReply(f: InFlight, r: Reply, now: number): void {
    if (r.type === ReplyType.Error) {
      const msg = String(r.value);
      const redirect = parseRedirect(msg);
      if (redirect && f.redirects < 5) {
        // This reply may have freed its socket, and no op completes here: let ops waiting for room go first.
        this.drainWaiting();
        f.redirects++;
        this.redirects++;
        const idx = this.slotMap.indexOf(redirect.endpoint);
        if (redirect.kind === 'MOVED') {
          this.slotMap.owner[redirect.slot] = idx;
          this.dispatch(f, now);
        } else {
          const conn = this.pools[idx]?.[0];
          if (!conn) {
            void this.reroute(f);
            return;
          }
          conn.send('*1\r\n$6\r\nASKING\r\n', ignore);
          conn.send(f, f, f.mode);
        }
        return;
      }
      this.complete(f, now, true, false, msg);
      return;
    }
    const kind = f.op.kind;
    if (this.phase === 'load') {
      this.complete(f, now, false, false);
      return;
    }
    const miss = (kind === 'read' || kind === 'rmw') && f.stage === 0 ? r.integer <= 0 : kind === 'get' ? r.integer < 0 : false;
    if (kind === 'rmw' && f.stage === 0) {
      // read done: write one field, as YCSB's readModifyWrite
      f.stage = 1;
      f.cmd = Cmd.HSetOne;
      f.valueIndex = valueIndex('rmw', f.op.keynum, f.op.field);
      f.maxBytes = 32 + bulkBytes(f.key.length) + bulkBytes(8) + bulkBytes(this.pool.length);
      f.redirects = 0;
      if (miss) this.countMiss(f);
      this.drainWaiting();
      this.dispatch(f, now);
      return;
    }
    this.complete(f, now, false, miss);
  }

  private countMiss(f: InFlight): void {
    const s = this.stats[KIND_INDEX[f.op.kind]]!;
    if (this.phase === 'steady') s.misses++;
    s.intervalMisses++;
  }

  onFailure(f: InFlight, err: Error): void {
    // A closed connection: drop it first (the next op must not pick it); an empty pool reconnects through the slot map.
    this.pools.forEach((pool, i) => {
      if (pool && pool.some((conn) => conn.isClosed)) this.pools[i] = pool.filter((conn) => !conn.isClosed);
    });
    this.complete(f, performance.now(), true, false, err.message);
    // Ops queued for a primary that has no open socket left would wait forever: route them again.
    this.waiting.forEach((q, idx) => {
      if (q && q.length > 0 && !this.hasPool(idx)) {
        const moved = q.takeAll();
        this.waitingCount -= moved.length;
        for (const w of moved) void this.reroute(w);
      }
    });
  }

  private complete(f: InFlight, now: number, error: boolean, miss: boolean, message?: string): void {
    this.inflight--;
    this.drainWaiting();
    if (error && this.firstError === undefined) this.firstError = message;
    if (this.phase === 'load') {
      if (error) this.loadErrors++;
      else this.loadDone++;
      this.nextLoad(f);
      if (this.inflight === 0 && this.loadNext >= this.loadTo) this.onPhaseEnd?.();
      return;
    }
    if (this.phase === 'warmup' || this.phase === 'steady' || this.phase === 'draining') {
      const s = this.stats[KIND_INDEX[f.op.kind]]!;
      s.serviceRecorder.record((now - f.sentAt) * 1000);
      if (s.intervalResponse) recordUs(s.intervalResponse, (now - f.intendedAt) * 1000);
      this.countOp(s, error, miss);
      if (f.op.kind === 'insert' && !error) this.source?.acknowledge?.(f.op.keynum);
      if (!error && f.op.kind !== 'read' && f.op.kind !== 'get' && (!this.watchedSlots || this.watchedSlots[f.slot] === 1)) this.markWrite(now);
    }
    if (this.phase === 'draining') return;
    if (this.batchMode) {
      this.batchHost.batchEnded();
      return;
    }
    if (this.openLoop) {
      this.free.push(f);
      this.pump();
    } else {
      this.issue(f, now);
    }
  }

  /** Counts a finished op in its interval and, in the steady phase, in the run's totals and budget. */
  private countOp(s: OpStats, error: boolean, miss: boolean): void {
    s.intervalCount++;
    if (error) s.intervalErrors++;
    if (miss) s.intervalMisses++;
    if (this.phase === 'steady') {
      s.count++;
      if (error) s.errors++;
      if (miss) s.misses++;
      this.opsBudget--;
    }
  }

  private markWrite(now: number): void {
    const slot = Math.floor((now - this.runStartPerf) / WRITE_SLOT_MS);
    if (slot < 0) return;
    const byte = slot >> 3;
    if (byte >= this.writeSlots.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.writeSlots.length * 2));
      grown.set(this.writeSlots);
      this.writeSlots = grown;
    }
    this.writeSlots[byte]! |= 1 << (slot & 7);
  }

  /** Adds the interval histograms (every op since the last tick was a steady one) to the steady totals. */
  private foldSteady(): void {
    for (const s of this.stats) {
      s.serviceRecorder.flush();
      if (s.intervalCount === 0) continue;
      s.service.add(s.intervalService);
      if (s.response && s.intervalResponse) s.response.add(s.intervalResponse);
    }
  }

  private interval(startAtMs: number, warmupSec: number): void {
    if (this.phase === 'steady') this.foldSteady();
    const t = Math.round((epochNow() - startAtMs) / 1000) - warmupSec;
    const ops: OpCounts[] = [];
    OP_KINDS.forEach((op, k) => {
      const s = this.stats[k]!;
      s.serviceRecorder.flush();
      if (s.intervalCount === 0) return;
      ops.push({
        op,
        count: s.intervalCount,
        errors: s.intervalErrors,
        misses: s.intervalMisses,
        service: encodeHistogram(s.intervalService),
        response: s.intervalResponse ? encodeHistogram(s.intervalResponse) : undefined,
      });
      s.intervalService.reset();
      s.intervalResponse?.reset();
      s.intervalCount = s.intervalErrors = s.intervalMisses = 0;
    });
    this.post({ type: 'interval', t, phase: t <= 0 ? 'warmup' : 'steady', ops });
  }

  private totals(): OpCounts[] {
    const out: OpCounts[] = [];
    OP_KINDS.forEach((op, k) => {
      const s = this.stats[k]!;
      if (s.count === 0 && s.errors === 0) return;
      out.push({ op, count: s.count, errors: s.errors, misses: s.misses, service: encodeHistogram(s.service), response: s.response ? encodeHistogram(s.response) : undefined });
    });
    return out;
  }

  close(): void {
    for (const pool of this.pools) for (const conn of pool ?? []) conn.close();
  }

  get primaries(): string[] {
    return this.slotMap.primaries();
  }

  get auth(): WorkerConfig['auth'] {
    return this.cfg.auth;
  }
}

export function splitEndpoint(e: string): [string, number] {
  const i = e.lastIndexOf(':');
  return [e.slice(0, i), Number(e.slice(i + 1))];
}


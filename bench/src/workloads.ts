/**
 * Operation sources for each workload. A source fills a reusable Op so the
 * load generator's hot path allocates nothing per operation.
 * YCSB core workloads: readallfields=true (HGETALL), writeallfields=false
 * (an update writes ONE uniformly chosen field), fieldcount 10 x 100 bytes.
 */
import type { BenchmarkWorkload } from '@strata/api';
import { FIELD_COUNT } from './record';
import { GaussianChooser, LatestChooser, ScrambledZipfianChooser, UniformChooser, type KeyChooser } from './generators';
import { Rng } from './random';

export type OpKind = 'read' | 'update' | 'insert' | 'rmw' | 'get' | 'set';
export const OP_KINDS: readonly OpKind[] = ['read', 'update', 'insert', 'rmw', 'get', 'set'];

export interface Op {
  kind: OpKind;
  keynum: number;
  /** Field index for update/insert/rmw writes. */
  field: number;
}

export interface YcsbMix {
  read: number;
  update: number;
  insert: number;
  rmw: number;
  distribution: 'zipfian' | 'uniform' | 'latest';
}

/** YCSB's workloads/workload{a,b,c,d,f}. */
export const YCSB_MIXES: Record<'ycsb-a' | 'ycsb-b' | 'ycsb-c' | 'ycsb-d' | 'ycsb-f', YcsbMix> = {
  'ycsb-a': { read: 0.5, update: 0.5, insert: 0, rmw: 0, distribution: 'zipfian' },
  'ycsb-b': { read: 0.95, update: 0.05, insert: 0, rmw: 0, distribution: 'zipfian' },
  'ycsb-c': { read: 1, update: 0, insert: 0, rmw: 0, distribution: 'zipfian' },
  'ycsb-d': { read: 0.95, update: 0, insert: 0.05, rmw: 0, distribution: 'latest' },
  'ycsb-f': { read: 0.5, update: 0, insert: 0, rmw: 0.5, distribution: 'zipfian' },
};

/** Each load generator thread's own Rng seed: the run's seed mixed with its global worker index. */
export const WORKER_SEED_MULTIPLIER = 7919;
export const workerSeed = (seed: number, workerIndex: number): number => seed * WORKER_SEED_MULTIPLIER + workerIndex;

/** A YCSB workload's letter ('ycsb-a' -> 'a'), as the native worker takes it. */
export const ycsbLetter = (workload: keyof typeof YCSB_MIXES): string => workload.slice('ycsb-'.length);

export interface OpSource {
  next(op: Op): Op;
  /** Called when an insert was acknowledged (workload D's `latest`). */
  acknowledge?(keynum: number): void;
}

export interface YcsbSourceOptions {
  recordCount: number;
  seed: number;
  /** This worker's share of the insert key space (workload D): keynums recordCount + index + k * stride. */
  insertIndex?: number;
  insertStride?: number;
}

/**
 * Workload D reads the latest records a worker can know exist: the loaded
 * ones and its own inserts up to the first one not yet acknowledged (YCSB's
 * AcknowledgedCounterGenerator does the same with one counter shared by its
 * threads). Workers insert interleaved keys (recordCount + index + k *
 * stride), so a worker never picks another worker's insert, which may not
 * exist yet: "latest" runs over a virtual index, loaded records first, then
 * this worker's inserts in order.
 */
export class YcsbOpSource implements OpSource {
  private readonly rng: Rng;
  private readonly chooser: KeyChooser;
  private nextInsert: number;
  /** own inserts 0..ackedInserts-1 are all acknowledged */
  private ackedInserts = 0;
  /** own insert numbers acknowledged ahead of an earlier one still in flight */
  private readonly ackedAhead = new Set<number>();
  private readonly stride: number;
  private readonly recordCount: number;
  private readonly firstInsert: number;

  constructor(
    private readonly mix: YcsbMix,
    o: YcsbSourceOptions,
  ) {
    this.rng = new Rng(o.seed);
    this.stride = o.insertStride ?? 1;
    this.recordCount = o.recordCount;
    this.firstInsert = o.recordCount + (o.insertIndex ?? 0);
    this.nextInsert = this.firstInsert;
    this.chooser =
      mix.distribution === 'zipfian'
        ? new ScrambledZipfianChooser(this.rng, o.recordCount)
        : mix.distribution === 'latest'
          ? new LatestChooser(this.rng, () => this.recordCount + this.ackedInserts - 1)
          : new UniformChooser(this.rng, () => o.recordCount);
  }

  next(op: Op): Op {
    const u = this.rng.nextDouble();
    const m = this.mix;
    if (u < m.read) op.kind = 'read';
    else if (u < m.read + m.update) op.kind = 'update';
    else if (u < m.read + m.update + m.insert) op.kind = 'insert';
    else op.kind = 'rmw';
    if (op.kind === 'insert') {
      op.keynum = this.nextInsert;
      this.nextInsert += this.stride;
    } else {
      const v = this.chooser.next();
      op.keynum = this.mix.distribution === 'latest' && v >= this.recordCount ? this.firstInsert + (v - this.recordCount) * this.stride : v;
    }
    op.field = this.rng.nextInt(FIELD_COUNT);
    return op;
  }

  acknowledge(keynum: number): void {
    const n = (keynum - this.firstInsert) / this.stride;
    if (!Number.isInteger(n) || n < this.ackedInserts) return;
    if (n > this.ackedInserts) {
      this.ackedAhead.add(n);
      return;
    }
    this.ackedInserts++;
    while (this.ackedAhead.delete(this.ackedInserts)) this.ackedInserts++;
  }
}

/** memtier-style SET:GET ratio over a key range. */
export class GetSetOpSource implements OpSource {
  private readonly rng: Rng;
  private readonly chooser: KeyChooser;
  private readonly setShare: number;

  constructor(o: { keyRange: number; ratio: string; pattern: 'uniform' | 'gaussian'; seed: number }) {
    this.rng = new Rng(o.seed);
    const [sets, gets] = parseRatio(o.ratio);
    this.setShare = sets / (sets + gets);
    this.chooser = o.pattern === 'gaussian' ? new GaussianChooser(this.rng, o.keyRange) : new UniformChooser(this.rng, () => o.keyRange);
  }

  next(op: Op): Op {
    op.kind = this.rng.nextDouble() < this.setShare ? 'set' : 'get';
    op.keynum = this.chooser.next();
    op.field = 0;
    return op;
  }
}

export function parseRatio(ratio: string): [number, number] {
  const m = /^(\d+):(\d+)$/.exec(ratio);
  if (!m) throw new Error(`bad ratio ${ratio}`);
  const sets = Number(m[1]);
  const gets = Number(m[2]);
  if (sets + gets === 0) throw new Error('ratio 0:0');
  return [sets, gets];
}

/** The op source for a workload (analytic has none: it is a scan). */
export function opSourceFor(
  workload: Exclude<BenchmarkWorkload, 'analytic'>,
  o: { recordCount: number; seed: number; ratio: string; keyPattern: 'uniform' | 'gaussian'; workerIndex: number; workerCount: number },
): OpSource {
  if (workload === 'getset') return new GetSetOpSource({ keyRange: o.recordCount, ratio: o.ratio, pattern: o.keyPattern, seed: o.seed });
  return new YcsbOpSource(YCSB_MIXES[workload], { recordCount: o.recordCount, seed: o.seed, insertIndex: o.workerIndex, insertStride: o.workerCount });
}

/** memtier's key format. */
export function getsetKey(keynum: number, prefix = ''): string {
  return prefix + 'memtier-' + keynum;
}

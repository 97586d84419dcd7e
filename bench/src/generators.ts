/**
 * Key choosers as YCSB implements them (site.ycsb.generator): uniform,
 * Zipfian, ScrambledZipfian (the `zipfian` request distribution), and
 * SkewedLatest (`latest`, workload D). Plus memtier's gaussian key pattern.
 */
import { fnvhash64Mod } from './fnv';
import type { Rng } from './random';

export interface KeyChooser {
  /** Next keynum in [0, current record count). */
  next(): number;
}

export const ZIPFIAN_CONSTANT = 0.99;
/** ScrambledZipfianGenerator.ITEM_COUNT */
export const SCRAMBLED_ITEM_COUNT = 10_000_000_000;
/** ScrambledZipfianGenerator.ZETAN: zeta(10^10, 0.99), precomputed by YCSB. */
export const SCRAMBLED_ZETAN = 26.46902820178302;

/** sum_{i=st}^{n-1} 1/(i+1)^theta, added to initialsum (YCSB's incremental zeta). */
export function zeta(st: number, n: number, theta: number, initialsum: number): number {
  let sum = initialsum;
  for (let i = st; i < n; i++) sum += 1 / Math.pow(i + 1, theta);
  return sum;
}

export class UniformChooser implements KeyChooser {
  constructor(
    private readonly rng: Rng,
    private readonly count: () => number,
  ) {}
  next(): number {
    return this.rng.nextInt(this.count());
  }
}

/** YCSB ZipfianGenerator: item 0 is the most popular. */
export class ZipfianGenerator {
  private readonly theta: number;
  private readonly zeta2theta: number;
  private readonly alpha: number;
  private zetan: number;
  private eta: number;
  private countforzeta: number;

  constructor(
    private readonly rng: Rng,
    private readonly base: number,
    items: number,
    theta = ZIPFIAN_CONSTANT,
    zetan?: number,
  ) {
    this.theta = theta;
    this.zeta2theta = zeta(0, 2, theta, 0);
    this.alpha = 1 / (1 - theta);
    this.zetan = zetan ?? zeta(0, items, theta, 0);
    this.countforzeta = items;
    this.eta = this.computeEta(items);
  }

  private computeEta(items: number): number {
    return (1 - Math.pow(2 / items, 1 - this.theta)) / (1 - this.zeta2theta / this.zetan);
  }

  /** Next value in [base, base + itemcount); itemcount may grow (incremental zeta, as YCSB). */
  nextValue(itemcount = this.countforzeta): number {
    if (itemcount !== this.countforzeta) {
      if (itemcount > this.countforzeta) {
        this.zetan = zeta(this.countforzeta, itemcount, this.theta, this.zetan);
      } else {
        this.zetan = zeta(0, itemcount, this.theta, 0);
      }
      this.countforzeta = itemcount;
      this.eta = this.computeEta(itemcount);
    }
    const u = this.rng.nextDouble();
    const uz = u * this.zetan;
    if (uz < 1) return this.base;
    if (uz < 1 + Math.pow(0.5, this.theta)) return this.base + 1;
    return this.base + Math.floor(itemcount * Math.pow(this.eta * u - this.eta + 1, this.alpha));
  }
}

/**
 * YCSB ScrambledZipfianGenerator(0, recordcount-1) with the default constant:
 * a Zipfian over 10^10 items with the precomputed zeta, then
 * fnvhash64(x) % recordcount. Hot keys are spread over the keyspace.
 */
export class ScrambledZipfianChooser implements KeyChooser {
  private readonly gen: ZipfianGenerator;
  constructor(
    rng: Rng,
    private readonly recordcount: number,
  ) {
    // YCSB: new ZipfianGenerator(0, ITEM_COUNT, ...) => items = ITEM_COUNT + 1
    this.gen = new ZipfianGenerator(rng, 0, SCRAMBLED_ITEM_COUNT + 1, ZIPFIAN_CONSTANT, SCRAMBLED_ZETAN);
  }
  next(): number {
    return fnvhash64Mod(this.gen.nextValue(), this.recordcount);
  }
}

/**
 * YCSB SkewedLatestGenerator: the most recently inserted record is the most
 * popular; `latest()` is the highest acknowledged insert keynum.
 */
export class LatestChooser implements KeyChooser {
  private readonly zipf: ZipfianGenerator;
  constructor(
    rng: Rng,
    private readonly latest: () => number,
  ) {
    this.zipf = new ZipfianGenerator(rng, 0, Math.max(1, latest()));
  }
  next(): number {
    const max = this.latest();
    return max - this.zipf.nextValue(Math.max(1, max));
  }
}

/** memtier's gaussian key pattern: mean in the middle of the range, sd = range/6, clamped. */
export class GaussianChooser implements KeyChooser {
  private spare: number | undefined;
  constructor(
    private readonly rng: Rng,
    private readonly count: number,
  ) {}
  next(): number {
    let z: number;
    if (this.spare !== undefined) {
      z = this.spare;
      this.spare = undefined;
    } else {
      const u = 1 - this.rng.nextDouble();
      const v = this.rng.nextDouble();
      const r = Math.sqrt(-2 * Math.log(u));
      z = r * Math.cos(2 * Math.PI * v);
      this.spare = r * Math.sin(2 * Math.PI * v);
    }
    const x = Math.round(this.count / 2 + z * (this.count / 6));
    return Math.min(this.count - 1, Math.max(0, x));
  }
}

import { describe, expect, it } from 'vitest';
import {
  fnvhash64,
  fnvhash64Mod,
  ycsbKey,
  Rng,
  ScrambledZipfianChooser,
  SCRAMBLED_ZETAN,
  UniformChooser,
  LatestChooser,
  GaussianChooser,
  ZipfianGenerator,
  zeta,
  ValuePool,
  recordFields,
  FIELD_COUNT,
  FIELD_LENGTH,
  sentenceCount,
  sentenceCountBytes,
  YcsbOpSource,
  YCSB_MIXES,
  GetSetOpSource,
  parseRatio,
  type Op,
} from './index';

/** Java's fnvhash64 in BigInt, straight from site.ycsb.Utils. */
function referenceFnv(keynum: bigint): bigint {
  let hash = BigInt.asIntN(64, 0xcbf29ce484222325n);
  let val = keynum;
  for (let i = 0; i < 8; i++) {
    const octet = val & 0xffn;
    val = val >> 8n;
    hash = BigInt.asIntN(64, hash ^ octet);
    hash = BigInt.asIntN(64, hash * 1099511628211n);
  }
  return hash < 0n ? BigInt.asIntN(64, -hash) : hash;
}

describe('YCSB keys', () => {
  it.each([
    [0, 'user6284781860667377211'],
    [1, 'user8517097267634966620'],
    [2, 'user1820151046732198393'],
  ])('keynum %i -> %s (golden vectors)', (keynum, key) => {
    expect(ycsbKey(keynum)).toBe(key);
  });

  it('fnvhash64 on 32-bit halves equals the BigInt reference, and so does % n', () => {
    const rng = new Rng(7);
    const samples = [0, 1, 2, 255, 256, 65535, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 3, 10_000_000_000, 2 ** 53 - 1];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor(rng.nextDouble() * 2 ** 53));
    for (const k of samples) {
      const ref = referenceFnv(BigInt(k));
      expect(fnvhash64(k)).toBe(ref);
      for (const n of [1, 7, 1000, 25_000_000, 2 ** 36 + 5]) expect(fnvhash64Mod(k, n)).toBe(Number(ref % BigInt(n)));
      expect(ycsbKey(k)).toBe('user' + ref.toString());
    }
  });
});

describe('generators', () => {
  it("zeta(10^10) is YCSB's precomputed constant (checked on a prefix: the series grows as expected)", () => {
    // The full 10^10 sum is too long for a unit test; check zeta(2) and the first terms.
    expect(zeta(0, 2, 0.99, 0)).toBeCloseTo(1 + 1 / Math.pow(2, 0.99), 12);
    expect(SCRAMBLED_ZETAN).toBe(26.46902820178302);
  });

  it("scrambled zipfian: hottest key share matches YCSB's 1/zeta(10^10) on 2M draws over 25M records", () => {
    const n = 25_000_000;
    const chooser = new ScrambledZipfianChooser(new Rng(42), n);
    const counts = new Map<number, number>();
    const draws = 2_000_000;
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const k = chooser.next();
      if (!(k >= 0 && k < n)) outside++;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect(outside).toBe(0);
    const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    // The hottest key is the scrambled rank 0, i.e. fnvhash64(0) % n.
    expect(sorted[0]![0]).toBe(fnvhash64Mod(0, n));
    const hottest = sorted[0]![1] / draws;
    const expected = 1 / SCRAMBLED_ZETAN; // 0.03778 (YCSB: ~3.8% with 25M keys)
    expect(Math.abs(hottest - expected)).toBeLessThan(0.001);
    // Rank 1 (fnvhash64(1) % n) gets 0.5^0.99 / zetan.
    const second = (counts.get(fnvhash64Mod(1, n)) ?? 0) / draws;
    expect(Math.abs(second - Math.pow(0.5, 0.99) / SCRAMBLED_ZETAN)).toBeLessThan(0.001);
    // Scrambling spreads the hot set: the 10 hottest keys are not neighbours.
    const top = sorted.slice(0, 10).map(([k]) => k).sort((a, b) => a - b);
    expect(top[9]! - top[0]!).toBeGreaterThan(n / 10);
  }, 60_000);

  it('an unscrambled zipfian over N keys is a different distribution (rank 0 gets 1/zeta(N))', () => {
    const n = 1000;
    const z = new ZipfianGenerator(new Rng(3), 0, n);
    let zeros = 0;
    const draws = 200_000;
    for (let i = 0; i < draws; i++) if (z.nextValue() === 0) zeros++;
    expect(Math.abs(zeros / draws - 1 / zeta(0, n, 0.99, 0))).toBeLessThan(0.005);
  });

  it('uniform covers the range evenly', () => {
    const u = new UniformChooser(new Rng(1), () => 10);
    const c = new Array(10).fill(0);
    for (let i = 0; i < 100_000; i++) c[u.next()]++;
    for (const x of c) expect(Math.abs(x - 10_000)).toBeLessThan(600);
  });

  it('latest favours the newest record and follows inserts', () => {
    let latest = 999;
    const l = new LatestChooser(new Rng(5), () => latest);
    let newest = 0;
    let outside = 0;
    for (let i = 0; i < 50_000; i++) {
      const k = l.next();
      if (!(k >= 0 && k <= latest)) outside++;
      if (k === latest) newest++;
    }
    expect(outside).toBe(0);
    expect(newest / 50_000).toBeGreaterThan(0.1);
    latest = 5000;
    let seenNew = false;
    for (let i = 0; i < 1000; i++) if (l.next() > 999) seenNew = true;
    expect(seenNew).toBe(true);
  });

  it('gaussian stays in range and centres on the middle', () => {
    const g = new GaussianChooser(new Rng(9), 1000);
    let sum = 0;
    let outside = 0;
    for (let i = 0; i < 50_000; i++) {
      const k = g.next();
      if (!(k >= 0 && k < 1000)) outside++;
      sum += k;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sum / 50_000 - 500)).toBeLessThan(10);
  });

  it('the same seed gives the same sequence', () => {
    const a = new ScrambledZipfianChooser(new Rng(11), 1000);
    const b = new ScrambledZipfianChooser(new Rng(11), 1000);
    for (let i = 0; i < 100; i++) expect(a.next()).toBe(b.next());
  });
});

describe('records', () => {
  it('10 fields x 100 printable bytes, with dots, deterministic per keynum', () => {
    const pool = new ValuePool(1);
    const r = recordFields(pool, 123);
    expect(r.length).toBe(2 * FIELD_COUNT);
    expect(r.filter((_, i) => i % 2 === 0)).toEqual(Array.from({ length: 10 }, (_, i) => `field${i}`));
    for (let i = 1; i < r.length; i += 2) {
      expect(r[i]!.length).toBe(FIELD_LENGTH);
      expect(/^[\x20-\x7e]+$/.test(r[i]!)).toBe(true);
    }
    expect(recordFields(new ValuePool(1), 123)).toEqual(r);
    let dots = 0;
    for (let k = 0; k < 200; k++) dots += sentenceCount(recordFields(pool, k)[1]!) - 1;
    // ~1/95 of printable bytes are '.', so ~210 dots in 200 x 100 bytes
    expect(dots).toBeGreaterThan(100);
    expect(dots).toBeLessThan(400);
  });

  it('sentence count is dots + 1 (empty parts count, as ReQL split)', () => {
    expect(sentenceCount('abc')).toBe(1);
    expect(sentenceCount('a.b.')).toBe(3);
    expect(sentenceCount('..')).toBe(3);
    const b = Buffer.from('xx.y.z');
    expect(sentenceCountBytes(b, 0, b.length)).toBe(3);
    expect(sentenceCountBytes(b, 3, b.length)).toBe(2);
  });
});

describe('workload mixes', () => {
  const fresh = (): Op => ({ kind: 'read', keynum: 0, field: 0 });
  it.each(Object.entries(YCSB_MIXES))('%s draws ops in its proportions', (_name, mix) => {
    const src = new YcsbOpSource(mix, { recordCount: 10_000, seed: 1 });
    const counts = { read: 0, update: 0, insert: 0, rmw: 0, get: 0, set: 0 };
    const op = fresh();
    const n = 100_000;
    let bad = 0;
    for (let i = 0; i < n; i++) {
      src.next(op);
      counts[op.kind]++;
      if (!(op.field >= 0 && op.field < 10)) bad++;
      if (op.kind === 'insert') src.acknowledge!(op.keynum);
      else if (!(op.keynum < 10_000 + counts.insert)) bad++;
    }
    expect(bad).toBe(0);
    for (const k of ['read', 'update', 'insert', 'rmw'] as const) expect(Math.abs(counts[k] / n - mix[k])).toBeLessThan(0.01);
  });

  it('workload D inserts continue after recordcount, one stride per worker', () => {
    const src = new YcsbOpSource(YCSB_MIXES['ycsb-d'], { recordCount: 100, seed: 2, insertIndex: 1, insertStride: 3 });
    const inserted: number[] = [];
    const op = fresh();
    while (inserted.length < 3) if (src.next(op).kind === 'insert') inserted.push(op.keynum);
    expect(inserted).toEqual([101, 104, 107]);
  });

  it('workload D reads only what this worker knows exists: loaded records and its own inserts up to the first unacknowledged one', () => {
    const records = 1000;
    const src = new YcsbOpSource(YCSB_MIXES['ycsb-d'], { recordCount: records, seed: 3, insertIndex: 2, insertStride: 4 });
    const op = fresh();
    const inFlight: number[] = [];
    const acked = new Set<number>();
    let stray = 0;
    let ownReads = 0;
    let contiguous = records + 2 - 4; // our last insert with every earlier one of ours acknowledged
    for (let i = 0; i < 100_000; i++) {
      src.next(op);
      if (op.kind === 'insert') {
        inFlight.push(op.keynum);
        // acknowledge out of order, keeping up to 8 in flight: the newest first every other time
        if (inFlight.length > 8) {
          const k = i % 2 ? inFlight.pop()! : inFlight.shift()!;
          acked.add(k);
          src.acknowledge!(k);
        }
      } else if (op.keynum >= records) {
        ownReads++;
        // a read of an insert must be one of ours, acknowledged, and every earlier one of ours acknowledged too
        while (acked.has(contiguous + 4)) contiguous += 4;
        if ((op.keynum - records - 2) % 4 !== 0 || op.keynum > contiguous) stray++;
      }
    }
    expect(ownReads).toBeGreaterThan(1000);
    expect(stray).toBe(0);
  });

  it('getset follows its SET:GET ratio and key range', () => {
    expect(parseRatio('1:10')).toEqual([1, 10]);
    expect(() => parseRatio('0:0')).toThrow();
    const src = new GetSetOpSource({ keyRange: 500, ratio: '1:3', pattern: 'uniform', seed: 4 });
    let sets = 0;
    const op = fresh();
    let outside = 0;
    for (let i = 0; i < 40_000; i++) {
      src.next(op);
      if (op.kind === 'set') sets++;
      if (op.keynum >= 500) outside++;
    }
    expect(outside).toBe(0);
    expect(Math.abs(sets / 40_000 - 0.25)).toBeLessThan(0.01);
  });
});

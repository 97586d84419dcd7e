/**
 * What both load generator workers must do, as data. The TypeScript
 * implementation (fnv.ts, random.ts, generators.ts, record.ts, workloads.ts,
 * loadgen/key-slot.ts) is the source of truth; this module renders from it:
 *
 * - `bench/spec/ycsb-vectors.json`: golden vectors. YCSB keys and their
 *   slots, and for a few (workload, records, seed, worker) cases the op
 *   sequence (kind, keynum, field, key, slot per op) and the exact command
 *   bytes, as SHA-256 digests plus their first lines.
 * - `bench/native/ycsb-spec.h`: the constants and workload mixes the C
 *   worker (bench/native/ycsb-worker.c) is compiled with.
 *
 * `npm run generate:spec -w @strata/bench` writes both. ycsb-spec.test.ts
 * fails when either is stale (the TypeScript no longer reproduces them);
 * loadgen/native-worker.test.ts fails when the built C worker's dump modes
 * (`-k`, `-D`, `-C`) do not reproduce the vectors.
 */
import { createHash } from 'node:crypto';
import { FNV_OFFSET_BASIS, FNV_PRIME } from '../fnv';
import { SCRAMBLED_ITEM_COUNT, SCRAMBLED_ZETAN, ZIPFIAN_CONSTANT } from '../generators';
import { HIGHEST_US, LOWEST_US, SIGNIFICANT_DIGITS } from '../histogram';
import { keySlot } from '../loadgen/key-slot';
import { encodeCommand } from '../loadgen/resp';
import { Rng } from '../random';
import { FIELD_COUNT, FIELD_LENGTH, FIELD_NAMES, VALUE_OFFSET, VALUE_POOL_HASH, VALUE_POOL_SEED_XOR, VALUE_POOL_SIZE, ValuePool, recordFields, valueIndex } from '../record';
import { WORKER_SEED_MULTIPLIER, YCSB_MIXES, YcsbOpSource, workerSeed, ycsbLetter, type Op } from '../workloads';
import { ycsbKey } from '../ycsb-keys';

/** The workloads the native worker runs: YCSB_MIXES' names ('ycsb-a' ..), passed to it as their letter. */
export type YcsbWorkload = keyof typeof YCSB_MIXES;
export const YCSB_WORKLOADS = Object.keys(YCSB_MIXES) as YcsbWorkload[];
export const workloadLetter = ycsbLetter;

/** One worker's run: the op source seeded as ops-runner seeds it (workerSeed), inserting its share of the new keys. */
export interface SequenceCase {
  workload: YcsbWorkload;
  records: number;
  seed: number;
  workerIndex: number;
  workerCount: number;
  ops: number;
}

export interface YcsbVectors {
  about: string;
  /** `keynum key slot` */
  keys: string[];
  /** per case: `kind keynum field key slot` per op; digest of all lines (each ending in \n), the first lines verbatim */
  sequences: (SequenceCase & { sha256: string; first: string[] })[];
  /** per case: every op's commands in RESP (an rmw's HGETALL then HSET); digest of the bytes, the first op's verbatim */
  commands: (SequenceCase & { sha256: string; first: string })[];
}

export const VECTORS_ABOUT =
  'Golden vectors of the YCSB load generator, generated from the TypeScript implementation (bench/src, the source of truth) by `npm run generate:spec -w @strata/bench`; do not edit. The native worker must reproduce them (bench/src/loadgen/native-worker.test.ts).';

/**
 * The ops a worker issues, each insert acknowledged when the next one is
 * issued (one behind, as if one insert were always in flight), as lines.
 */
export function sequenceLines(c: SequenceCase, each?: (op: Op) => void): string[] {
  const src = new YcsbOpSource(YCSB_MIXES[c.workload], { recordCount: c.records, seed: workerSeed(c.seed, c.workerIndex), insertIndex: c.workerIndex, insertStride: c.workerCount });
  const op: Op = { kind: 'read', keynum: 0, field: 0 };
  const lines: string[] = [];
  let pending = -1;
  for (let i = 0; i < c.ops; i++) {
    src.next(op);
    const key = ycsbKey(op.keynum);
    lines.push(`${op.kind} ${op.keynum} ${op.field} ${key} ${keySlot(key)}`);
    each?.(op);
    if (op.kind === 'insert') {
      if (pending >= 0) src.acknowledge(pending);
      pending = op.keynum;
    }
  }
  return lines;
}

/** The commands of one YCSB op (the stock Redis binding's, without `_indices`), values from the run's pool. */
export function ycsbCommands(op: Op, pool: ValuePool): string[][] {
  const key = ycsbKey(op.keynum);
  switch (op.kind) {
    case 'read':
      return [['HGETALL', key]];
    case 'update':
      return [['HSET', key, FIELD_NAMES[op.field]!, pool.at(valueIndex('update', op.keynum, op.field))]];
    case 'rmw':
      return [['HGETALL', key], ['HSET', key, FIELD_NAMES[op.field]!, pool.at(valueIndex('rmw', op.keynum, op.field))]];
    case 'insert':
      return [['HSET', key, ...recordFields(pool, op.keynum)]];
    default:
      throw new Error(`${op.kind} is not a YCSB op`);
  }
}

/** Every op's commands in RESP, as the worker writes them (latin1 bytes). */
export function commandBytes(c: SequenceCase): Buffer {
  const pool = new ValuePool(c.seed);
  const parts: string[] = [];
  sequenceLines(c, (op) => parts.push(ycsbCommands(op, pool).map(encodeCommand).join('')));
  return Buffer.from(parts.join(''), 'latin1');
}

const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

/** Keynums of the key vectors: BENCHMARKS.md's golden ones, byte and word edges, the largest safe integer, a seeded sample. */
function keynums(): number[] {
  const out = [0, 1, 2, 3, 255, 256, 65535, 65536, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 3, 10_000_000_000, 2 ** 53 - 1];
  const rng = new Rng(11);
  for (let i = 0; i < 16; i++) out.push(Math.floor(rng.nextDouble() * 2 ** 53));
  for (let i = 0; i < 16; i++) out.push(rng.nextInt(100_000_000));
  return out;
}

/** The cases: every workload as one of three workers, plus edges (one record, a seed whose worker seed passes 2^32, D on ten records). */
export const SEQUENCE_CASES: SequenceCase[] = [
  ...YCSB_WORKLOADS.map((workload) => ({ workload, records: 100_000, seed: 7, workerIndex: 1, workerCount: 3, ops: 20_000 })),
  { workload: 'ycsb-a', records: 1, seed: 0, workerIndex: 0, workerCount: 1, ops: 2_000 },
  { workload: 'ycsb-c', records: 25_000_000, seed: 1_000_000_007, workerIndex: 5, workerCount: 8, ops: 5_000 },
  { workload: 'ycsb-d', records: 10, seed: 3, workerIndex: 0, workerCount: 1, ops: 5_000 },
];
export const COMMAND_CASES: SequenceCase[] = YCSB_WORKLOADS.map((workload) => ({ workload, records: 100_000, seed: 7, workerIndex: 2, workerCount: 3, ops: 1_000 }));

/** The golden vectors, computed by the TypeScript implementation. */
export function ycsbVectors(): YcsbVectors {
  return {
    about: VECTORS_ABOUT,
    keys: keynums().map((k) => {
      const key = ycsbKey(k);
      return `${k} ${key} ${keySlot(key)}`;
    }),
    sequences: SEQUENCE_CASES.map((c) => {
      const lines = sequenceLines(c);
      return { ...c, sha256: sha256(lines.map((l) => `${l}\n`).join('')), first: lines.slice(0, 8) };
    }),
    commands: COMMAND_CASES.map((c) => {
      const pool = new ValuePool(c.seed);
      const first: string[] = [];
      sequenceLines({ ...c, ops: 1 }, (op) => first.push(ycsbCommands(op, pool).map(encodeCommand).join('')));
      return { ...c, sha256: sha256(commandBytes(c)), first: first[0]! };
    }),
  };
}

/** A C literal for a TypeScript number: JavaScript's shortest round-trip form, which C parses to the same double. */
const cNumber = (n: number): string => String(n);
const hex = (n: number | bigint, suffix: string) => `0x${n.toString(16)}${suffix}`;

/** bench/native/ycsb-spec.h: the constants of the TypeScript implementation, for the C worker. */
export function nativeSpecHeader(): string {
  const mixes = YCSB_WORKLOADS.map((w) => {
    const m = YCSB_MIXES[w];
    if (m.distribution === 'uniform') throw new Error(`${w}: the native worker has no uniform distribution`);
    return `  {'${workloadLetter(w)}', ${cNumber(m.read)}, ${cNumber(m.update)}, ${cNumber(m.insert)}, ${cNumber(m.rmw)}, ${m.distribution === 'latest' ? 1 : 0}},`;
  });
  return `/*
 * ycsb-spec.h - generated from the TypeScript implementation (bench/src) by
 * \`npm run generate:spec -w @strata/bench\` (bench/src/spec/ycsb-spec.ts): do not edit.
 * The TypeScript is the source of truth; bench/spec/ycsb-vectors.json holds its
 * golden output, which ycsb-worker's dump modes must reproduce.
 */
#ifndef YCSB_SPEC_H
#define YCSB_SPEC_H

/* record.ts: fields, the value pool, which pool value each op writes */
#define YCSB_FIELD_COUNT ${FIELD_COUNT}
#define YCSB_FIELD_LENGTH ${FIELD_LENGTH}
#define YCSB_VALUE_POOL_SIZE ${VALUE_POOL_SIZE}
#define YCSB_VALUE_POOL_SEED_XOR ${hex(VALUE_POOL_SEED_XOR, 'u')}
#define YCSB_VALUE_POOL_HASH ${hex(VALUE_POOL_HASH, 'u')}
#define YCSB_INSERT_VALUE_OFFSET ${VALUE_OFFSET.insert}
#define YCSB_UPDATE_VALUE_OFFSET ${VALUE_OFFSET.update}
#define YCSB_RMW_VALUE_OFFSET ${VALUE_OFFSET.rmw}

/* fnv.ts: YCSB's fnvhash64 */
#define YCSB_FNV_OFFSET_BASIS ${hex(FNV_OFFSET_BASIS, 'ull')}
#define YCSB_FNV_PRIME ${hex(FNV_PRIME, 'ull')}

/* generators.ts: ScrambledZipfian (a Zipfian over ITEM_COUNT + 1 items with YCSB's precomputed zeta) */
#define YCSB_ZIPFIAN_CONSTANT ${cNumber(ZIPFIAN_CONSTANT)}
#define YCSB_SCRAMBLED_ITEM_COUNT ${SCRAMBLED_ITEM_COUNT}LL
#define YCSB_SCRAMBLED_ZETAN ${cNumber(SCRAMBLED_ZETAN)}

/* workloads.ts: a worker's Rng seed is seed * MULTIPLIER + workerIndex */
#define YCSB_WORKER_SEED_MULTIPLIER ${WORKER_SEED_MULTIPLIER}

/* histogram.ts: HdrHistogram range and precision */
#define YCSB_HISTOGRAM_LOWEST_US ${LOWEST_US}
#define YCSB_HISTOGRAM_HIGHEST_US ${HIGHEST_US}ull
#define YCSB_HISTOGRAM_SIGNIFICANT_DIGITS ${SIGNIFICANT_DIGITS}

/* workloads.ts YCSB_MIXES: letter, read, update, insert, read-modify-write, latest (1) or scrambled zipfian (0) */
#define YCSB_MIX_COUNT ${YCSB_WORKLOADS.length}
static const struct ycsb_mix {
  char letter;
  double read, update, insert, rmw;
  int latest;
} YCSB_MIXES[YCSB_MIX_COUNT] = {
${mixes.join('\n')}
};

#endif
`;
}

/*
 * ycsb-spec.h - generated from the TypeScript implementation (bench/src) by
 * `npm run generate:spec -w @strata/bench` (bench/src/spec/ycsb-spec.ts): do not edit.
 * The TypeScript is the source of truth; bench/spec/ycsb-vectors.json holds its
 * golden output, which ycsb-worker's dump modes must reproduce.
 */
#ifndef YCSB_SPEC_H
#define YCSB_SPEC_H

/* record.ts: fields, the value pool, which pool value each op writes */
#define YCSB_FIELD_COUNT 10
#define YCSB_FIELD_LENGTH 100
#define YCSB_VALUE_POOL_SIZE 4096
#define YCSB_VALUE_POOL_SEED_XOR 0x5eedu
#define YCSB_VALUE_POOL_HASH 0x45d9f3bu
#define YCSB_INSERT_VALUE_OFFSET 0
#define YCSB_UPDATE_VALUE_OFFSET 1
#define YCSB_RMW_VALUE_OFFSET 2

/* fnv.ts: YCSB's fnvhash64 */
#define YCSB_FNV_OFFSET_BASIS 0xcbf29ce484222325ull
#define YCSB_FNV_PRIME 0x100000001b3ull

/* generators.ts: ScrambledZipfian (a Zipfian over ITEM_COUNT + 1 items with YCSB's precomputed zeta) */
#define YCSB_ZIPFIAN_CONSTANT 0.99
#define YCSB_SCRAMBLED_ITEM_COUNT 10000000000LL
#define YCSB_SCRAMBLED_ZETAN 26.46902820178302

/* workloads.ts: a worker's Rng seed is seed * MULTIPLIER + workerIndex */
#define YCSB_WORKER_SEED_MULTIPLIER 7919

/* histogram.ts: HdrHistogram range and precision */
#define YCSB_HISTOGRAM_LOWEST_US 1
#define YCSB_HISTOGRAM_HIGHEST_US 60000000ull
#define YCSB_HISTOGRAM_SIGNIFICANT_DIGITS 3

/* workloads.ts YCSB_MIXES: letter, read, update, insert, read-modify-write, latest (1) or scrambled zipfian (0) */
#define YCSB_MIX_COUNT 5
static const struct ycsb_mix {
  char letter;
  double read, update, insert, rmw;
  int latest;
} YCSB_MIXES[YCSB_MIX_COUNT] = {
  {'a', 0.5, 0.5, 0, 0, 0},
  {'b', 0.95, 0.05, 0, 0, 0},
  {'c', 1, 0, 0, 0, 0},
  {'d', 0.95, 0, 0.05, 0, 1},
  {'f', 0.5, 0, 0, 0.5, 0},
};

#endif

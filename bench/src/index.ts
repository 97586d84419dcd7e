/** @strata/bench: benchmark workloads, generators, histograms and results (pure, no I/O). */
export { fnvhash64, fnvhash64Mod, fnvhash64String, fnvhash64Into, type U64 } from './fnv';
export { ycsbKey } from './ycsb-keys';
export { BENCH_KEY_SPACE, benchKeyPrefix } from './bench-keys';
export { Rng } from './random';
export {
  ZipfianGenerator,
  ScrambledZipfianChooser,
  UniformChooser,
  LatestChooser,
  GaussianChooser,
  SCRAMBLED_ZETAN,
  SCRAMBLED_ITEM_COUNT,
  ZIPFIAN_CONSTANT,
  zeta,
  type KeyChooser,
} from './generators';
export { FIELD_COUNT, FIELD_LENGTH, FIELD_NAMES, ValuePool, recordFields, randomPrintable } from './record';
export { sentenceCount, sentenceCountBytes } from './analytic';
export {
  YCSB_MIXES,
  YcsbOpSource,
  GetSetOpSource,
  opSourceFor,
  parseRatio,
  getsetKey,
  OP_KINDS,
  type Op,
  type OpKind,
  type OpSource,
  type YcsbMix,
} from './workloads';
export {
  newHistogram,
  recordUs,
  encodeHistogram,
  decodeHistogram,
  mergeHistograms,
  summarize,
  histogramLog,
  LOWEST_US,
  HIGHEST_US,
  SIGNIFICANT_DIGITS,
  type Histogram,
} from './histogram';
export { mergeOpCounts } from './merge';
export type { OpCounts } from './loadgen/protocol';
export { buildResult, longestWriteGap, writesOf, CPU_LIMIT, LAG_LIMIT_US, type HostRun, type ResultInput } from './result.builder';
export { parseLatencyHistogram, latencyDelta, summarizeBuckets, workloadCommands, type CommandLatency, type ServerLatencySummary } from './server-latency';

/** @strata/bench/loadgen: the benchmark load generator (talks to Redis; used by agents and bench scripts). */
export { LoadGenerator, type LoadGeneratorEngine, type LoadGeneratorOptions, type IntervalPoint, type RunSummary, type AnalyticRun } from './load-generator';
export { RespConnection } from './resp-connection';
export { keySlot } from './key-slot';
export { SlotMap, parseClusterSlots, parseRedirect } from './slot-map';
export type { OpCounts } from './protocol';
export { mergeOpCounts } from '../merge';
export { countKeys, removeKeys, currentPrimaries } from './key-space';

export * from './common';
export * from './clusters';
export * from './operations';
export * from './nodes';
export * from './agent';
export * from './auth';
export * from './operation-table';

export * from './events';
export * from './metrics';
export * from './topology';
export * from './live';
export * from './capacity';
export * from './benchmarks';
export * from './benchmark-presets';
export * from './shard-label';
export * from './memory-label';
export * from './audit-actions';

/** Pure metrics math shared by the agent's sampler and the control plane. */
export * from './latency-histogram';
export * from './counters';
export * from './info.parser';
export * from './snapshot';

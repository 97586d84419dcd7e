export const benchmarkKeys = {
  all: ['benchmarks'] as const,
  list: (clusterId: string) => [...benchmarkKeys.all, 'cluster', clusterId] as const,
  presets: (clusterId: string) => [...benchmarkKeys.all, 'presets', clusterId] as const,
  detail: (id: string) => [...benchmarkKeys.all, 'detail', id] as const,
};

export const isBenchmarkActive = (state: string): boolean => ['pending', 'loading', 'warmup', 'running'].includes(state);

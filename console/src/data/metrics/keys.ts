export const metricsKeys = {
  all: ['metrics'] as const,
  cluster: (id: string, q: string) => [...metricsKeys.all, 'cluster', id, q] as const,
  currentClusters: () => [...metricsKeys.all, 'current', 'clusters'] as const,
  currentNodes: () => [...metricsKeys.all, 'current', 'nodes'] as const,
};

export const diagnosticsKeys = {
  all: (clusterId: string) => ['clusters', 'detail', clusterId, 'diagnostics'] as const,
  slowLog: (clusterId: string) => [...diagnosticsKeys.all(clusterId), 'slowlog'] as const,
  keyScans: (clusterId: string) => [...diagnosticsKeys.all(clusterId), 'key-scans'] as const,
  heat: (clusterId: string) => [...diagnosticsKeys.all(clusterId), 'heat'] as const,
};

export const backupKeys = {
  all: ['backups'] as const,
  list: (clusterId: string) => [...backupKeys.all, 'cluster', clusterId] as const,
  schedule: (clusterId: string) => [...backupKeys.all, 'schedule', clusterId] as const,
};

import type { ListBackupsQuery } from '@strata/api';

export const backupKeys = {
  all: ['backups'] as const,
  list: (clusterId: string) => [...backupKeys.all, 'cluster', clusterId] as const,
  org: (filter: ListBackupsQuery) => [...backupKeys.all, 'org', filter] as const,
  detail: (backupId: string) => [...backupKeys.all, 'detail', backupId] as const,
  schedule: (clusterId: string) => [...backupKeys.all, 'schedule', clusterId] as const,
};

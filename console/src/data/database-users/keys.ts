export const databaseUserKeys = {
  list: (clusterId: string) => ['clusters', 'detail', clusterId, 'database-users'] as const,
};

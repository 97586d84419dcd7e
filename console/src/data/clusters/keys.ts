export const clusterKeys = {
  all: ['clusters'] as const,
  list: () => [...clusterKeys.all, 'list'] as const,
  detail: (id: string) => [...clusterKeys.all, 'detail', id] as const,
  topology: (id: string) => [...clusterKeys.all, 'detail', id, 'topology'] as const,
  connection: (id: string) => [...clusterKeys.all, 'detail', id, 'connection'] as const,
  operations: (id: string) => [...clusterKeys.all, 'detail', id, 'operations'] as const,
  events: (id: string) => [...clusterKeys.all, 'detail', id, 'events'] as const,
};

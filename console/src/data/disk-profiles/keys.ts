export const diskProfileKeys = {
  all: ['disk-profiles'] as const,
  list: (nodeId: string) => [...diskProfileKeys.all, 'list', nodeId] as const,
  detail: (id: string) => [...diskProfileKeys.all, 'detail', id] as const,
  advice: () => [...diskProfileKeys.all, 'advice'] as const,
};

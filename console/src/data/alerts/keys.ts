export const alertKeys = {
  all: ['alerts'] as const,
  rules: () => [...alertKeys.all, 'rules'] as const,
  alerts: () => [...alertKeys.all, 'list'] as const,
  channels: () => [...alertKeys.all, 'channels'] as const,
  deliveries: (channelId: string) => [...alertKeys.all, 'channels', channelId, 'deliveries'] as const,
};

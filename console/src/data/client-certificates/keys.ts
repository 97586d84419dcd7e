export const clientCertificateKeys = {
  list: (clusterId: string) => ['clusters', 'detail', clusterId, 'client-certificates'] as const,
};

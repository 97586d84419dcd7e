import { useQuery } from '@tanstack/react-query';
import type { ClientCertificateList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clientCertificateKeys } from './keys';

/** GET /v1/clusters/{id}/client-certificates: revoked ones included, never keys. */
export function getClientCertificates(clusterId: string, signal?: AbortSignal): Promise<ClientCertificateList> {
  return apiCall(api.GET('/v1/clusters/{id}/client-certificates', { params: { path: { id: clusterId } }, signal }));
}

/** Polls every 2 s while an issue or a revocation is not yet on every instance. */
export function useClientCertificatesQuery(clusterId: string) {
  return useQuery({
    queryKey: clientCertificateKeys.list(clusterId),
    queryFn: ({ signal }) => getClientCertificates(clusterId, signal),
    refetchInterval: (q) => ((q.state.data?.items ?? []).some((c) => !c.applied) ? 2000 : false),
  });
}

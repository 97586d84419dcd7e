import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientCertificate } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clientCertificateKeys } from './keys';

/** POST /v1/clusters/{id}/client-certificates/{certificateId}/revoke → 200; every instance refuses it within seconds. */
export function revokeClientCertificate(clusterId: string, certificateId: string): Promise<ClientCertificate> {
  return apiCall(api.POST('/v1/clusters/{id}/client-certificates/{certificateId}/revoke', { params: { path: { id: clusterId, certificateId } } }));
}

export function useClientCertificateRevokeMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (certificateId: string) => revokeClientCertificate(clusterId, certificateId),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clientCertificateKeys.list(clusterId) }),
  });
}

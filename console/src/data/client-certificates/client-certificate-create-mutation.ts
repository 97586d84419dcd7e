import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ClientCertificateWithKey, CreateClientCertificateRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { clientCertificateKeys } from './keys';

/** POST /v1/clusters/{id}/client-certificates → 201 with the certificate and its key (shown once). */
export function createClientCertificate(clusterId: string, body: CreateClientCertificateRequest): Promise<ClientCertificateWithKey> {
  return apiCall(api.POST('/v1/clusters/{id}/client-certificates', { params: { path: { id: clusterId } }, body }));
}

export function useClientCertificateCreateMutation(clusterId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateClientCertificateRequest) => createClientCertificate(clusterId, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: clientCertificateKeys.list(clusterId) }),
  });
}

import { useMutation } from '@tanstack/react-query';
import type { ClientCertificateWithKey, CreateClientCertificateRequest } from '@strata/api';
import { api, apiCall } from '../fetcher';

/** POST /v1/clusters/{id}/client-certificates → 201 with the certificate and its key (shown once). */
export function createClientCertificate(clusterId: string, body: CreateClientCertificateRequest): Promise<ClientCertificateWithKey> {
  return apiCall(api.POST('/v1/clusters/{id}/client-certificates', { params: { path: { id: clusterId } }, body }));
}

export function useClientCertificateCreateMutation(clusterId: string) {
  return useMutation({ mutationFn: (body: CreateClientCertificateRequest) => createClientCertificate(clusterId, body) });
}

import { useQuery } from '@tanstack/react-query';
import type { DiskProfileList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { diskProfileKeys } from './keys';

/** GET /v1/nodes/{id}/profiles (platform admins) */
export function listDiskProfiles(nodeId: string, signal?: AbortSignal): Promise<DiskProfileList> {
  return apiCall(api.GET('/v1/nodes/{id}/profiles', { params: { path: { id: nodeId } }, signal }));
}

export function useDiskProfilesQuery(nodeId: string) {
  return useQuery({ queryKey: diskProfileKeys.list(nodeId), queryFn: ({ signal }) => listDiskProfiles(nodeId, signal) });
}

import { useQuery } from '@tanstack/react-query';
import type { UserList } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { accessKeys } from './keys';

/** GET /v1/users (organization admins). */
export function getUsers(signal?: AbortSignal): Promise<UserList> {
  return apiCall(api.GET('/v1/users', { signal }));
}

export function useUsersQuery(enabled: boolean) {
  return useQuery({ queryKey: accessKeys.users(), queryFn: ({ signal }) => getUsers(signal), enabled });
}

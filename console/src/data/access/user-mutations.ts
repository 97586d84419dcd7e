import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserRequest, Role, User } from '@strata/api';
import { api, apiCall } from '../fetcher';
import { accessKeys } from './keys';

/** POST /v1/users */
export function createUser(body: CreateUserRequest): Promise<User> {
  return apiCall(api.POST('/v1/users', { body }));
}

/** PATCH /v1/users/{id} {role} */
export function setUserRole(v: { id: string; role: Role }): Promise<User> {
  return apiCall(api.PATCH('/v1/users/{id}', { params: { path: { id: v.id } }, body: { role: v.role } }));
}

export function useUserCreateMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => void qc.invalidateQueries({ queryKey: accessKeys.all }) });
}

export function useUserRoleMutation() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setUserRole, onSuccess: () => void qc.invalidateQueries({ queryKey: accessKeys.all }) });
}

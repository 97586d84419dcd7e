/**
 * One declaration per operation (method, path, scope, schemas, responses): the control plane mounts
 * its Express routes from these (control-plane/src/http/operation-router.ts) and openapi.ts registers
 * them, so the two cannot drift. Operations not yet moved here are still registered by hand in
 * openapi.ts; route-table.test.ts checks both kinds against the router.
 */
import { z } from './common';
import {
  ApiToken, ApiTokenInfo, ApiTokenList, AuditList, AuditQuery, CreateTokenRequest, CreateUserRequest, UpdateUserRequest, User, UserList,
  type Scope,
} from './auth';

export interface OperationDef {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** OpenAPI style, e.g. /v1/tokens/{id}; `{id}` is a UUID. */
  path: string;
  summary: string;
  /** The scope it needs (`self`: any signed-in user, or a token with the admin scope). */
  scope: Scope | 'self';
  body?: z.ZodType;
  query?: z.ZodType;
  success: { status: 200 | 201 | 202 | 204; schema: z.ZodType; description?: string };
  /** Extra documented problems besides 400/401/403/404. */
  problems?: Record<number, string>;
}

const op = <T extends OperationDef>(o: T) => o;

export const OPERATION_TABLE = {
  listUsers: op({ method: 'get', path: '/v1/users', summary: "Users of the caller's organization and their roles", scope: 'admin', success: { status: 200, schema: UserList } }),
  createUser: op({
    method: 'post', path: '/v1/users', summary: "Create a user in the caller's organization", scope: 'admin', body: CreateUserRequest,
    success: { status: 201, schema: User }, problems: { 409: 'Email taken' },
  }),
  updateUser: op({
    method: 'patch', path: '/v1/users/{id}', summary: "Change a user's role (bounds the user's tokens at once)", scope: 'admin', body: UpdateUserRequest,
    success: { status: 200, schema: User }, problems: { 409: 'Would leave the organization without an admin (code invalid_state)' },
  }),
  createToken: op({
    method: 'post', path: '/v1/tokens', summary: 'Create an API token with scopes within your own; the secret is returned once', scope: 'self',
    body: CreateTokenRequest, success: { status: 201, schema: ApiToken },
  }),
  listTokens: op({
    method: 'get', path: '/v1/tokens', summary: "API tokens (an admin sees the organization's, others their own), with last use", scope: 'self',
    success: { status: 200, schema: ApiTokenList },
  }),
  getToken: op({ method: 'get', path: '/v1/tokens/{id}', summary: 'One API token (never its secret)', scope: 'self', success: { status: 200, schema: ApiTokenInfo } }),
  revokeToken: op({
    method: 'delete', path: '/v1/tokens/{id}', summary: 'Revoke an API token (idempotent); it stops working at once', scope: 'self',
    success: { status: 200, schema: ApiTokenInfo },
  }),
  listAudit: op({
    method: 'get', path: '/v1/audit', summary: 'Audit log: who changed what in the organization, newest first', scope: 'admin', query: AuditQuery,
    success: { status: 200, schema: AuditList },
  }),
} as const;

export type OperationName = keyof typeof OPERATION_TABLE;

import { z, Id, Timestamp, safeString } from './common';
import { AUDIT_KINDS, AUDIT_RESOURCE_TYPES } from './audit-actions';

const AUDIT_KIND_FILTERS = [...new Set([...AUDIT_RESOURCE_TYPES, ...AUDIT_KINDS.map(([k]) => k)])] as [string, ...string[]];

/**
 * What an API token may do. `admin` implies every other scope.
 * clusters:read  list and read clusters, operations, topology, connection, metrics, nodes
 * clusters:write create, change and delete clusters
 * benchmarks:run run benchmarks against clusters
 * admin          manage users and tokens of the organization, read the audit log
 */
export const Scope = z.enum(['clusters:read', 'clusters:write', 'benchmarks:run', 'admin']);
export type Scope = z.infer<typeof Scope>;
export const SCOPES = Scope.options;

/** A user's role in their organization; it bounds the user and every token the user creates. */
export const Role = z.enum(['viewer', 'member', 'admin']);
export type Role = z.infer<typeof Role>;
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  viewer: ['clusters:read'],
  member: ['clusters:read', 'clusters:write', 'benchmarks:run'],
  admin: ['clusters:read', 'clusters:write', 'benchmarks:run', 'admin'],
};

export const Organization = z
  .object({ id: Id, name: z.string(), createdAt: Timestamp })
  .openapi('Organization');
export type Organization = z.infer<typeof Organization>;

export const User = z
  .object({
    id: Id, email: z.string(), organizationId: Id, role: Role,
    isAdmin: z.boolean().describe('platform administrator (manages nodes and organizations)'), createdAt: Timestamp,
  })
  .openapi('User');
export type User = z.infer<typeof User>;
export const UserList = z.object({ items: z.array(User) }).openapi('UserList');
export type UserList = z.infer<typeof UserList>;

export const CreateOrganizationRequest = z
  .strictObject({ name: safeString().min(2).max(60).regex(/^[a-z][a-z0-9-]*$/) })
  .openapi('CreateOrganizationRequest');
export const CreateOrganizationResponse = z
  .object({ organization: Organization, token: z.string().describe('admin API token of the new organization; shown once') })
  .openapi('CreateOrganizationResponse');
export type CreateOrganizationResponse = z.infer<typeof CreateOrganizationResponse>;

const Email = safeString().max(254).pipe(z.email());

export const CreateUserRequest = z
  .strictObject({ email: Email, password: safeString().min(8).max(200), role: Role.optional().describe('default member') })
  .openapi('CreateUserRequest');
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

export const UpdateUserRequest = z.strictObject({ role: Role }).openapi('UpdateUserRequest');
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

export const CreateTokenRequest = z
  .strictObject({
    name: safeString().min(1).max(60),
    scopes: z.array(Scope).min(1).max(SCOPES.length).describe('within what your role allows'),
    expiresAt: z.iso.datetime({ offset: true }).optional().describe('RFC 3339; the token stops working then. Default: never'),
  })
  .openapi('CreateTokenRequest');
export type CreateTokenRequest = z.infer<typeof CreateTokenRequest>;

/** A token as listed: never the secret. */
export const ApiTokenInfo = z
  .object({
    id: Id,
    name: z.string(),
    scopes: z.array(Scope),
    createdBy: z.string().nullable().describe('email of the user who created it; null for tokens made by Strata itself'),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable().describe('updated at most once a minute'),
    revokedAt: Timestamp.nullable(),
  })
  .openapi('ApiTokenInfo');
export type ApiTokenInfo = z.infer<typeof ApiTokenInfo>;
export const ApiTokenList = z.object({ items: z.array(ApiTokenInfo) }).openapi('ApiTokenList');
export type ApiTokenList = z.infer<typeof ApiTokenList>;

export const ApiToken = ApiTokenInfo.extend({ token: z.string().describe('the secret; shown once') }).openapi('ApiToken');
export type ApiToken = z.infer<typeof ApiToken>;

export const LoginRequest = z
  .strictObject({ email: safeString().min(1).max(254), password: safeString().min(1).max(200) })
  .openapi('LoginRequest');
export type LoginRequest = z.infer<typeof LoginRequest>;

export const Session = z
  .object({ user: User, organization: Organization, csrfToken: z.string(), scopes: z.array(Scope).describe('what this session may do (from the role)') })
  .openapi('Session');
export type Session = z.infer<typeof Session>;

export const AuditEntry = z
  .object({
    id: z.string(),
    at: Timestamp,
    actor: z.object({
      type: z.enum(['user', 'token', 'operator']),
      id: z.string().nullable(),
      name: z.string().describe('user email, or token name'),
    }),
    action: z.string().describe('METHOD and route, e.g. "DELETE /v1/clusters/:id"; SIGN-IN, SIGN-IN-FAILED or SIGN-OUT for the console\'s sessions'),
    kind: z.string().describe('the action as a stable kind, e.g. "cluster.delete", "session.sign-in-failed"'),
    summary: z.string().describe('what happened in words, e.g. "Deleted cluster orders-cache", "Changed cluster orders-cache (dry run: nothing changed)"'),
    resource: z.object({
      type: z.enum(AUDIT_RESOURCE_TYPES),
      id: z.string().nullable(),
      name: z.string().nullable().describe('as it was when the entry was written'),
    }),
    dryRun: z.boolean().describe('a previewed change (?dryRun=true): nothing was changed'),
    targetId: z.string().nullable(),
    status: z.number().int().describe('HTTP status of the change'),
    detail: z.record(z.string(), z.unknown()).describe('the request body without secrets'),
  })
  .openapi('AuditEntry');
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditList = z
  .object({ items: z.array(AuditEntry), nextCursor: z.string().nullable().describe('pass as `before` for older entries') })
  .openapi('AuditList');
export type AuditList = z.infer<typeof AuditList>;
export const AuditQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: safeString().regex(/^\d{1,18}$/, 'a cursor from nextCursor').optional(),
  actor: safeString().max(200).optional().describe('entries whose actor name (email or token name) contains this, any case'),
  kind: z.enum(AUDIT_KIND_FILTERS).optional().describe('a kind ("cluster.delete") or every kind under a prefix ("cluster", "session")'),
  resource: safeString().max(200).optional().describe("entries whose resource id or name contains this, any case"),
  from: Timestamp.optional().describe('entries at or after this time'),
  to: Timestamp.optional().describe('entries before this time'),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

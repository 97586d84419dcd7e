import { z, Id, Timestamp } from './common';

export const Organization = z
  .object({ id: Id, name: z.string(), createdAt: Timestamp })
  .openapi('Organization');
export type Organization = z.infer<typeof Organization>;

export const User = z
  .object({ id: Id, email: z.string(), organizationId: Id, isAdmin: z.boolean(), createdAt: Timestamp })
  .openapi('User');
export type User = z.infer<typeof User>;

export const CreateOrganizationRequest = z
  .strictObject({ name: z.string().min(2).max(60).regex(/^[a-z][a-z0-9-]*$/) })
  .openapi('CreateOrganizationRequest');
export const CreateOrganizationResponse = z
  .object({ organization: Organization, token: z.string().describe('admin API token of the new organization; shown once') })
  .openapi('CreateOrganizationResponse');
export type CreateOrganizationResponse = z.infer<typeof CreateOrganizationResponse>;

export const CreateUserRequest = z
  .strictObject({ email: z.string().email(), password: z.string().min(8).max(200) })
  .openapi('CreateUserRequest');
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

export const CreateTokenRequest = z
  .strictObject({ name: z.string().min(1).max(60) })
  .openapi('CreateTokenRequest');
export const ApiToken = z
  .object({ id: Id, name: z.string(), token: z.string().describe('shown once'), createdAt: Timestamp })
  .openapi('ApiToken');
export type ApiToken = z.infer<typeof ApiToken>;

export const LoginRequest = z
  .strictObject({ email: z.string().min(1), password: z.string().min(1) })
  .openapi('LoginRequest');
export type LoginRequest = z.infer<typeof LoginRequest>;

export const Session = z
  .object({ user: User, organization: Organization, csrfToken: z.string() })
  .openapi('Session');
export type Session = z.infer<typeof Session>;

import { z, Id, Timestamp } from './common';

export const NodeStatus = z.enum(['online', 'offline', 'down']).describe('offline: silent for a few seconds; down: silent past the node-down timeout (default 15 s)');
export type NodeStatus = z.infer<typeof NodeStatus>;

export const NodeInstanceSummary = z.object({
  id: Id,
  clusterId: Id,
  clusterName: z.string(),
  organizationName: z.string().describe("the cluster's organization (a tenant's list holds only its own; the fleet view every organization's)"),
  port: z.number().int(),
  role: z.enum(['primary', 'replica']),
  state: z.string(),
  restarts: z.number().int().describe('times the agent restarted this engine after a crash'),
  memoryMb: z.number().int().describe('memory reserved for this instance'),
});

export const Node = z
  .object({
    id: Id,
    name: z.string(),
    address: z.string().describe('IP address the node binds engines to'),
    status: NodeStatus,
    draining: z.boolean().describe('taken out of placement; its instances are moving to other nodes'),
    capacity: z
      .object({ memoryMb: z.number().int(), usedMemoryMb: z.number().int() })
      .nullable()
      .describe("the node's size and memory in use by every organization; platform admins only (null for others)"),
    lastHeartbeatAt: Timestamp.nullable(),
    agentVersion: z.string().nullable(),
    credentialRevokedAt: Timestamp.nullable().describe("when the agent's credential was revoked (its requests are refused since); null while valid"),
    instances: z.array(NodeInstanceSummary).describe("fleet view: every organization's instances on the node; otherwise only the caller's"),
    createdAt: Timestamp,
  })
  .openapi('Node');
export type Node = z.infer<typeof Node>;

export const NodeList = z
  .object({
    scope: z.enum(['fleet', 'organization']).describe('fleet: every node (platform admins); organization: only nodes running instances of the caller\'s clusters'),
    items: z.array(Node),
  })
  .openapi('NodeList');
export type NodeList = z.infer<typeof NodeList>;

export const CreateJoinTokenRequest = z
  .strictObject({ ttlSeconds: z.number().int().min(60).max(7 * 24 * 3600).optional() })
  .openapi('CreateJoinTokenRequest');
export const JoinToken = z
  .object({
    token: z.string(),
    expiresAt: Timestamp,
    controlPlaneCaSha256: z.string().nullable()
      .describe("SHA-256 of the certificate an agent pins when the control plane serves HTTPS (STRATA_CA_SHA256 of the agent); null over plain HTTP"),
  })
  .openapi('JoinToken');

export const NodeCredentialRevoked = z
  .object({ id: Id, name: z.string(), credentialRevokedAt: Timestamp })
  .openapi('NodeCredentialRevoked');
export type NodeCredentialRevoked = z.infer<typeof NodeCredentialRevoked>;
export type JoinToken = z.infer<typeof JoinToken>;

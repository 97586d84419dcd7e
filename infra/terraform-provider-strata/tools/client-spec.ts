/**
 * The part of api/openapi.json the Terraform provider uses, as
 * OpenAPI 3.0 (oapi-codegen reads 3.0): only these operations, with stable
 * operationIds, and only the schemas they reference. Pure and deterministic:
 * the staleness test recomputes it and compares with the committed file.
 */
export const OPERATIONS: Record<string, string> = {
  'post /v1/clusters': 'CreateCluster',
  'get /v1/clusters': 'ListClusters',
  'get /v1/clusters/{id}': 'GetCluster',
  'patch /v1/clusters/{id}': 'UpdateCluster',
  'delete /v1/clusters/{id}': 'DeleteCluster',
  'get /v1/clusters/{id}/connection': 'GetConnection',
  'get /v1/clusters/{id}/topology': 'GetTopology',
  'post /v1/clusters/{id}/users': 'CreateDatabaseUser',
  'get /v1/clusters/{id}/users': 'ListDatabaseUsers',
  'delete /v1/clusters/{id}/users/{name}': 'DeleteDatabaseUser',
  'post /v1/clusters/{id}/client-certificates': 'CreateClientCertificate',
  'get /v1/clusters/{id}/client-certificates': 'ListClientCertificates',
  'post /v1/clusters/{id}/client-certificates/{certificateId}/revoke': 'RevokeClientCertificate',
  'post /v1/clusters/{id}/tls/rotate-ca': 'RotateCa',
  'get /v1/operations/{id}': 'GetOperation',
  'get /v1/nodes': 'ListNodes',
  'post /v1/tokens': 'CreateToken',
  'get /v1/tokens': 'ListTokens',
  'get /v1/tokens/{id}': 'GetToken',
  'delete /v1/tokens/{id}': 'RevokeToken',
  'post /v1/notification-channels': 'CreateNotificationChannel',
  'get /v1/notification-channels/{id}': 'GetNotificationChannel',
  'delete /v1/notification-channels/{id}': 'DeleteNotificationChannel',
  'post /v1/clusters/{id}/alert-rules': 'CreateClusterAlertRule',
  'post /v1/alert-rules': 'CreateAlertRule',
  'get /v1/alert-rules/{id}': 'GetAlertRule',
  'patch /v1/alert-rules/{id}': 'UpdateAlertRule',
  'delete /v1/alert-rules/{id}': 'DeleteAlertRule',
  'get /v1/clusters/{id}/backup-schedule': 'GetBackupSchedule',
  'put /v1/clusters/{id}/backup-schedule': 'SetBackupSchedule',
  'delete /v1/clusters/{id}/backup-schedule': 'DeleteBackupSchedule',
  'get /v1/backups/{id}': 'GetBackup',
};

/** 3.1 -> 3.0: `type: [T, "null"]` -> `nullable`, `const` -> one-value `enum`, numeric exclusive bounds. */
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

function downgrade(node: Json): Json {
  if (Array.isArray(node)) return node.map(downgrade);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = downgrade(v);
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t: string) => t !== 'null');
    if (types.length !== out.type.length) out.nullable = true;
    out.type = types.length === 1 ? types[0] : types;
  }
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(out[key]) && out[key].some((s: Json) => s.type === 'null')) {
      const rest = out[key].filter((s: Json) => s.type !== 'null');
      delete out[key];
      if (rest.length === 1) {
        if (rest[0].$ref) out.allOf = [rest[0]];
        else Object.assign(out, rest[0]);
      } else out[key] = rest;
      out.nullable = true;
    }
  }
  if ('const' in out) { out.enum = [out.const]; delete out.const; }
  if (typeof out.exclusiveMinimum === 'number') { out.minimum = out.exclusiveMinimum; out.exclusiveMinimum = true; }
  if (typeof out.exclusiveMaximum === 'number') { out.maximum = out.exclusiveMaximum; out.exclusiveMaximum = true; }
  // Patterns are for validation on the server; Go's regexp cannot compile some of them (e.g. \u escapes).
  delete out.pattern;
  return out;
}

function refsIn(node: Json, acc = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n: Json) => refsIn(n, acc));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') acc.add(v.replace('#/components/schemas/', ''));
      else refsIn(v, acc);
    }
  }
  return acc;
}

export function clientSpec(doc: Json): Json {
  const paths: Json = {};
  for (const [path, methods] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(methods)) {
      const id = OPERATIONS[`${method} ${path}`];
      if (!id) continue;
      (paths[path] ??= {})[method] = { ...op, operationId: id };
    }
  }
  // Schemas referenced, transitively.
  const keep = new Set<string>();
  let frontier = refsIn(paths);
  while (frontier.size) {
    const next = new Set<string>();
    for (const name of frontier) {
      if (keep.has(name)) continue;
      keep.add(name);
      for (const r of refsIn(doc.components.schemas[name])) next.add(r);
    }
    frontier = next;
  }
  const schemas = Object.fromEntries([...keep].sort().map((n) => [n, doc.components.schemas[n]]));
  return downgrade({
    openapi: '3.0.3',
    info: { ...doc.info, description: 'Generated from api/openapi.json by infra/terraform-provider-strata/tools/generate-client.ts; do not edit.' },
    paths,
    components: { schemas, securitySchemes: doc.components.securitySchemes },
  });
}

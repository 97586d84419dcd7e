import { CreateClusterRequest, LIMITS, type Durability, type EngineVersion, type EvictionPolicy, type Fencing, type FieldError, type TlsClientAuth, type TlsMode } from '@strata/api';
import { specProblem } from '@strata/engine/spec-rule';

/** What the form holds: numbers stay strings until validated, exactly as typed. */
export interface ClusterFormValues {
  name: string;
  shards: string;
  replicasPerShard: string;
  memoryMbPerShard: number;
  durability: Durability;
  evictionPolicy: EvictionPolicy;
  fencing: Fencing;
  engineVersion: EngineVersion;
  tls: TlsMode;
  tlsClientAuth: TlsClientAuth;
}

export type FormField = keyof ClusterFormValues;
export type FieldErrors = Partial<Record<FormField, string>>;

export const FORM_FIELDS: readonly FormField[] = ['name', 'shards', 'replicasPerShard', 'memoryMbPerShard', 'durability', 'evictionPolicy', 'fencing', 'engineVersion', 'tls', 'tlsClientAuth'];

export const INITIAL_VALUES: ClusterFormValues = {
  name: '',
  shards: '3',
  replicasPerShard: '1',
  memoryMbPerShard: LIMITS.memoryMbPerShard.default,
  durability: 'aof-everysec',
  evictionPolicy: 'noeviction',
  fencing: 'off',
  engineVersion: '7',
  tls: 'off',
  tlsClientAuth: 'none',
};

function toNumber(s: string): number {
  const t = s.trim();
  return t === '' ? Number.NaN : Number(t);
}

export function toRequestBody(v: ClusterFormValues): Record<string, unknown> {
  return {
    name: v.name.trim(),
    shards: toNumber(v.shards),
    replicasPerShard: toNumber(v.replicasPerShard),
    memoryMbPerShard: v.memoryMbPerShard,
    durability: v.durability,
    evictionPolicy: v.evictionPolicy,
    fencing: v.fencing,
    engineVersion: v.engineVersion,
    tls: v.tls,
    // Client certificates are a TLS setting: turning TLS off in the form drops them.
    tlsClientAuth: v.tls === 'required' ? v.tlsClientAuth : 'none',
  };
}

const RANGE_MESSAGES: Partial<Record<FormField, string>> = {
  shards: `Choose between ${LIMITS.shards.min} and ${LIMITS.shards.max} shards.`,
  replicasPerShard: `Choose between ${LIMITS.replicasPerShard.min} and ${LIMITS.replicasPerShard.max} replicas per shard.`,
  memoryMbPerShard: `Choose between ${LIMITS.memoryMbPerShard.min} MB and ${LIMITS.memoryMbPerShard.max} MB per shard.`,
};

const NUMERIC_FIELDS: readonly FormField[] = ['shards', 'replicasPerShard', 'memoryMbPerShard'];

function friendly(field: FormField, code: string, message: string, value: unknown): string {
  if (field === 'name') {
    if (typeof value === 'string' && value.length === 0) return 'Enter a name for the cluster.';
    if (code === 'too_small') return `Use at least ${LIMITS.name.min} characters.`;
    if (code === 'too_big') return `Use at most ${LIMITS.name.max} characters.`;
    if (code === 'invalid_format') return 'Use lowercase letters, digits and dashes; start with a letter and end with a letter or digit.';
    return message;
  }
  if (NUMERIC_FIELDS.includes(field)) {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'Enter a whole number.';
    return RANGE_MESSAGES[field] ?? message;
  }
  return message;
}

export type ValidationResult = { ok: true; body: CreateClusterRequest } | { ok: false; errors: FieldErrors };

/** Validates with the same zod schema the server uses, with friendlier messages. */
export function validateClusterForm(v: ClusterFormValues): ValidationResult {
  const body = toRequestBody(v);
  const parsed = CreateClusterRequest.safeParse(body);
  // The server's own rule for a spec that cannot run (fencing without replicas).
  const problem = parsed.success ? specProblem(parsed.data) : null;
  if (parsed.success && !problem) return { ok: true, body: parsed.data };
  const errors: FieldErrors = {};
  if (problem) errors[problem.field] = sentence(problem.reason);
  if (parsed.success) return { ok: false, errors };
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || !(FORM_FIELDS as readonly string[]).includes(field)) continue;
    const f = field as FormField;
    if (errors[f]) continue;
    errors[f] = friendly(f, issue.code, issue.message, body[f]);
  }
  return { ok: false, errors };
}

function sentence(s: string): string {
  const t = s.trim();
  return t ? t[0]!.toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.') : t;
}

/** Splits a server problem's field errors into per-field messages and the rest. */
export function mapServerErrors(errors: readonly FieldError[]): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = {};
  const other: string[] = [];
  for (const e of errors) {
    const head = e.field.split('.')[0] ?? '';
    if ((FORM_FIELDS as readonly string[]).includes(head) && !fields[head as FormField]) fields[head as FormField] = sentence(e.message);
    else other.push(e.field ? `${e.field}: ${e.message}` : e.message);
  }
  return { fields, other };
}

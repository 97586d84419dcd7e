import { z } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

extendZodWithOpenApi(z);

export { z };

export const Id = z.string().uuid();

/** C0 control characters (NUL, tab, newline, ESC, ...) and DEL. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters (NUL, tab, newline, ...)';

/** A UTF-16 surrogate without its partner: not Unicode text (PostgreSQL's jsonb refuses it). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const LONE_SURROGATE_MESSAGE = 'must be well-formed Unicode (no lone UTF-16 surrogate)';

/**
 * Every string a client sends goes through this: no control characters, so a
 * NUL byte never reaches PostgreSQL (which rejects it with a 500) and no
 * newline or escape sequence ends up in logs, names or the audit log; and no
 * lone surrogate, which PostgreSQL would store mangled (text) or refuse (jsonb).
 */
export const safeString = () =>
  z.string()
    .refine((s) => !CONTROL_CHARACTERS.test(s), { message: CONTROL_CHARACTERS_MESSAGE, abort: true })
    .refine((s) => !LONE_SURROGATE.test(s), { message: LONE_SURROGATE_MESSAGE, abort: true });

/** Control characters other than tab, newline and carriage return. */
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Free text a program reports (an engine's or worker's error message): like safeString, except
 * that tab, newline and carriage return are allowed, because multi-line error messages are
 * normal and refusing one would lose the report it came with.
 */
export const freeText = () =>
  z.string()
    .refine((s) => !CONTROL_EXCEPT_LINE_BREAKS.test(s), { message: 'must not contain control characters other than tab and line breaks', abort: true })
    .refine((s) => !LONE_SURROGATE.test(s), { message: LONE_SURROGATE_MESSAGE, abort: true });
export const Timestamp = safeString().describe('RFC 3339 timestamp');

/** Stable machine-readable error codes. Clients branch on these, never on `title`. */
export const ErrorCode = z.enum([
  'validation_failed',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'name_taken',
  'unplaceable',
  'invalid_state',
  'tls_off',
  'not_revocable',
  'csrf_failed',
  'invalid_credentials',
  'join_token_invalid',
  'payload_too_large',
  'request_timeout',
  'unsupported_media_type',
  'operation_in_progress',
  'does_not_fit',
  'insufficient_space',
  'node_busy',
  'would_lose_data',
  'backup_in_progress',
  'backup_engine_unsupported',
  'backup_not_completed',
  'backup_corrupted',
  'rdb_version_unsupported',
  'rdb_databases_unsupported',
  'backup_running',
  'backup_in_use',
  'storage_invalid',
  'storage_unavailable',
  'restore_memory_too_small',
  'import_unreachable',
  'import_not_redis',
  'import_auth_failed',
  'not_yet_supported',
  'engine_change_unsupported',
  'tls_switch_needs_valkey',
  'rate_limited',
  'too_many_streams',
  'sign_in_locked',
  'smtp_not_configured',
  'no_maintenance_window',
  'scan_in_progress',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({
  field: z.string().describe('Dotted path of the offending field, e.g. "shards"'),
  message: z.string(),
});
export type FieldError = z.infer<typeof FieldError>;

/** RFC 9457 problem details, with a stable `code`. */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    code: ErrorCode,
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(FieldError).optional(),
    operationId: Id.optional().describe('operation_in_progress: the operation that runs now'),
  })
  .openapi('Problem');
export type Problem = z.infer<typeof Problem>;

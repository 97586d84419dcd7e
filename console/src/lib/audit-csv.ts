import type { AuditEntry } from '@strata/api';

const HEADER = ['time', 'actor', 'actor_type', 'kind', 'summary', 'resource_type', 'resource_id', 'resource_name', 'dry_run', 'status', 'action', 'detail'];

/** One CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ is neutralised (spreadsheet formulas). */
function field(v: unknown): string {
  let s = v === null || v === undefined ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The audit entries as CSV (RFC 4180, CRLF line ends), one row per entry, a header first. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) => [
    e.at, e.actor.name, e.actor.type, e.kind, e.summary, e.resource.type, e.resource.id, e.resource.name, e.dryRun, e.status, e.action,
    Object.keys(e.detail).length ? JSON.stringify(e.detail) : '',
  ]);
  return [HEADER, ...rows].map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}

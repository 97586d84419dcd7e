import { describe, expect, it } from 'vitest';
import { OPERATION_TABLE } from './operation-table';
import { AUDIT_ACTIONS, auditActionOf, auditActionsOfKind, auditSummary } from './audit-actions';

describe('audit vocabulary', () => {
  it('names every change a signed-in principal can make (every non-GET user route of the table)', () => {
    const routes = Object.values(OPERATION_TABLE)
      .filter((o) => o.method !== 'get' && !o.path.startsWith('/v1/agent') && o.path !== '/v1/session')
      .map((o) => `${o.method.toUpperCase()} ${o.path.replace(/\{(\w+)\}/g, ':$1')}`);
    expect(routes.filter((r) => !AUDIT_ACTIONS[r])).toEqual([]);
  });
  it('reads like a sentence, marks dry runs, and groups kinds for filters', () => {
    expect(auditSummary('DELETE /v1/clusters/:id', 'orders-cache', false)).toBe('Deleted cluster orders-cache');
    expect(auditSummary('PATCH /v1/clusters/:id', 'orders-cache', true)).toBe('Changed cluster orders-cache (dry run: nothing changed)');
    expect(auditActionOf('SIGN-IN-FAILED').kind).toBe('session.sign-in-failed');
    expect(auditActionsOfKind('cluster.delete')).toEqual(['DELETE /v1/clusters/:id']);
    expect(auditActionsOfKind('session')).toEqual(['SIGN-IN', 'SIGN-IN-FAILED', 'SIGN-OUT']);
  });
});

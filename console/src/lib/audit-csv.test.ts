import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@strata/api';
import { auditCsv } from './audit-csv';

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: '1', at: '2026-11-26T10:00:00.000Z', actor: { type: 'user', id: 'u', name: 'ada@example.com' }, action: 'PATCH /v1/clusters/:id',
  kind: 'cluster.change', summary: 'Changed cluster orders (dry run: nothing changed)', resource: { type: 'cluster', id: 'c1', name: 'orders' },
  dryRun: true, targetId: 'c1', status: 200, detail: { shards: 4, note: 'a "quoted", value' }, ...over,
});

describe('auditCsv', () => {
  it('a header and one quoted-where-needed row per entry', () => {
    const csv = auditCsv([entry()]);
    const [head, row, end] = csv.split('\r\n');
    expect(head).toBe('time,actor,actor_type,kind,summary,resource_type,resource_id,resource_name,dry_run,status,action,detail');
    expect(row).toBe('2026-11-26T10:00:00.000Z,ada@example.com,user,cluster.change,Changed cluster orders (dry run: nothing changed),cluster,c1,orders,true,200,PATCH /v1/clusters/:id,"{""shards"":4,""note"":""a \\""quoted\\"", value""}"');
    expect(end).toBe('');
  });
  it('neutralises spreadsheet formulas in names', () => {
    expect(auditCsv([entry({ actor: { type: 'token', id: null, name: '=HYPERLINK("x")' } })]).split('\r\n')[1]).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

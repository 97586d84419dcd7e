import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { clientSpec, OPERATIONS } from '../tools/client-spec';

const read = (rel: string) => JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8'));

describe('Terraform provider Go client', () => {
  it('is generated from the current api/openapi.json (run `npm run generate:terraform-client` if this fails)', () => {
    const fresh = clientSpec(read('../../../api/openapi.json'));
    expect(read('../internal/client/openapi.json')).toEqual(JSON.parse(JSON.stringify(fresh)));
  });

  it('covers every operation the provider calls, as OpenAPI 3.0 without 3.1-only constructs', () => {
    const spec = clientSpec(read('../../../api/openapi.json'));
    const ids = Object.values(spec.paths).flatMap((m: any) => Object.values(m).map((op: any) => op.operationId));
    for (const needed of ['CreateCluster', 'GetCluster', 'DeleteCluster', 'GetConnection', 'GetOperation', 'ListNodes', 'CreateToken', 'GetToken', 'RevokeToken']) {
      expect(ids).toContain(needed);
    }
    expect(ids.every((id: string) => Object.values(OPERATIONS).includes(id))).toBe(true);
    const text = JSON.stringify(spec);
    expect(spec.openapi).toBe('3.0.3');
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toContain('"const"');
  });
});

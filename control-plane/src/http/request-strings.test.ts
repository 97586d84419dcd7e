import { describe, expect, it } from 'vitest';
import { OPERATION_TABLE, type OperationDef } from '@strata/api';
import { buildOpenApiDocument } from '@strata/api/openapi';
import { parseBody } from './validate';
import { AppError } from '../errors';

/**
 * "Every string field rejects control characters with a 400 that names the field": for every
 * operation's request body and query, every string the schema allows (nested objects, arrays,
 * union branches) is set to a value holding a control character, and the table's schema must
 * answer 400 naming exactly that dotted path. Strings are found in openapi.json, so a field added
 * later is covered without touching this test.
 */
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const deref = (s: Json): Json => (s?.$ref ? deref(doc.components.schemas[s.$ref.split('/').pop()]) : s);

/** Every way to reach a string inside `schema`: the path and a value holding the string there. */
function stringsIn(schema: Json, bad: string, path: string[] = [], depth = 0): { path: string[]; value: unknown }[] {
  const s = deref(schema);
  if (!s || depth > 8) return [];
  const branches = [...(s.oneOf ?? []), ...(s.anyOf ?? []), ...(s.allOf ?? [])];
  if (branches.length) return branches.flatMap((b: Json) => stringsIn(b, bad, path, depth + 1));
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string') && !s.enum && s.const === undefined) return [{ path, value: bad }];
  if (types.includes('array') && s.items) {
    return stringsIn(s.items, bad, [...path, '0'], depth + 1).map((x) => ({ path: x.path, value: [x.value] }));
  }
  if (types.includes('object') || s.properties) {
    // Discriminators and other fixed values are filled in so a union picks this branch.
    const fixed = Object.fromEntries(Object.entries<Json>(s.properties ?? {})
      .map(([k, p]) => [k, deref(p)] as const)
      .filter(([, p]) => p.const !== undefined || p.enum?.length === 1)
      .map(([k, p]) => [k, p.const ?? p.enum[0]]));
    return Object.entries<Json>(s.properties ?? {}).flatMap(([k, p]) =>
      stringsIn(p, bad, [...path, k], depth + 1).map((x) => ({ path: x.path, value: { ...fixed, [k]: x.value } })));
  }
  return [];
}

function requestStrings(bad: string) {
  const out: { label: string; schema: any; path: string; value: unknown }[] = [];
  for (const [name, def] of Object.entries(OPERATION_TABLE) as [string, OperationDef][]) {
    const op = doc.paths[def.path.replace(/\{(\w+)\}/g, '{$1}')]?.[def.method];
    const body = op?.requestBody?.content?.['application/json']?.schema;
    if (def.body && body) {
      for (const x of stringsIn(body, bad)) out.push({ label: `${name} body ${x.path.join('.')}`, schema: def.body, path: x.path.join('.'), value: x.value });
    }
    for (const p of (op?.parameters ?? []) as Json[]) {
      if (p.in !== 'query' || !def.query) continue;
      for (const x of stringsIn(p.schema, bad)) {
        out.push({ label: `${name} query ${[p.name, ...x.path].join('.')}`, schema: def.query, path: [p.name, ...x.path].join('.'), value: { [p.name]: x.value } });
      }
    }
  }
  return out;
}

const fieldsRejected = (schema: any, value: unknown): string[] => {
  try {
    parseBody(schema, value);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    return (err as AppError).errors?.map((e) => e.field) ?? [];
  }
};

describe('every string field of every request rejects control characters, naming the field', () => {
  const cases = requestStrings('bad\u0001value');

  it('finds the strings (agent protocol and benchmark workers included)', () => {
    const labels = cases.map((c) => c.label);
    expect(cases.length).toBeGreaterThan(40);
    for (const expected of [
      'registerAgent body agentVersion', 'reportAgentStatus body agentVersion', 'reportAgentStatus body instances.0.lastError',
      'completeTask body error', 'reportTaskProgress body detail', 'createCluster body name', 'createToken body name',
      'listAudit query before',
    ]) expect(labels).toContain(expected);
  });

  it.each(['\u0001', '\u001b', '\u007f', '\ud800'])('every field refuses %j', (ch) => {
    const accepted = requestStrings(`bad${ch}value`).filter((c) => !fieldsRejected(c.schema, c.value).includes(c.path)).map((c) => c.label);
    expect(accepted).toEqual([]);
  });

  it('the walker would notice a field that accepts anything (the test can fail)', async () => {
    const { z } = await import('zod');
    expect(fieldsRejected(z.strictObject({ a: z.string() }), { a: 'bad\u0001' })).toEqual([]);
  });
});

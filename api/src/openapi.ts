import { OpenAPIRegistry, OpenApiGeneratorV31, getRefId } from '@asteasolutions/zod-to-openapi';
import { z, Problem } from './common';
import type { Scope } from './auth';
import { OPERATION_TABLE, type OperationDef, type ResponseDef } from './operation-table';

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});
/** 429: the rate limits every user-facing operation has (docs/api.md, "Limits"). */
const tooMany = (also?: string) => ({
  ...problem(`Too many requests from this caller or address (code rate_limited)${also ? `; ${also}` : ''}. Retry-After says when to ask again.`),
  headers: { 'Retry-After': { description: 'Seconds until a new request can succeed', schema: { type: 'integer' as const, minimum: 1 } } },
});
const idParam = z.object({ id: z.string().uuid() });
const errors = {
  400: problem('Invalid request (code validation_failed)'),
  401: problem('Missing or invalid credentials'),
  403: problem('The role or token lacks the scope this operation needs (code forbidden)'),
  404: problem('Not found (also for resources of another organization)'),
};

/**
 * One server-sent event of a stream, as OpenAPI 3.1 tools read a `text/event-stream` schema (the
 * convention Schemathesis follows before 3.2's `itemSchema`): the fields of one event, `event` its
 * name and `data` the JSON payload (`contentMediaType`/`contentSchema`, pointing at the payload's
 * component). One branch per event name, so each name says which payload it carries.
 */
function sseEvent(r: OpenAPIRegistry, events: Record<string, z.ZodType>, ids: boolean) {
  const branches = Object.entries(events).map(([event, payload]) => {
    const refId = getRefId(payload);
    if (!refId) throw new Error(`SSE event ${event}: its data schema needs a refId (.openapi('Name'))`);
    r.register(refId, payload);
    return {
      type: 'object' as const,
      properties: {
        event: { type: 'string' as const, enum: [event] },
        data: { type: 'string' as const, contentMediaType: 'application/json', contentSchema: { $ref: `#/components/schemas/${refId}` }, description: `JSON: ${refId}` },
        id: { type: 'string' as const, description: ids ? 'event id' : 'the last event id seen (this stream sends none)' },
        retry: { type: 'integer' as const, minimum: 0, description: 'reconnection delay (ms)' },
      },
      required: ['event', 'data'],
    };
  });
  return branches.length === 1 ? branches[0]! : { oneOf: branches };
}

const response = (r: OpenAPIRegistry, d: ResponseDef) => ({
  description: d.description ?? 'OK',
  ...(d.headers ? { headers: d.headers } : {}),
  ...(d.events
    ? { content: { 'text/event-stream': { schema: sseEvent(r, d.events, !!d.eventIds) } } }
    : d.content
      ? { content: Object.fromEntries(Object.entries(d.content).map(([type, schema]) => [type, { schema }])) }
      : d.schema ? { content: { 'application/json': { schema: d.schema } } } : {}),
});

/** openapi.json: every operation of OPERATION_TABLE (the one route table), in its order. */
export function buildOpenApiDocument(): object {
  const r = new OpenAPIRegistry();
  r.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  /**
   * The scope an operation needs, as the bearer requirement's role list (OpenAPI 3.1).
   * `self`: any signed-in user, or a token with the admin scope (managing one's own tokens).
   */
  const scope = (s: Scope | 'self') => [{ bearer: [s] }];

  for (const [operationId, o] of Object.entries(OPERATION_TABLE) as [string, OperationDef][]) {
    const auth = o.auth ?? 'user';
    const hasId = o.path.includes('{id}');
    const query = o.queryDoc ?? o.query;
    const request = {
      ...(o.params ? { params: o.params } : hasId ? { params: idParam } : {}),
      ...(query ? { query: query as z.ZodObject } : {}),
      ...(o.body ? { body: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
      ...(o.rawBody ? { body: { required: true, description: o.rawBody.description, content: { [o.rawBody.mediaType]: { schema: { type: 'string' as const, format: 'binary' } } } } } : {}),
    };
    // Documented problems: the listed standard ones, or (by default) those the route table's checks can raise.
    const standard = o.errors
      ? Object.fromEntries(o.errors.map((s) => [s, errors[s]]))
      : {
        ...(o.body || o.query ? { 400: errors[400] } : {}),
        401: errors[401], 403: problem(o.scope === 'self' ? 'A token without the admin scope, or a scope beyond your role' : `Needs the ${o.scope} scope`),
        ...(hasId ? { 404: errors[404] } : {}),
      };
    // Agents' routes are not rate limited; every other operation can answer 429.
    const limited: Record<string, ReturnType<typeof tooMany>> = auth === 'node' || !o.path.startsWith('/v1/') ? {} : {
      429: tooMany(o.success.events ? 'or too_many_streams: the caller holds the most event streams allowed'
        : operationId === 'createSession' ? 'or sign_in_locked: too many wrong passwords for this email in a row' : undefined),
    };
    r.registerPath({
      method: o.method, path: o.path, summary: o.summary,
      ...(auth === 'user' ? { security: scope(o.scope!) } : auth === 'none' ? {} : { security: [{ bearer: [] }] }),
      ...(Object.keys(request).length ? { request } : {}),
      responses: {
        [o.success.status]: response(r, o.success),
        ...(o.also ? { [o.also.status]: response(r, o.also) } : {}),
        ...standard,
        ...limited,
        ...Object.fromEntries(Object.entries(o.problems ?? {}).map(([k, v]) => [k, problem(v)])),
      },
    });
  }

  return new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Strata API', version: '1.0.0', description: 'Managed Redis Cluster: clusters, operations, nodes.' },
    servers: [{ url: '/' }],
  });
}

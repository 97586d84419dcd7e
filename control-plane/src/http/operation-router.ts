import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import { OPERATION_TABLE, type OperationDef, type OperationName } from '@strata/api';
import { parseBody, parseUuid } from './validate';
import { requireScope } from '../auth/permissions';

type Op<N extends OperationName> = (typeof OPERATION_TABLE)[N];
type In<S> = S extends z.ZodType ? z.infer<S> : undefined;

/** What a handler gets: the parsed body and query, the `{id}` path parameter, and the request. */
export interface OperationInput<N extends OperationName> {
  body: In<Op<N> extends { body: infer B } ? B : undefined>;
  query: In<Op<N> extends { query: infer Q } ? Q : undefined>;
  id: string;
  req: Request;
  res: Response;
}
export type OperationResult<N extends OperationName> = z.infer<Op<N>['success']['schema']>;

/**
 * Mounts an operation of OPERATION_TABLE on `router` (mounted at `base`): the path, method and scope
 * come from the table; body and query are parsed with its schemas (400 naming the field); `{id}` must
 * be a UUID (404 otherwise); the handler's result is sent with the table's success status.
 */
export function mountOperation<N extends OperationName>(
  router: Router, base: string, name: N, handler: (input: OperationInput<N>) => Promise<OperationResult<N>>,
): void {
  const o = OPERATION_TABLE[name] as OperationDef;
  if (!o.path.startsWith(base)) throw new Error(`${name}: ${o.path} is not under ${base}`);
  const path = o.path.slice(base.length).replace(/\{(\w+)\}/g, ':$1') || '/';
  router[o.method](path, requireScope(o.scope), async (req, res) => {
    const input = {
      body: o.body ? parseBody(o.body, req.body) : undefined,
      query: o.query ? parseBody(o.query, req.query) : undefined,
      id: o.path.includes('{id}') ? parseUuid(req.params.id, name.replace(/^(get|list|create|update|revoke)/, '') || 'Resource') : '',
      req, res,
    } as OperationInput<N>;
    const out = await handler(input);
    if (o.success.status === 204) return void res.status(204).end();
    res.status(o.success.status).json(out);
  });
}

import type { Express, IRouter, Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { OPERATION_TABLE, type OperationDef, type OperationName } from '@strata/api';
import { parseBody, parseUuid } from './validate';
import { requireScope } from '../auth/permissions';
import { requirePlatformAdmin } from '../auth/auth.middleware';

type Op<N extends OperationName> = (typeof OPERATION_TABLE)[N];
type In<S> = S extends z.ZodType ? z.infer<S> : undefined;

/**
 * What a handler gets. `body` and `query` are parsed with the table's schemas when first read (a 400
 * naming the field), so a handler decides the order of its checks (e.g. 404 for the resource first);
 * `id` is the `{id}` path parameter as a UUID (404 otherwise), also checked when first read.
 */
export interface OperationInput<N extends OperationName> {
  readonly body: In<Op<N> extends { body: infer B } ? B : undefined>;
  readonly query: In<Op<N> extends { query: infer Q } ? Q : undefined>;
  readonly id: string;
  req: Request;
  res: Response;
}
export type OperationResult<N extends OperationName> = Op<N>['success'] extends { schema: infer S extends z.ZodType } ? z.infer<S> : void;

export interface MountOptions {
  /** Middleware after authentication and before the scope check. */
  before?: RequestHandler[];
}

/**
 * How the table's `auth` kinds authenticate: `user` (token or session, then the audit hook) and
 * `node` (the agent credential). `scrape` routes check their token in the handler; `none` is open.
 * Set once on the app by createApp; every mounted route looks its own up, so authentication runs
 * exactly once per request, for exactly the routes the table declares it for.
 */
export interface Authenticators {
  user: RequestHandler;
  node: RequestHandler;
}
type Guarded = keyof Authenticators;
const AUTHENTICATORS = 'strataAuthenticators';

export function useAuthenticators(app: Express, a: Authenticators): void {
  app.locals[AUTHENTICATORS] = a;
}

/** The middleware that authenticates one route's `auth` kind (read by route-list.ts). */
function authenticate(kind: Guarded): RequestHandler {
  const mw: RequestHandler = (req, res, next) => {
    const a = (req.app.locals[AUTHENTICATORS] as Authenticators | undefined)?.[kind];
    if (!a) throw new Error(`No ${kind} authenticator set on the app (useAuthenticators)`);
    return a(req, res, next);
  };
  return Object.assign(mw, { authenticates: kind });
}

/** The `auth` kind a middleware authenticates, if it is a route's authentication step. */
export const authenticatedKind = (handler: unknown): Guarded | undefined => (handler as { authenticates?: Guarded }).authenticates;

/** The operation a route was mounted from (read by route-table.test.ts). */
export const mountedOperation = (handler: unknown): OperationName | undefined => (handler as { operation?: OperationName }).operation;

function input<N extends OperationName>(name: N, o: OperationDef, req: Request, res: Response): OperationInput<N> {
  return {
    get body() { return (o.body ? parseBody(o.body, req.body) : undefined) as OperationInput<N>['body']; },
    get query() { return (o.query ? parseBody(o.query, req.query) : undefined) as OperationInput<N>['query']; },
    get id() { return o.path.includes('{id}') ? parseUuid(req.params.id, name.replace(/^(get|list|create|update|revoke)/, '') || 'Resource') : ''; },
    req, res,
  };
}

function mount(router: IRouter, base: string, name: OperationName, handler: RequestHandler, options: MountOptions): void {
  const o = OPERATION_TABLE[name] as OperationDef;
  if (!o.path.startsWith(base)) throw new Error(`${name}: ${o.path} is not under ${base}`);
  const path = o.path.slice(base.length).replace(/\{(\w+)\}/g, ':$1') || '/';
  const auth = o.auth ?? 'user';
  const checks = [
    ...(auth === 'user' || auth === 'node' ? [authenticate(auth)] : []),
    ...(options.before ?? []),
    ...(auth === 'user' ? [requireScope(o.scope ?? 'admin')] : []),
    ...(o.platformAdmin ? [requirePlatformAdmin] : []),
  ];
  router[o.method](path, ...checks, Object.assign(handler, { operation: name }));
}

/**
 * Mounts an operation of OPERATION_TABLE on `router` (mounted at `base`): the path, method, scope
 * and platform-admin check come from the table; the handler's result is sent as JSON with the
 * table's success status (or an empty 204).
 */
export function mountOperation<N extends OperationName>(
  router: IRouter, base: string, name: N, handler: (input: OperationInput<N>) => Promise<OperationResult<N>>, options: MountOptions = {},
): void {
  const o = OPERATION_TABLE[name] as OperationDef;
  mount(router, base, name, async (req, res) => {
    const out = await handler(input(name, o, req, res));
    if (o.success.status === 204) return void res.status(204).end();
    res.status(o.success.status).json(out);
  }, options);
}

/**
 * Like mountOperation, for operations whose handler writes the response itself: server-sent event
 * streams, text (Prometheus, CSV), or a status that depends on the request (a dry run's 200).
 */
export function mountRaw<N extends OperationName>(
  router: IRouter, base: string, name: N, handler: (input: OperationInput<N>) => Promise<void> | void, options: MountOptions = {},
): void {
  const o = OPERATION_TABLE[name] as OperationDef;
  mount(router, base, name, async (req, res) => {
    await handler(input(name, o, req, res));
  }, options);
}

/**
 * The typed Strata API client: openapi-fetch over the types openapi-typescript generates from
 * openapi.json (./openapi-types.ts), which itself derives from OPERATION_TABLE. Paths, methods,
 * parameters, bodies and responses are checked at compile time:
 *
 *   const api = createStrataClient({ baseUrl: 'http://127.0.0.1:8080', token });
 *   const { data, error, response } = await api.GET('/v1/clusters/{id}', { params: { path: { id } } });
 *
 * Used by the console's data layer, the integration and e2e tests and the CLIs in infra/local.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './openapi-types';

export type { paths as StrataPaths, components as StrataComponents };
export type StrataClient = Client<paths, 'application/json'>;

export interface StrataClientOptions extends ClientOptions {
  /** Sent as `Authorization: Bearer <token>` (API token, node credential or scrape token). */
  token?: string;
}

export function createStrataClient({ token, headers, ...options }: StrataClientOptions = {}): StrataClient {
  return createClient<paths, 'application/json'>({
    ...options,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}

/** A failed call's problem+json (or whatever the body was), with its HTTP status. */
export class StrataApiError extends Error {
  override readonly name = 'StrataApiError';
  constructor(readonly status: number, readonly problem: unknown) {
    const p = problem as { code?: string; detail?: string; title?: string } | undefined;
    super(`HTTP ${status}${p?.code ? ` ${p.code}` : ''}: ${p?.detail ?? p?.title ?? JSON.stringify(problem)}`);
  }

  /** The problem's stable `code`, if the body was problem+json. */
  get code(): string | undefined {
    return (this.problem as { code?: string } | undefined)?.code;
  }
}

/** The data of a successful call; a StrataApiError for any other status. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new StrataApiError(response.status, error);
  return data as T;
}

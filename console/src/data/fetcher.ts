/**
 * The only place the console talks HTTP. Every API operation file calls
 * `apiRequest`; components never fetch directly. Every failed call becomes
 * one typed error, `ApiError`, carrying the server's problem+json.
 */
import type { ErrorCode, FieldError, Problem, Session } from '@strata/api';

/** Client-side codes for failures that never reached a problem+json body. */
export type ClientErrorCode = 'network_error' | 'bad_response';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    readonly problem?: Problem,
  ) {
    super(message);
  }

  /** Field errors named by the server (`errors[].field`), e.g. "shards". */
  get fieldErrors(): FieldError[] {
    return this.problem?.errors ?? [];
  }

  /** A one-line, human message: detail if present, else the title. */
  get summary(): string {
    return this.problem?.detail ?? this.problem?.title ?? this.message;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

// The CSRF token lives in memory only; after a reload it is re-read from
// GET /v1/session (see session-query.ts).
let csrfToken: string | null = null;
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
}

function isProblem(v: unknown): v is Problem {
  return typeof v === 'object' && v !== null && 'status' in v && 'code' in v && 'title' in v;
}

async function send(method: Method, path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  try {
    return await fetch(path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: 'same-origin',
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'network_error', 'Could not reach the Strata API. Check your connection and try again.');
  }
}

async function toError(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  if (isProblem(body)) return new ApiError(res.status, body.code, body.detail ?? body.title, body);
  return new ApiError(res.status, 'bad_response', `Unexpected response from the API (HTTP ${res.status}).`);
}

export async function apiRequest<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  let res = await send(method, path, opts);
  if (res.status === 403 && method !== 'GET') {
    // A stale token (e.g. the session was renewed in another tab): re-read it once and retry.
    const err = await toError(res);
    if (err.code !== 'csrf_failed') throw err;
    const fresh = await send('GET', '/v1/session', {});
    if (!fresh.ok) throw err;
    setCsrfToken(((await fresh.json()) as Session).csrfToken);
    res = await send(method, path, opts);
  }
  if (!res.ok) throw await toError(res);
  if (res.status === 204) return undefined as T;
  try {
    return (await res.json()) as T;
  } catch {
    throw new ApiError(res.status, 'bad_response', 'The API returned a response that is not JSON.');
  }
}

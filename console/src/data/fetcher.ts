/**
 * The only place the console talks HTTP. Every API operation file calls the
 * typed client generated from openapi.json (`api.GET('/v1/clusters/{id}', ...)`,
 * see @strata/api/client) through `apiCall`; components never fetch directly.
 * Every failed call becomes one typed error, `ApiError`, carrying the server's
 * problem+json.
 */
import type { ErrorCode, FieldError, Problem, Session } from '@strata/api';
import { createStrataClient, type StrataClient } from '@strata/api/client';

/** Client-side codes for failures that never reached a problem+json body. */
export type ClientErrorCode = 'network_error' | 'bad_response';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    readonly problem?: Problem,
    /** From `Retry-After` (429): seconds until asking again can succeed. */
    readonly retryAfterSeconds?: number,
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

function isProblem(v: unknown): v is Problem {
  return typeof v === 'object' && v !== null && 'status' in v && 'code' in v && 'title' in v;
}

function problemError(status: number, body: unknown, retryAfterSeconds?: number): ApiError {
  if (isProblem(body)) return new ApiError(status, body.code, body.detail ?? body.title, body, retryAfterSeconds);
  return new ApiError(status, 'bad_response', `Unexpected response from the API (HTTP ${status}).`);
}

/** `Retry-After` in seconds (429), when the answer has one. */
function retryAfterOf(res: Response): number | undefined {
  const s = Number(res.headers.get('retry-after'));
  return Number.isFinite(s) && s > 0 ? s : undefined;
}

async function toError(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  return problemError(res.status, body, retryAfterOf(res));
}

/**
 * The client's fetch: adds the CSRF token to changes, turns a network failure into ApiError
 * `network_error`, and after a `csrf_failed` 403 (a stale token, e.g. the session was renewed in
 * another tab) re-reads the token once and retries.
 */
export function consoleFetch(baseUrl: string, fetchImpl: () => typeof fetch = () => fetch) {
  const send = async (request: Request): Promise<Response> => {
    if (request.method !== 'GET' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    try {
      return await fetchImpl()(request);
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e;
      throw new ApiError(0, 'network_error', 'Could not reach the Strata API. Check your connection and try again.');
    }
  };
  const checked = (res: Response): Response => {
    // E.g. the console's index.html from a proxy in front of the API.
    if (res.ok && res.status !== 204 && !/json/.test(res.headers.get('Content-Type') ?? '')) {
      throw new ApiError(res.status, 'bad_response', 'The API returned a response that is not JSON.');
    }
    return res;
  };
  return async (request: Request): Promise<Response> => {
    const retry = request.method !== 'GET' ? request.clone() : null;
    const res = await send(request);
    if (res.status !== 403 || !retry) return checked(res);
    const err = await toError(res.clone());
    if (err.code !== 'csrf_failed') return res;
    const fresh = await send(new Request(`${baseUrl}/v1/session`, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }));
    if (!fresh.ok) return res;
    setCsrfToken(((await fresh.json()) as Session).csrfToken);
    return checked(await send(retry));
  };
}

/** A typed client for `baseUrl` (the page's own origin in the browser). */
export function createConsoleApi(baseUrl: string, fetchImpl?: () => typeof fetch): StrataClient {
  return createStrataClient({
    baseUrl,
    credentials: 'same-origin',
    headers: { Accept: 'application/json, application/problem+json' },
    fetch: consoleFetch(baseUrl, fetchImpl),
  });
}

/** The console's API client: same origin, session cookie. */
export const api: StrataClient = createConsoleApi(globalThis.location?.origin ?? '');

/** The data of a call of `api`, or an ApiError (problem+json, network failure, or a body that is not JSON). */
export async function apiCall<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (e) {
    if (e instanceof SyntaxError) throw new ApiError(0, 'bad_response', 'The API returned a response that is not JSON.');
    throw e;
  }
  const { data, error, response } = result;
  if (!response.ok) throw problemError(response.status, error, retryAfterOf(response));
  return data as T;
}

/**
 * Sends a file as the raw body of a POST (application/octet-stream), reporting the bytes sent so
 * far: fetch cannot follow an upload's progress, XMLHttpRequest can. The answer is the JSON body,
 * or an ApiError as with `apiCall`.
 */
export function uploadFile<T>(path: string, file: Blob, onProgress?: (sent: number, total: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json, application/problem+json');
    if (csrfToken) xhr.setRequestHeader('X-CSRF-Token', csrfToken);
    xhr.upload.onprogress = (e) => onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body !== undefined) resolve(body as T);
      else reject(problemError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, 'network_error', 'Could not reach the Strata API. Check your connection and try again.'));
    xhr.send(file);
  });
}

import { describe, expect, it } from 'vitest';
import { ApiError, apiCall, createConsoleApi, setCsrfToken } from './fetcher';

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': type } });

/** A fake server: answers each request with the next response, and records what was sent. */
function fakeServer(...responses: (Response | Error)[]) {
  const seen: { method: string; url: string; csrf: string | null; body: string }[] = [];
  const fetchImpl = (async (input: Request) => {
    seen.push({ method: input.method, url: input.url, csrf: input.headers.get('X-CSRF-Token'), body: await input.clone().text() });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    if (next instanceof Error) throw next;
    return next;
  }) as unknown as typeof fetch;
  return { api: createConsoleApi('http://console.test', () => fetchImpl), seen };
}

const problem = { type: 'about:blank', title: 'Name taken', status: 409, code: 'name_taken', detail: 'A cluster named "a" exists.', errors: [{ field: 'name', message: 'taken' }] };

describe('the console data layer over the generated client', () => {
  it('calls the typed path with its parameters and returns the data', async () => {
    const { api, seen } = fakeServer(json(200, { items: [] }));
    await expect(apiCall(api.GET('/v1/clusters/{id}/events', { params: { path: { id: 'c-1' }, query: { limit: 50 } } }))).resolves.toEqual({ items: [] });
    expect(seen[0]).toMatchObject({ method: 'GET', url: 'http://console.test/v1/clusters/c-1/events?limit=50' });
  });

  it('turns problem+json into an ApiError with its code, summary and field errors', async () => {
    const { api } = fakeServer(json(409, problem, 'application/problem+json'));
    const err = await apiCall(api.POST('/v1/clusters', { body: { name: 'a', shards: 1, replicasPerShard: 0 } as never })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'name_taken', summary: 'A cluster named "a" exists.', fieldErrors: [{ field: 'name', message: 'taken' }] });
  });

  it('a failure without problem+json is bad_response; a network failure is network_error', async () => {
    const { api } = fakeServer(new Response('<html>bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }), new TypeError('fetch failed'));
    await expect(apiCall(api.GET('/v1/clusters'))).rejects.toMatchObject({ status: 502, code: 'bad_response' });
    await expect(apiCall(api.GET('/v1/clusters'))).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('a successful answer that is not JSON (e.g. the SPA page) is bad_response', async () => {
    const { api } = fakeServer(new Response('<!doctype html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    await expect(apiCall(api.GET('/v1/clusters'))).rejects.toMatchObject({ status: 200, code: 'bad_response' });
  });

  it('204 resolves to undefined; changes carry the CSRF token', async () => {
    setCsrfToken('t-1');
    const { api, seen } = fakeServer(new Response(null, { status: 204 }));
    await expect(apiCall(api.DELETE('/v1/session'))).resolves.toBeUndefined();
    expect(seen[0]!.csrf).toBe('t-1');
    setCsrfToken(null);
  });

  it('after csrf_failed it re-reads the token once and retries the same request', async () => {
    setCsrfToken('stale');
    const csrf = { type: 'about:blank', title: 'Forbidden', status: 403, code: 'csrf_failed', detail: 'CSRF token missing or wrong.' };
    const { api, seen } = fakeServer(
      json(403, csrf, 'application/problem+json'),
      json(200, { csrfToken: 'fresh', user: {}, organization: {}, scopes: [] }),
      json(202, { cluster: { id: 'c' }, operation: { id: 'o' } }),
    );
    const out = await apiCall(api.POST('/v1/clusters', { body: { name: 'b', shards: 1, replicasPerShard: 0 } as never }));
    expect(out).toMatchObject({ cluster: { id: 'c' } });
    expect(seen.map((s) => [s.method, new URL(s.url).pathname, s.csrf])).toEqual([
      ['POST', '/v1/clusters', 'stale'], ['GET', '/v1/session', null], ['POST', '/v1/clusters', 'fresh'],
    ]);
    expect(JSON.parse(seen[2]!.body)).toEqual({ name: 'b', shards: 1, replicasPerShard: 0 });
    setCsrfToken(null);
  });

  it('another 403 is the error, without a retry', async () => {
    const { api, seen } = fakeServer(json(403, { ...problem, status: 403, code: 'forbidden', detail: 'This needs the clusters:write scope.' }, 'application/problem+json'));
    await expect(apiCall(api.DELETE('/v1/clusters/{id}', { params: { path: { id: 'x' } } }))).rejects.toMatchObject({ code: 'forbidden' });
    expect(seen).toHaveLength(1);
  });
});

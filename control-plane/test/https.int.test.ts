/**
 * HTTPS control plane: agents join over TLS by pinning the control plane's CA (the join token's
 * fingerprint), everything then runs over verified TLS (a cluster becomes ready and serves), plain
 * HTTP gets nothing, the session cookie is Secure, and a revoked agent credential is refused.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import pino from 'pino';
import { controlPlaneTrust, PINNED_CA_FILE } from '@strata/agent/control-plane-trust';
import { X509Certificate } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster, JoinToken, NodeCredentialRevoked, NodeList } from '@strata/api';
import { makeTestCertificates, type Stack, type TestCertificates } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { clusterFromUri } from './helpers/redis-client';

let stack: Stack;
let cleanup: () => Promise<void>;
let certs: TestCertificates;
const certDir = mkdtempSync(path.join(os.tmpdir(), 'strata-certs-'));

beforeAll(async () => {
  certs = makeTestCertificates(certDir);
  ({ stack, cleanup } = await testStack('127.0.59', { nodes: 2, extraEnv: { STRATA_TLS_CERT: certs.certFile, STRATA_TLS_KEY: certs.keyFile } }));
});
afterAll(async () => {
  await cleanup?.();
  rmSync(certDir, { recursive: true, force: true });
});

/** A call over HTTPS that verifies the control plane against the test CA. */
async function call<T>(method: string, p: string, body?: unknown, token = stack.adminToken): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await stack.tls!.fetch(`${stack.url}${p}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

describe('HTTPS control plane', () => {
  it('serves HTTPS only, and join tokens carry the fingerprint agents pin', async () => {
    expect(stack.url).toMatch(/^https:\/\//);
    const join = await call<JoinToken>('POST', '/v1/nodes/join-tokens', {});
    expect(join.status).toBe(201);
    expect(join.body.controlPlaneCaSha256).toBe(certs.caSha256);
    // Plain HTTP on the same port gets no API answer.
    const plain = await new Promise<string>((resolve) => {
      const req = http.get(stack.url.replace('https:', 'http:') + '/healthz', (res) => resolve(`status ${res.statusCode}`));
      req.on('error', (err) => resolve(`error ${err.message}`));
      req.setTimeout(3000, () => req.destroy(new Error('timeout')));
    });
    expect(plain).not.toMatch(/status 200/);
    // Without the CA, the certificate is not trusted.
    await expect(fetch(`${stack.url}/healthz`)).rejects.toThrow();
  });

  it('an agent given the wrong fingerprint refuses the control plane before sending anything', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'strata-pin-'));
    const log = pino({ level: 'silent' });
    try {
      const wrong = 'ab'.repeat(32);
      await expect(controlPlaneTrust({ controlPlaneUrl: stack.url, dataDir, caSha256: wrong, log }))
        .rejects.toThrow(new RegExp(`presented no certificate with SHA-256 ${wrong} \\(it presented [0-9a-f]{64}, ${certs.caSha256}\\)`));
      expect(existsSync(path.join(dataDir, PINNED_CA_FILE))).toBe(false);
      const pem = await controlPlaneTrust({ controlPlaneUrl: stack.url, dataDir, caSha256: certs.caSha256, log });
      expect(pem).toBe(readFileSync(certs.caFile, 'utf8').replace(/\r/g, ''));
      expect(readFileSync(path.join(dataDir, PINNED_CA_FILE), 'utf8')).toBe(pem);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('agents pinned the CA at their join and run a cluster over verified TLS', async () => {
    for (const a of stack.agents) {
      const pinned = new X509Certificate(readFileSync(path.join(a.dir, 'control-plane-ca.pem')));
      expect(pinned.fingerprint256.replace(/:/g, '').toLowerCase()).toBe(certs.caSha256);
    }
    const created = await call<{ cluster: Cluster }>('POST', '/v1/clusters', { name: 'over-tls', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32 });
    expect(created.status).toBe(202);
    const id = created.body.cluster.id;
    await expect.poll(async () => (await call<Cluster>('GET', `/v1/clusters/${id}`)).body.status.phase, { timeout: 60_000, interval: 250 }).toBe('ready');
    const conn = await call<{ uri: string }>('GET', `/v1/clusters/${id}/connection`);
    const client = clusterFromUri(conn.body.uri);
    try {
      await client.set('k', 'v');
      expect(await client.get('k')).toBe('v');
    } finally {
      client.disconnect();
    }
  });

  it('sets a Secure session cookie', async () => {
    const res = await stack.tls!.fetch(`${stack.url}/v1/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: stack.adminEmail, password: stack.adminPassword }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  });

  it('refuses a revoked agent credential at once, and the node goes silent', async () => {
    const nodes = await call<NodeList>('GET', '/v1/nodes');
    const victim = nodes.body.items.find((n) => n.name === stack.agents[1]!.name)!;
    const credential = (JSON.parse(readFileSync(path.join(stack.agents[1]!.dir, 'agent.json'), 'utf8')) as { credential: string }).credential;
    const asAgent = () => call('GET', '/v1/agent/endpoints', undefined, credential);
    expect((await asAgent()).status).toBe(200);
    const revoked = await call<NodeCredentialRevoked>('POST', `/v1/nodes/${victim.id}/revoke-credential`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.credentialRevokedAt).toBeTruthy();
    const refused = await asAgent();
    expect(refused.status).toBe(401);
    expect((refused.body as { code: string }).code).toBe('unauthorized');
    const after = await call<NodeList>('GET', '/v1/nodes');
    expect(after.body.items.find((n) => n.id === victim.id)!.credentialRevokedAt).toBe(revoked.body.credentialRevokedAt);
    // Its reports are refused too: it goes offline while the other node stays online.
    await expect.poll(async () => (await call<NodeList>('GET', '/v1/nodes')).body.items.find((n) => n.id === victim.id)!.status, { timeout: 15_000, interval: 500 }).not.toBe('online');
    expect((await call<NodeList>('GET', '/v1/nodes')).body.items.find((n) => n.name === stack.agents[0]!.name)!.status).toBe('online');
    // Unknown node: 404.
    expect((await call('POST', '/v1/nodes/00000000-0000-4000-8000-000000000000/revoke-credential')).status).toBe(404);
  });
});

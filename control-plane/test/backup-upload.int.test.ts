/**
 * RDB uploads on a real control plane and PostgreSQL (no agents: an upload
 * streams into the control plane's local storage) and imports' first check:
 * an upload is bounded by idleness, not by its total duration (a body that
 * trickles for longer than the request timeout is stored; one that stops
 * sending is ended with 408 and leaves nothing), while every other request
 * keeps the total timeout; a file saved by a real redis-server with keys in
 * database 3 (beside database 0, or only there) is refused with 422 naming
 * the databases, and so is an import of that server. Timeouts of seconds.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { BackupList, BackupResponse, Problem } from '@strata/api';
import { loopbackAddress, type Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';

const REQUEST_TIMEOUT_MS = 2000;
const IDLE_MS = 1200;
let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
const host = loopbackAddress('127.0.137.201');
const srcDir = mkdtempSync(path.join(os.tmpdir(), 'strata-upload-db-'));
let source: ReturnType<typeof spawn> | undefined;
let src: Redis;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.137', {
    nodes: 0, extraEnv: { STRATA_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), STRATA_BACKUP_UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS) },
  }));
  source = spawn('redis-server', ['--bind', host, '--port', '6393', '--save', '', '--appendonly', 'no', '--dir', srcDir], { stdio: 'ignore' });
  src = await api.pollUntil(async () => {
    const c = new Redis({ host, port: 6393, lazyConnect: true, retryStrategy: () => null });
    c.on('error', () => {});
    return c.connect().then(() => c, () => { c.disconnect(); return undefined; });
  }, 10_000, () => 'the source redis-server did not start');
});
afterAll(async () => {
  src?.disconnect();
  if (source && source.exitCode === null) {
    source.kill('SIGKILL');
    await new Promise((r) => source!.once('exit', r));
  }
  rmSync(srcDir, { recursive: true, force: true });
  await cleanup?.();
});

/** The file the source saves now. */
async function saved(): Promise<Buffer> {
  expect(await src.call('SAVE')).toBe('OK');
  return readFileSync(path.join(srcDir, 'dump.rdb'));
}

/** A POST sending `parts` with `gapMs` between them (Content-Length declared: the whole file's), then ending or going silent. */
function slowPost(p: string, contentType: string, total: number, parts: Buffer[], gapMs: number, end = true): Promise<{ status: number; body: Problem & Partial<BackupResponse>; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(`${stack.url}${p}`), {
      method: 'POST', headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': contentType, 'content-length': String(total) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    void (async () => {
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, gapMs));
        req.write(part);
      }
      if (end) req.end();
    })();
  });
}

/**
 * A POST over a plain socket by a client that reads nothing before it has sent its whole body (as blocking HTTP
 * clients do): `total` bytes as fast as the socket takes them, or with `stallAfter` that many and then silence.
 * Resolves with the raw answer read afterwards and when the server closed the connection (ms after the answer);
 * rejects when the connection was reset while the body was sent.
 */
function rawPost(p: string, contentType: string, total: number, stallAfter?: number): Promise<{ status: number; headers: string; body: Problem; closedAfterMs: number | null }> {
  const url = new URL(`${stack.url}${p}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    let answeredAt = 0;
    let closedAt: number | null = null;
    let gaveUp = false;
    socket.on('error', reject);
    const read = () => {
      socket.on('data', (c: Buffer) => {
        chunks.push(c);
        answeredAt ||= performance.now();
        // Without a stall the whole answer is all this client waits for.
        const text = Buffer.concat(chunks).toString('utf8');
        const length = /content-length: (\d+)/i.exec(text)?.[1];
        if (stallAfter === undefined && length && text.length >= text.indexOf('\r\n\r\n') + 4 + Number(length)) {
          gaveUp = true;
          socket.destroy();
        }
      });
      const settle = () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
        resolve({ status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body), closedAfterMs: closedAt === null ? null : closedAt - answeredAt });
      };
      socket.on('close', () => { if (!gaveUp) closedAt = performance.now(); settle(); });
      // A connection the server keeps open: the answer as it stands then.
      setTimeout(() => { gaveUp = true; socket.destroy(); }, stallAfter === undefined ? 5000 : IDLE_MS + 5000).unref();
    };
    socket.write(`POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${stack.adminToken}\r\n`
      + `Content-Type: ${contentType}\r\nContent-Length: ${total}\r\n\r\n`);
    const chunk = Buffer.alloc(256 * 1024, 7);
    const goal = stallAfter ?? total;
    let sent = 0;
    const pump = () => {
      while (sent < goal) {
        const n = Math.min(chunk.length, goal - sent);
        sent += n;
        if (!socket.write(chunk.subarray(0, n))) return void socket.once('drain', pump);
      }
      read();
    };
    pump();
  });
}

const slices = (b: Buffer, n: number) => Array.from({ length: n }, (_, i) => b.subarray(Math.floor((i * b.length) / n), Math.floor(((i + 1) * b.length) / n)));
const uploads = async () => (await api.call<BackupList>('GET', '/v1/backups?trigger=upload')).body.items;
const storageDir = () => path.join(stack.dir, 'backups');
const objects = () => (existsSync(storageDir()) ? readdirSync(storageDir()).sort() : []);

describe('an RDB upload', () => {
  it('is not cut while bytes keep flowing, however long it takes; one that stops sending ends with 408 and leaves nothing; other requests keep the total timeout', async () => {
    for (let i = 0; i < 500; i++) await src.set(`k:${i}`, `value ${i}`);
    const rdb = await saved();
    const before = objects();

    // 8 parts 400 ms apart: 2.8 s in all, longer than the 2 s request timeout; never idle for 1.2 s.
    const slow = await slowPost('/v1/backups/upload?name=slow', 'application/octet-stream', rdb.length, slices(rdb, 8), 400);
    expect(slow.status, JSON.stringify(slow.body)).toBe(201);
    expect(slow.ms).toBeGreaterThan(REQUEST_TIMEOUT_MS);
    expect(slow.body.backup).toMatchObject({ status: 'completed', manifest: { shards: [{ keys: 500, bytes: rdb.length }] } });

    // Half the file, then silence: ended once no byte came for the idle timeout, with nothing kept.
    const silent = await slowPost('/v1/backups/upload?name=silent', 'application/octet-stream', rdb.length, [rdb.subarray(0, rdb.length >> 1)], 0, false);
    expect(silent.status, JSON.stringify(silent.body)).toBe(408);
    expect(silent.body).toMatchObject({ code: 'request_timeout', errors: [{ field: 'body', message: expect.stringMatching(/no byte of the file arrived for 1.2 s/) }] });
    expect(silent.ms).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(silent.ms).toBeLessThan(IDLE_MS + 5000);
    await api.pollUntil(async () => ((await uploads()).map((b) => b.clusterName).join() === 'slow' ? true : undefined), 10_000, () => 'the silent upload was kept');
    expect(objects()).toEqual([...before, slow.body.backup!.id].sort());

    // Any other request must arrive within the request timeout: a JSON body sent in two halves 3 s apart is cut at 2 s.
    const body = Buffer.from(JSON.stringify({ name: 'late', shards: 1, replicasPerShard: 0, memoryMbPerShard: 64 }));
    const late = await slowPost('/v1/clusters', 'application/json', body.length, slices(body, 2), 3000);
    expect(late.status, JSON.stringify(late.body)).toBe(408);
    expect(late.body.code).toBe('request_timeout');
    expect(late.ms).toBeLessThan(3000);
  }, 60_000);

  it('refuses a file with keys in database 3, beside database 0 or alone, naming the databases, and an import of that server', async () => {
    const before = objects();
    const uploaded = (await uploads()).length;
    await src.select(3);
    for (let i = 0; i < 20; i++) await src.set(`other:${i}`, `v${i}`);
    await src.select(0);
    const both = await saved();
    const r1 = await slowPost('/v1/backups/upload', 'application/octet-stream', both.length, [both], 0);
    expect(r1.status, JSON.stringify(r1.body)).toBe(422);
    expect(r1.body).toMatchObject({ code: 'rdb_databases_unsupported', errors: [{ field: 'body', message: expect.stringMatching(/keys in database 0 \(500 keys\), database 3 \(20 keys\); a cluster has database 0 only/) }] });

    const imported = await api.call<Problem>('POST', '/v1/backups/import', { url: `redis://${host}:6393` });
    expect(imported.status).toBe(422);
    expect(imported.body).toMatchObject({ code: 'rdb_databases_unsupported', errors: [{ field: 'url', message: expect.stringMatching(/the source has keys in database 0 \(500 keys\), database 3 \(20 keys\)/) }] });

    await src.flushdb();
    const only3 = await saved();
    const r2 = await slowPost('/v1/backups/upload', 'application/octet-stream', only3.length, [only3], 0);
    expect(r2.status, JSON.stringify(r2.body)).toBe(422);
    expect(r2.body.errors![0]!.message).toMatch(/keys in database 3 \(20 keys\); a cluster/);
    await api.pollUntil(async () => ((await uploads()).length === uploaded ? true : undefined), 10_000, () => 'a refused upload was kept');
    expect(objects()).toEqual(before);
  }, 60_000);

  it('answers a wrong Content-Type with 415 problem+json that a client sending its whole body first reads, and stops reading a body that stalls', async () => {
    const before = (await uploads()).length;
    // 48 MB: far more than the socket buffers hold, so most of it is still being sent when the answer is written.
    const big = await rawPost('/v1/backups/upload?name=wrong-type', 'text/plain', 48 * 1024 * 1024);
    expect(big.status, JSON.stringify(big.body)).toBe(415);
    expect(big.headers).toMatch(/content-type: application\/problem\+json/);
    expect(big.body).toMatchObject({ code: 'unsupported_media_type', status: 415 });

    // A body that stops coming after the answer: the connection is closed once it is idle for the upload idle timeout.
    const stalled = await rawPost('/v1/backups/upload?name=wrong-type', 'text/plain', 1024 * 1024 * 1024, 64 * 1024);
    expect(stalled.status, JSON.stringify(stalled.body)).toBe(415);
    expect(stalled.body.code).toBe('unsupported_media_type');
    expect(stalled.closedAfterMs, 'the server kept the connection open for a body that never came').not.toBeNull();
    expect(stalled.closedAfterMs!).toBeLessThan(IDLE_MS + 3000);
    expect((await uploads()).length).toBe(before);
  }, 60_000);
});

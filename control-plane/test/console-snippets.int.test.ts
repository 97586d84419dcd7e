/**
 * The console's connection snippets are programs that run as shown: each is
 * written byte for byte to the file its first line names (or run as a shell
 * line) with the real connection details of a live 3x1 cluster, its install
 * line is run as written, and it must print the value it wrote and exit on
 * its own (a client that leaves sockets open hangs past the timeout). All six
 * clients run: redis-cli, ioredis, node-redis, redis-py, go-redis and Jedis;
 * the keys they wrote are then read back through an independent client.
 * The cluster requires TLS and client certificates: every snippet speaks
 * TLS, verifies the instances against the cluster's CA and presents a
 * client certificate issued through the API, saved as the snippets say
 * (ca.pem, client.crt, client.key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClientCertificateList, ClientCertificateWithKey, Connection } from '@strata/api';
import { CA_FILE, CLIENT_CERT_FILE, CLIENT_KEY_FILE, JEDIS_DEPENDENCY, buildSnippet } from '@strata/console/snippets';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { Cluster } from 'ioredis';

let api: TestApi;
let cleanup: () => Promise<void>;
let conn: Connection;
let clusterUri: string;
let work: string;
let client: ClientCertificateWithKey;

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.71', { nodes: 3 }));
  const r = await api.createCluster({ name: 'snippets', shards: 3, replicasPerShard: 1, memoryMbPerShard: 32, tls: 'required', tlsClientAuth: 'required' });
  expect(r.status).toBe(202);
  await api.waitForPhase(r.body.cluster.id, 'ready');
  await api.waitForHealthy(r.body.cluster.id);
  conn = (await api.connection(r.body.cluster.id)).body;
  clusterUri = conn.uri;
  expect(conn.uri.startsWith('rediss://')).toBe(true);
  const issued = await api.call<ClientCertificateWithKey>('POST', `/v1/clusters/${r.body.cluster.id}/client-certificates`, { name: 'snippets' });
  expect(issued.status).toBe(201);
  client = issued.body;
  // Usable once every instance trusts its issuer (a pass of the reconciler away).
  await api.pollUntil(async () => {
    const list = (await api.call<ClientCertificateList>('GET', `/v1/clusters/${r.body.cluster.id}/client-certificates`)).body;
    return list.items.find((c) => c.id === issued.body.clientCertificate.id)?.applied ? list : undefined;
  }, 20_000, () => 'the client certificate was not trusted by every instance');
  work = mkdtempSync(path.join(os.tmpdir(), 'strata-snippets-'));
  writeCredentials(work);
}, 180_000);

/** The cluster's CA and the client certificate and key, under the names the snippets read. */
function writeCredentials(dir: string): void {
  writeFileSync(path.join(dir, CA_FILE), conn.caCertificate!);
  writeFileSync(path.join(dir, CLIENT_CERT_FILE), client.certificate);
  writeFileSync(path.join(dir, CLIENT_KEY_FILE), client.privateKey, { mode: 0o600 });
}

/** A folder for one client's program, holding the credentials as the snippets expect them. */
function folder(name: string): string {
  const dir = mkdtempSync(path.join(work, `${name}-`));
  writeCredentials(dir);
  return dir;
}
afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  await cleanup?.();
});

/** The snippet with its greeting key made unique, so each client's write is its own. */
function snippet(client: Parameters<typeof buildSnippet>[0], key: string): string {
  const s = buildSnippet(client, conn, true);
  expect(s).toContain('greeting');
  return s.replaceAll('greeting', key);
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeout = 240_000) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

async function readBack(key: string): Promise<string | null> {
  const u = new URL(clusterUri);
  const reader = new Cluster([{ host: u.hostname, port: Number(u.port) }], {
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), tls: { ca: conn.caCertificate!, cert: client.certificate, key: client.privateKey } },
  });
  try {
    return await reader.get(key);
  } finally {
    reader.disconnect();
  }
}

describe('connection snippets run against a live cluster', () => {
  it('redis-cli: both command lines, in cluster mode', async () => {
    const lines = buildSnippet('redis-cli', conn, true).split('\n').filter((l) => l.startsWith('redis-cli '));
    expect(lines).toHaveLength(2);
    for (const [i, line] of lines.entries()) {
      // The line as shown, with a command appended (the interactive prompt otherwise).
      const key = `snippet:cli:${i}`;
      expect(run('bash', ['-c', `${line} SET ${key} hello-${i}`], work).trim()).toBe('OK');
      expect(run('bash', ['-c', `${line} GET ${key}`], work).trim()).toBe(`hello-${i}`);
      expect(await readBack(key)).toBe(`hello-${i}`);
    }
  });

  for (const [client, pkg] of [['ioredis', 'ioredis'], ['node-redis', 'redis']] as const) {
    it(`${client}: npm install as shown, saved as main.mjs, run with node, exits by itself`, async () => {
      const dir = folder(client);
      const key = `snippet:${client}`;
      const code = snippet(client, key);
      const first = /^\/\/ (npm install (\S+))  \(save as main\.mjs, run: node main\.mjs\)$/.exec(code.split('\n')[0]!);
      expect(first?.[2]).toBe(pkg);
      // An empty package.json keeps npm in this folder (it otherwise looks upward for one).
      writeFileSync(path.join(dir, 'package.json'), '{}');
      run('bash', ['-c', first![1]!], dir, { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
      writeFileSync(path.join(dir, 'main.mjs'), code);
      // execFileSync's timeout kills a program that never exits.
      expect(run(process.execPath, ['main.mjs'], dir, {}, 60_000).trim()).toBe('hello');
      expect(await readBack(key)).toBe('hello');
    }, 180_000);
  }

  it('redis-py: saved as main.py and run with python3', async () => {
    const dir = folder('redis-py');
    const code = snippet('redis-py', 'snippet:redis-py');
    expect(code.split('\n')[0]).toBe('# pip install redis');
    writeFileSync(path.join(dir, 'main.py'), code);
    expect(run('python3', ['main.py'], dir).trim()).toBe('hello');
    expect(await readBack('snippet:redis-py')).toBe('hello');
  });

  it('go-redis: the install line, then go run', async () => {
    const dir = folder('go-redis');
    const code = snippet('go-redis', 'snippet:go-redis');
    const install = /^\/\/ install: (.*?)\s+\(save as main\.go, run: go run \.\)$/.exec(code.split('\n')[0]!)?.[1];
    expect(install).toBe('go mod init example && go get github.com/redis/go-redis/v9');
    writeFileSync(path.join(dir, 'main.go'), code);
    // The local module cache first (works offline once go-redis was fetched), then the usual proxy.
    const cache = run('go', ['env', 'GOMODCACHE'], dir).trim();
    const proxy = run('go', ['env', 'GOPROXY'], dir).trim();
    const env = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local', GOPROXY: `file://${cache}/cache/download,${proxy}` };
    run('bash', ['-c', install!], dir, env);
    expect(run('go', ['run', '.'], dir, env).trim()).toBe('hello');
    expect(await readBack('snippet:go-redis')).toBe('hello');
  }, 300_000);

  it('Jedis: a pom.xml with the dependency shown, then the run line as shown (Maven, java)', async () => {
    const dir = folder('jedis');
    const code = snippet('jedis', 'snippet:jedis');
    const [install, runLine] = code.split('\n');
    expect(install).toBe(`// install: a pom.xml with ${JEDIS_DEPENDENCY}`);
    const command = /^\/\/ save as Main\.java, run: (.*)$/.exec(runLine!)?.[1];
    expect(command).toBe('mvn dependency:copy-dependencies -DoutputDirectory=lib && java -cp "lib/*" Main.java');
    writeFileSync(
      path.join(dir, 'pom.xml'),
      `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>example</groupId><artifactId>example</artifactId><version>1</version><dependencies>${JEDIS_DEPENDENCY}</dependencies></project>\n`,
    );
    writeFileSync(path.join(dir, 'Main.java'), code);
    // Maven's own log (with its colour codes) goes to stdout: the program's output is the last line.
    const out = run('bash', ['-c', command!], dir).replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n');
    expect(out.at(-1)).toBe('hello');
    expect(await readBack('snippet:jedis')).toBe('hello');
  }, 300_000);
});

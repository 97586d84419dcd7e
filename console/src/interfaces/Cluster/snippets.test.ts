import { describe, expect, it } from 'vitest';
import type { Connection } from '@strata/api';
import { CA_FILE, CLIENT_CERT_FILE, CLIENT_KEY_FILE, CLIENTS, JEDIS_DEPENDENCY, MASK, asDatabaseUser, buildSnippet, maskUri, parseHostPort } from './snippets';

const conn: Connection = {
  uri: 'redis://default:s3cr%2Ft@127.0.0.1:7001',
  seeds: ['127.0.0.1:7001', '127.0.0.2:7002', '127.0.0.3:7003'],
  username: 'default',
  password: 's3cr/t',
  endpoint: null,
  tls: 'off',
  tlsClientAuth: 'none',
  caCertificate: null,
  tlsUri: null,
  tlsServed: 'plain',
};

describe('with a stable endpoint', () => {
  it('lists the endpoint first, then every primary', () => {
    const withEndpoint: Connection = { ...conn, uri: 'redis://default:s3cr%2Ft@127.0.1.200:6379', endpoint: { host: '127.0.1.200', port: 6379, servedBy: ['node-1'] } };
    const py = buildSnippet('redis-py', withEndpoint, true);
    expect(py.indexOf('ClusterNode("127.0.1.200", 6379)')).toBeGreaterThan(-1);
    expect(py.indexOf('ClusterNode("127.0.1.200", 6379)')).toBeLessThan(py.indexOf('ClusterNode("127.0.0.1", 7001)'));
  });
});

describe('maskUri', () => {
  it('masks an encoded password and reveals on demand', () => {
    expect(maskUri(conn.uri, conn.password, false)).toBe(`redis://default:${MASK}@127.0.0.1:7001`);
    expect(maskUri(conn.uri, conn.password, true)).toBe(conn.uri);
  });
  it('masks a plain password', () => {
    expect(maskUri('redis://u:abc@h:1', 'abc', false)).toBe(`redis://u:${MASK}@h:1`);
  });
});

describe('parseHostPort', () => {
  it('splits host and port, including IPv6', () => {
    expect(parseHostPort('10.0.0.1:7000')).toEqual({ host: '10.0.0.1', port: 7000 });
    expect(parseHostPort('[::1]:7000')).toEqual({ host: '::1', port: 7000 });
  });
});

describe('buildSnippet', () => {
  it.each(CLIENTS.map((c) => c.key))('%s: lists every seed and masks the password', (client) => {
    const masked = buildSnippet(client, conn, false);
    expect(masked).not.toContain(conn.password);
    expect(masked).toContain(MASK);
    const revealed = buildSnippet(client, conn, true);
    expect(revealed).toContain(conn.password);
    if (client !== 'redis-cli') for (const s of conn.seeds) expect(revealed).toContain(s.split(':')[1]);
  });
  it('redis-cli runs in cluster mode', () => {
    expect(buildSnippet('redis-cli', conn, true)).toMatch(/redis-cli -c /);
  });
  it.each(CLIENTS.map((c) => c.key))('%s: starts with how to install the client', (client) => {
    expect(buildSnippet(client, conn, true).split('\n')[0]).toMatch(/^(#|\/\/) (npm |pip )?install/);
  });
  it('go-redis is a complete program: package main, context imported, ctx defined before use', () => {
    const go = buildSnippet('go-redis', conn, true);
    expect(go).toMatch(/^package main$/m);
    expect(go).toContain('"context"');
    const defined = go.indexOf('ctx := context.Background()');
    expect(defined).toBeGreaterThan(-1);
    expect(go.indexOf('rdb.Set(ctx')).toBeGreaterThan(defined);
    expect(go).toMatch(/^func main\(\) \{$/m);
  });
  it('ioredis and node-redis close their connections, so the program ends', () => {
    expect(buildSnippet('ioredis', conn, true).trimEnd().split('\n').at(-1)).toBe('cluster.disconnect();');
    expect(buildSnippet('node-redis', conn, true).trimEnd().split('\n').at(-1)).toBe('await cluster.close();');
  });
  it('Jedis is a whole program (class Main with main) with its Maven dependency', () => {
    const java = buildSnippet('jedis', conn, true);
    expect(java).toContain(JEDIS_DEPENDENCY);
    expect(java).toMatch(/^public class Main \{$/m);
    expect(java).toContain('public static void main(String[] args)');
    expect(java).toContain('java -cp "lib/*" Main.java');
  });
});

describe('for a TLS cluster', () => {
  const secure: Connection = { ...conn, uri: 'rediss://default:s3cr%2Ft@127.0.0.1:7001', tls: 'required', caCertificate: '-----BEGIN CERTIFICATE-----\nx\n-----END CERTIFICATE-----\n' };
  it.each(CLIENTS.map((c) => c.key))('%s: speaks TLS, verifies against the CA file, still starts with the install line', (client) => {
    const s = buildSnippet(client, secure, true);
    expect(s).toContain(CA_FILE);
    expect(s.split('\n')[0]).toMatch(/^(#|\/\/) (npm |pip )?install/);
    expect(buildSnippet(client, conn, true)).not.toContain(CA_FILE);
  });
  it('each client turns TLS on its own way', () => {
    const cli = buildSnippet('redis-cli', secure, true).split('\n').filter((l) => l.startsWith('redis-cli '));
    expect(cli.every((l) => l.includes(`--tls --cacert ${CA_FILE}`))).toBe(true);
    expect(cli[1]).toContain("-u 'rediss://");
    expect(buildSnippet('ioredis', secure, true)).toContain(`tls: { ca: readFileSync("${CA_FILE}") }`);
    expect(buildSnippet('node-redis', secure, true)).toContain('{ url: "rediss://127.0.0.1:7001" }');
    expect(buildSnippet('node-redis', secure, true)).toContain('socket: { tls: true, ca: readFileSync');
    expect(buildSnippet('redis-py', secure, true)).toContain(`    ssl=True,\n    ssl_ca_certs="${CA_FILE}",`);
    expect(buildSnippet('go-redis', secure, true)).toContain('TLSConfig: &tls.Config{RootCAs: roots},');
    expect(buildSnippet('jedis', secure, true)).toContain('.sslSocketFactory(ssl.getSocketFactory())');
  });
  it('a database user on a TLS cluster keeps rediss:// and the CA', () => {
    const reader = asDatabaseUser(secure, 'reader');
    expect(reader.uri).toBe('rediss://reader:<password of reader>@127.0.0.1:7001');
    expect(buildSnippet('redis-cli', reader, true)).toContain(`--tls --cacert ${CA_FILE}`);
  });
});

describe('for a cluster that requires client certificates', () => {
  const secure: Connection = { ...conn, uri: 'rediss://default:s3cr%2Ft@127.0.0.1:7001', tls: 'required', caCertificate: 'CA' };
  const mutual: Connection = { ...secure, tlsClientAuth: 'required' };
  it.each(CLIENTS.map((c) => c.key))('%s: presents the client certificate and key files beside the CA', (client) => {
    const s = buildSnippet(client, mutual, true);
    expect(s).toContain(CA_FILE);
    expect(s).toContain(CLIENT_CERT_FILE);
    expect(s).toContain(CLIENT_KEY_FILE);
    expect(s.split('\n')[0]).toMatch(/^(#|\/\/) (npm |pip )?install/);
    expect(buildSnippet(client, secure, true)).not.toContain(CLIENT_CERT_FILE);
  });
  it('each client passes them its own way', () => {
    const cli = buildSnippet('redis-cli', mutual, true).split('\n').filter((l) => l.startsWith('redis-cli '));
    expect(cli.every((l) => l.includes(`--tls --cacert ${CA_FILE} --cert ${CLIENT_CERT_FILE} --key ${CLIENT_KEY_FILE}`))).toBe(true);
    expect(buildSnippet('ioredis', mutual, true)).toContain(`tls: { ca: readFileSync("${CA_FILE}"), cert: readFileSync("${CLIENT_CERT_FILE}"), key: readFileSync("${CLIENT_KEY_FILE}") }`);
    expect(buildSnippet('node-redis', mutual, true)).toContain(`socket: { tls: true, ca: readFileSync("${CA_FILE}"), cert: readFileSync(`);
    expect(buildSnippet('redis-py', mutual, true)).toContain(`    ssl_certfile="${CLIENT_CERT_FILE}",\n    ssl_keyfile="${CLIENT_KEY_FILE}",`);
    expect(buildSnippet('go-redis', mutual, true)).toContain('TLSConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}},');
    expect(buildSnippet('jedis', mutual, true)).toContain('ssl.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);');
    expect(buildSnippet('jedis', secure, true)).toContain('ssl.init(null, tmf.getTrustManagers(), null);');
  });
  it('a plain cluster never asks for them', () => {
    expect(buildSnippet('redis-cli', { ...conn, tlsClientAuth: 'required' }, true)).not.toContain('--cert');
  });
});

describe('as a database user', () => {
  it('keeps the addresses, names the user and stands in for its password', () => {
    const reader = asDatabaseUser(conn, 'reader');
    expect(reader).toMatchObject({ username: 'reader', password: '<password of reader>', seeds: conn.seeds, uri: 'redis://reader:<password of reader>@127.0.0.1:7001' });
    const cli = buildSnippet('redis-cli', reader, true);
    expect(cli).toContain("--user reader --pass '<password of reader>'");
    expect(cli).not.toContain('s3cr');
  });
});

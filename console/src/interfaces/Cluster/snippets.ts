import type { Connection } from '@strata/api';

export const CLIENTS = [
  { key: 'redis-cli', title: 'redis-cli', language: 'shell' },
  { key: 'ioredis', title: 'ioredis', language: 'javascript' },
  { key: 'node-redis', title: 'node-redis', language: 'javascript' },
  { key: 'redis-py', title: 'redis-py', language: 'python' },
  { key: 'go-redis', title: 'go-redis', language: 'go' },
  { key: 'jedis', title: 'Jedis', language: 'java' },
] as const;

export type ClientKey = (typeof CLIENTS)[number]['key'];

export const MASK = '••••••••';

export interface HostPort {
  host: string;
  port: number;
}

export function parseHostPort(s: string): HostPort {
  const i = s.lastIndexOf(':');
  const host = i === -1 ? s : s.slice(0, i).replace(/^\[(.*)\]$/, '$1');
  const port = i === -1 ? 6379 : Number(s.slice(i + 1));
  return { host, port: Number.isFinite(port) ? port : 6379 };
}

/** The URI with its password replaced by a mask (or unchanged when `reveal`). */
export function maskUri(uri: string, password: string, reveal: boolean): string {
  if (reveal || !password) return uri;
  for (const p of [password, encodeURIComponent(password)]) {
    const needle = `:${p}@`;
    const i = uri.indexOf(needle);
    if (i !== -1) return `${uri.slice(0, i)}:${MASK}@${uri.slice(i + needle.length)}`;
  }
  return uri;
}

const q = (s: string) => JSON.stringify(s);

/** Stands for a database user's password in snippets: Strata showed it once and does not keep it. */
export const passwordPlaceholder = (user: string) => `<password of ${user}>`;

/** The connection as a database user: same addresses, its name, a placeholder for its password. */
export function asDatabaseUser(conn: Connection, user: string): Connection {
  const password = passwordPlaceholder(user);
  const uri = conn.uri.replace(/^(rediss?:\/\/)[^@]*@/, `$1${encodeURIComponent(user)}:${password}@`);
  return { ...conn, username: user, password, uri };
}

/** The Maven dependency the Jedis snippet's install line names (its pom.xml has only this). */
export const JEDIS_DEPENDENCY = '<dependency><groupId>redis.clients</groupId><artifactId>jedis</artifactId><version>5.2.0</version></dependency>';

/** The file TLS snippets read the cluster's CA from (the console's "Download CA" saves it under this name). */
export const CA_FILE = 'ca.pem';
const CA_NOTE = `save the cluster's CA as ${CA_FILE} beside it (Download CA)`;
/** The files snippets read a client certificate and its key from, when the cluster requires client certificates (the console's "Create client certificate" saves them under these names). */
export const CLIENT_CERT_FILE = 'client.crt';
export const CLIENT_KEY_FILE = 'client.key';
const CLIENT_NOTE = `and a client certificate as ${CLIENT_CERT_FILE} and ${CLIENT_KEY_FILE} (Create client certificate)`;

/**
 * Cluster-aware connection snippets. With `reveal` false the password is
 * masked. For a TLS cluster each client speaks TLS and verifies the
 * instances against the cluster's CA, read from CA_FILE; when the cluster
 * requires client certificates, each also presents the one in
 * CLIENT_CERT_FILE and CLIENT_KEY_FILE.
 */
export function buildSnippet(client: ClientKey, conn: Connection, reveal: boolean): string {
  const password = reveal ? conn.password : MASK;
  const tls = conn.tls === 'required';
  const mtls = tls && conn.tlsClientAuth === 'required';
  const note = mtls ? `${CA_NOTE} ${CLIENT_NOTE}` : CA_NOTE;
  const cliTls = tls ? ` --tls --cacert ${CA_FILE}${mtls ? ` --cert ${CLIENT_CERT_FILE} --key ${CLIENT_KEY_FILE}` : ''}` : '';
  const nodeTls = `ca: readFileSync(${q(CA_FILE)})${mtls ? `, cert: readFileSync(${q(CLIENT_CERT_FILE)}), key: readFileSync(${q(CLIENT_KEY_FILE)})` : ''}`;
  // The stable endpoint first (it outlives any node), then every primary as a fallback seed.
  const endpoint = conn.endpoint ? [`${conn.endpoint.host}:${conn.endpoint.port}`] : [];
  const seeds = ([...endpoint, ...conn.seeds].length > 0 ? [...endpoint, ...conn.seeds] : [new URL(conn.uri.replace(/^rediss?:/, 'http:')).host]).map(parseHostPort);
  const first = seeds[0]!;
  const user = conn.username;
  switch (client) {
    case 'redis-cli':
      return [
        '# install: apt-get install redis-tools (Debian/Ubuntu) or brew install redis (macOS)',
        '# -c follows MOVED/ASK redirects between shards',
        ...(tls ? [`# TLS: ${note}`] : []),
        `redis-cli -c${cliTls} -h ${first.host} -p ${first.port} --user ${user} --pass '${password}'`,
        '',
        '# or, with the connection URI',
        `redis-cli -c${cliTls} -u '${maskUri(conn.uri, conn.password, reveal)}'`,
      ].join('\n');
    case 'ioredis':
      return [
        '// npm install ioredis  (save as main.mjs, run: node main.mjs)',
        ...(tls ? [`// TLS: ${note}`, "import { readFileSync } from 'node:fs';"] : []),
        "import { Cluster } from 'ioredis';",
        '',
        'const cluster = new Cluster(',
        '  [',
        ...seeds.map((s) => `    { host: ${q(s.host)}, port: ${s.port} },`),
        '  ],',
        tls
          ? `  { redisOptions: { username: ${q(user)}, password: ${q(password)}, tls: { ${nodeTls} } } },`
          : `  { redisOptions: { username: ${q(user)}, password: ${q(password)} } },`,
        ');',
        '',
        "await cluster.set('greeting', 'hello');",
        "console.log(await cluster.get('greeting'));",
        'cluster.disconnect();',
      ].join('\n');
    case 'node-redis':
      return [
        '// npm install redis  (save as main.mjs, run: node main.mjs)',
        ...(tls ? [`// TLS: ${note}`, "import { readFileSync } from 'node:fs';"] : []),
        "import { createCluster } from 'redis';",
        '',
        'const cluster = createCluster({',
        '  rootNodes: [',
        ...seeds.map((s) => `    { url: ${q(`${tls ? 'rediss' : 'redis'}://${s.host}:${s.port}`)} },`),
        '  ],',
        tls
          ? `  defaults: { username: ${q(user)}, password: ${q(password)}, socket: { tls: true, ${nodeTls} } },`
          : `  defaults: { username: ${q(user)}, password: ${q(password)} },`,
        '});',
        '',
        'await cluster.connect();',
        "await cluster.set('greeting', 'hello');",
        "console.log(await cluster.get('greeting'));",
        'await cluster.close();',
      ].join('\n');
    case 'redis-py':
      return [
        '# pip install redis',
        ...(tls ? [`# TLS: ${note}`] : []),
        'from redis.cluster import RedisCluster, ClusterNode',
        '',
        'rc = RedisCluster(',
        '    startup_nodes=[',
        ...seeds.map((s) => `        ClusterNode(${q(s.host)}, ${s.port}),`),
        '    ],',
        `    username=${q(user)},`,
        `    password=${q(password)},`,
        ...(tls ? ['    ssl=True,', `    ssl_ca_certs=${q(CA_FILE)},`] : []),
        ...(mtls ? [`    ssl_certfile=${q(CLIENT_CERT_FILE)},`, `    ssl_keyfile=${q(CLIENT_KEY_FILE)},`] : []),
        '    decode_responses=True,',
        ')',
        '',
        'rc.set("greeting", "hello")',
        'print(rc.get("greeting"))',
      ].join('\n');
    case 'go-redis':
      return [
        '// install: go mod init example && go get github.com/redis/go-redis/v9  (save as main.go, run: go run .)',
        ...(tls ? [`// TLS: ${note}`] : []),
        'package main',
        '',
        'import (',
        '\t"context"',
        ...(tls ? ['\t"crypto/tls"', '\t"crypto/x509"'] : []),
        '\t"fmt"',
        ...(tls ? ['\t"os"'] : []),
        '',
        '\t"github.com/redis/go-redis/v9"',
        ')',
        '',
        'func main() {',
        '\tctx := context.Background()',
        ...(tls ? [
          `\tca, err := os.ReadFile(${q(CA_FILE)})`,
          '\tif err != nil {',
          '\t\tpanic(err)',
          '\t}',
          '\troots := x509.NewCertPool()',
          '\troots.AppendCertsFromPEM(ca)',
        ] : []),
        ...(mtls ? [
          `\tcert, err := tls.LoadX509KeyPair(${q(CLIENT_CERT_FILE)}, ${q(CLIENT_KEY_FILE)})`,
          '\tif err != nil {',
          '\t\tpanic(err)',
          '\t}',
        ] : []),
        '\trdb := redis.NewClusterClient(&redis.ClusterOptions{',
        '\t\tAddrs: []string{',
        ...seeds.map((s) => `\t\t\t${q(`${s.host}:${s.port}`)},`),
        '\t\t},',
        `\t\tUsername: ${q(user)},`,
        `\t\tPassword: ${q(password)},`,
        ...(tls ? [mtls ? '\t\tTLSConfig: &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{cert}},' : '\t\tTLSConfig: &tls.Config{RootCAs: roots},'] : []),
        '\t})',
        '\tdefer rdb.Close()',
        '',
        '\tif err := rdb.Set(ctx, "greeting", "hello", 0).Err(); err != nil {',
        '\t\tpanic(err)',
        '\t}',
        '\tfmt.Println(rdb.Get(ctx, "greeting").Val())',
        '}',
      ].join('\n');
    case 'jedis':
      return [
        `// install: a pom.xml with ${JEDIS_DEPENDENCY}`,
        '// save as Main.java, run: mvn dependency:copy-dependencies -DoutputDirectory=lib && java -cp "lib/*" Main.java',
        ...(tls ? [
          `// TLS: ${note}`,
          'import java.io.FileInputStream;',
          ...(mtls ? ['import java.nio.file.Files;', 'import java.nio.file.Path;', 'import java.security.KeyFactory;'] : []),
          'import java.security.KeyStore;',
          ...(mtls ? ['import java.security.PrivateKey;', 'import java.security.cert.Certificate;'] : []),
          'import java.security.cert.CertificateFactory;',
          ...(mtls ? ['import java.security.spec.PKCS8EncodedKeySpec;', 'import java.util.Base64;'] : []),
        ] : []),
        'import java.util.Set;',
        ...(tls ? ['', ...(mtls ? ['import javax.net.ssl.KeyManagerFactory;'] : []), 'import javax.net.ssl.SSLContext;', 'import javax.net.ssl.TrustManagerFactory;'] : []),
        '',
        'import redis.clients.jedis.DefaultJedisClientConfig;',
        'import redis.clients.jedis.HostAndPort;',
        'import redis.clients.jedis.JedisClientConfig;',
        'import redis.clients.jedis.JedisCluster;',
        '',
        'public class Main {',
        `    public static void main(String[] args)${tls ? ' throws Exception' : ''} {`,
        '        Set<HostAndPort> nodes = Set.of(',
        seeds.map((s) => `            new HostAndPort(${q(s.host)}, ${s.port})`).join(',\n'),
        '        );',
        ...(tls ? [
          '        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());',
          '        trust.load(null, null);',
          `        try (FileInputStream ca = new FileInputStream(${q(CA_FILE)})) {`,
          '            trust.setCertificateEntry("strata-ca", CertificateFactory.getInstance("X.509").generateCertificate(ca));',
          '        }',
          '        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());',
          '        tmf.init(trust);',
          ...(mtls ? [
            `        String pem = Files.readString(Path.of(${q(CLIENT_KEY_FILE)})).replaceAll("-----[A-Z ]+-----|\\\\s", "");`,
            '        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));',
            '        Certificate cert;',
            `        try (FileInputStream in = new FileInputStream(${q(CLIENT_CERT_FILE)})) {`,
            '            cert = CertificateFactory.getInstance("X.509").generateCertificate(in);',
            '        }',
            '        KeyStore keys = KeyStore.getInstance("PKCS12");',
            '        keys.load(null, null);',
            '        keys.setKeyEntry("client", key, "strata".toCharArray(), new Certificate[] { cert });',
            '        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());',
            '        kmf.init(keys, "strata".toCharArray());',
          ] : []),
          '        SSLContext ssl = SSLContext.getInstance("TLS");',
          `        ssl.init(${mtls ? 'kmf.getKeyManagers()' : 'null'}, tmf.getTrustManagers(), null);`,
          '',
        ] : []),
        '        JedisClientConfig config = DefaultJedisClientConfig.builder()',
        `            .user(${q(user)})`,
        `            .password(${q(password)})`,
        ...(tls ? ['            .ssl(true)', '            .sslSocketFactory(ssl.getSocketFactory())'] : []),
        '            .build();',
        '',
        '        try (JedisCluster jedis = new JedisCluster(nodes, config)) {',
        '            jedis.set("greeting", "hello");',
        '            System.out.println(jedis.get("greeting"));',
        '        }',
        '    }',
        '}',
      ].join('\n');
  }
}

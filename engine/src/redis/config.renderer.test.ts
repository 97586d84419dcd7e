import { describe, expect, it } from 'vitest';
import type { Durability, EngineCredentials, EvictionPolicy, Fencing } from '../domain';
import { CUSTOMER_ACL_RULES, FENCING_MAX_LAG_S, renderRedisConfig, specSettings, type RedisConfigInput } from './config.renderer';
import { quoteConfigArg } from './config.quoting';
import { TLS_FILES } from './tls-settings';

const credentials: EngineCredentials = {
  customerUser: 'customer',
  customerPassword: 'c0ffee00c0ffee00',
  internalUser: 'strata-internal',
  internalPassword: 'deadbeefdeadbeef',
};
const base: RedisConfigInput = {
  address: '127.0.1.2',
  port: 7001,
  dataDir: '/var/lib/strata/i-1',
  memoryMb: 256,
  durability: 'none',
  evictionPolicy: 'noeviction',
  credentials,
};
const lines = (input: Partial<RedisConfigInput> = {}) => renderRedisConfig({ ...base, ...input }).split('\n');

describe('renderRedisConfig', () => {
  it.each<[Durability, string[], string[]]>([
    ['none', ['save ""', 'appendonly no'], ['appendonly yes']],
    ['aof-everysec', ['save ""', 'appendonly yes', 'appendfsync everysec'], ['appendonly no', 'appendfsync always']],
    ['aof-always', ['appendonly yes', 'appendfsync always'], ['appendonly no', 'appendfsync everysec']],
  ])('durability %s', (durability, present, absent) => {
    const out = lines({ durability });
    for (const line of present) expect(out).toContain(line);
    for (const line of absent) expect(out).not.toContain(line);
  });

  it.each<EvictionPolicy>([
    'noeviction', 'allkeys-lru', 'allkeys-lfu', 'allkeys-random',
    'volatile-lru', 'volatile-lfu', 'volatile-random', 'volatile-ttl',
  ])('eviction policy %s', (evictionPolicy) => {
    const out = lines({ evictionPolicy, memoryMb: 128 });
    expect(out).toContain(`maxmemory-policy ${evictionPolicy}`);
    expect(out).toContain('maxmemory 128mb');
  });

  it.each<[Fencing | undefined, string[]]>([
    [undefined, ['min-replicas-to-write 0', 'min-replicas-max-lag 10']],
    ['off', ['min-replicas-to-write 0', 'min-replicas-max-lag 10']],
    ['on', ['min-replicas-to-write 1', `min-replicas-max-lag ${FENCING_MAX_LAG_S}`]],
  ])('write fencing %s', (fencing, present) => {
    const out = lines({ fencing });
    for (const line of present) expect(out).toContain(line);
    expect(out.filter((l) => l.startsWith('min-replicas-to-write'))).toHaveLength(1);
    // The same pairs as a live CONFIG SET applies.
    const live = specSettings({ memoryMb: 64, durability: 'none', evictionPolicy: 'noeviction', fencing }).map(([k, v]) => `${k} ${v}`);
    for (const line of present) expect(live).toContain(line);
  });

  it('serves TLS only on the instance port, on replication and the cluster bus, when given TLS files', () => {
    const out = lines({ tls: TLS_FILES });
    expect(out).toContain('port 0');
    expect(out).not.toContain('port 7001');
    for (const line of [
      'tls-port 7001', 'tls-cert-file "tls/instance.crt"', 'tls-key-file "tls/instance.key"', 'tls-ca-cert-file "tls/ca.crt"',
      'tls-auth-clients no', 'tls-replication yes', 'tls-cluster yes',
    ]) expect(out).toContain(line);
    expect(lines().filter((l) => l.startsWith('tls-'))).toEqual([]);
    expect(lines()).toContain('port 7001');
  });

  it.each([
    ['plain+tls', false, ['port 7001', 'tls-port 7101', 'tls-replication yes', 'tls-cluster no']],
    ['tls+plain', false, ['port 7101', 'tls-port 7001', 'tls-replication no', 'tls-cluster no']],
    ['tls', false, ['port 0', 'tls-port 7001', 'tls-replication yes', 'tls-cluster no']],
    ['plain', true, ['port 7001', 'tls-port 0', 'tls-replication no', 'tls-cluster yes']],
  ] as const)('a switched cluster (%s, TLS bus %s): what each port serves, the bus keeping its protocol on a pinned port', (layout, bus, present) => {
    const out = lines({ tls: TLS_FILES, tlsLayout: { layout, bus, secondPort: 7101 } });
    for (const line of present) expect(out).toContain(line);
    expect(out).toContain('cluster-port 17001');
    expect(out.filter((l) => l.startsWith('tls-port'))).toHaveLength(1);
    expect(out.filter((l) => /^port /.test(l))).toHaveLength(1);
    expect(out).toContain('tls-cert-file "tls/instance.crt"');
  });

  it('a switched-off cluster with a plain bus has no TLS line at all', () => {
    const out = lines({ tlsLayout: { layout: 'plain', bus: false } });
    expect(out.filter((l) => l.startsWith('tls-'))).toEqual([]);
    expect(out).toContain('port 7001');
    expect(() => lines({ tlsLayout: { layout: 'plain+tls', bus: false, secondPort: 7101 } })).toThrow(/needs TLS files/);
  });

  it('asks clients for a certificate signed by the CA when the cluster requires client certificates, in redis.conf and at runtime', () => {
    const out = lines({ tls: TLS_FILES, tlsClientAuth: 'required' });
    expect(out).toContain('tls-auth-clients yes');
    expect(out.filter((l) => l.startsWith('tls-auth-clients'))).toHaveLength(1);
    expect(lines({ tls: TLS_FILES, tlsClientAuth: 'none' })).toContain('tls-auth-clients no');
    expect(lines({ tls: TLS_FILES, tlsClientAuth: 'optional' })).toContain('tls-auth-clients optional');
    const live = (tlsClientAuth?: 'none' | 'optional' | 'required') => specSettings({ memoryMb: 64, durability: 'none', evictionPolicy: 'noeviction', tlsClientAuth });
    expect(live('required')).toContainEqual(['tls-auth-clients', 'yes']);
    expect(live('none')).toContainEqual(['tls-auth-clients', 'no']);
    expect(live('optional')).toContainEqual(['tls-auth-clients', 'optional']);
    // A plain-text instance has no TLS setting to apply.
    expect(live().filter(([k]) => k.startsWith('tls-'))).toEqual([]);
  });

  it('binds, announces and runs in cluster mode with fast replication', () => {
    const out = lines();
    for (const line of [
      'bind 127.0.1.2',
      'port 7001',
      'protected-mode no',
      'daemonize no',
      'dir "/var/lib/strata/i-1"',
      'pidfile "/var/lib/strata/i-1/redis.pid"',
      'logfile "/var/lib/strata/i-1/redis.log"',
      'cluster-enabled yes',
      'cluster-config-file nodes.conf',
      'cluster-node-timeout 2000',
      'cluster-allow-replica-migration no',
      'cluster-announce-ip 127.0.1.2',
      'repl-diskless-sync yes',
      'repl-diskless-sync-delay 0',
      'latency-tracking yes',
      'latency-tracking-info-percentiles "50 99 99.9"',
      'masteruser "strata-internal"',
      'masterauth "deadbeefdeadbeef"',
    ]) {
      expect(out).toContain(line);
    }
  });

  it('disables the default user and defines internal and customer users', () => {
    const out = lines();
    expect(out).toContain('user default off resetpass resetkeys resetchannels -@all');
    expect(out).toContain('user strata-internal reset on ">deadbeefdeadbeef" ~* &* +@all');
    expect(out).toContain(`user customer reset on ">c0ffee00c0ffee00" ${CUSTOMER_ACL_RULES.join(' ')}`);
  });

  it('never contains nopass', () => {
    for (const durability of ['none', 'aof-everysec', 'aof-always'] as const) {
      expect(renderRedisConfig({ ...base, durability })).not.toMatch(/nopass/i);
    }
  });

  it('takes admin and dangerous commands away from the customer before re-allowing safe ones', () => {
    expect(CUSTOMER_ACL_RULES.slice(0, 5)).toEqual(['~*', '&*', '+@all', '-@admin', '-@dangerous']);
    for (const rule of CUSTOMER_ACL_RULES.slice(5)) {
      expect(rule).toMatch(/^\+[a-z_]+(\|[a-z-]+)?$/);
      expect(rule).not.toMatch(/^\+(config|shutdown|debug|module|acl)|^\+cluster\|(addslots|reset|failover|meet|forget)/);
    }
  });

  it('quotes passwords so they stay one argument', () => {
    const out = renderRedisConfig({ ...base, credentials: { ...credentials, customerPassword: 'a "b" \\c\nd é' } });
    expect(out).toContain('">a \\"b\\" \\\\c\\x0ad \\xc3\\xa9"');
    expect(out.split('\n').filter((l) => l.startsWith('user customer'))).toHaveLength(1);
  });

  it.each([
    [{ port: 60000 }, /port/],
    [{ memoryMb: 0 }, /memoryMb/],
    [{ address: '1.2.3.4 5.6.7.8' }, /address/],
    [{ credentials: { ...credentials, customerUser: 'default' } }, /user name/],
    [{ credentials: { ...credentials, customerUser: 'a b' } }, /user name/],
    [{ credentials: { ...credentials, internalPassword: 'short' } }, /internalPassword/],
  ] as const)('rejects unsafe input %#', (input, message) => {
    expect(() => renderRedisConfig({ ...base, ...input })).toThrow(message);
  });
});

describe('quoteConfigArg', () => {
  it.each([
    ['plain', '"plain"'],
    ['', '""'],
    ['sp ace', '"sp ace"'],
    ['q"uote', '"q\\"uote"'],
    ['back\\slash', '"back\\\\slash"'],
    ['tab\t', '"tab\\x09"'],
  ])('%j -> %s', (input, expected) => {
    expect(quoteConfigArg(input)).toBe(expected);
  });
});

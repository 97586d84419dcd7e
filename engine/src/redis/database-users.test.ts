import { describe, expect, it } from 'vitest';
import {
  databaseUserConfigLines, databaseUserRules, databaseUsersDigest, NO_USERS_DIGEST, planUserSync, sha256Hex, type DatabaseUserAcl,
} from './database-users';
import { DATABASE_USER_PATTERN, isReservedDatabaseUserName } from '../database-user-names';
import { renderRedisConfig } from './config.renderer';

const h1 = sha256Hex('first-password-0123456789');
const h2 = sha256Hex('second-password-0123456789');
const reader: DatabaseUserAcl = { name: 'reader', preset: 'read-only', keyPatterns: ['orders:*'], passwordHashes: [h1] };

describe('databaseUserRules', () => {
  it('starts from reset, opens with each password hash, then patterns, then the preset', () => {
    const rules = databaseUserRules({ ...reader, passwordHashes: [h1, h2], channelPatterns: ['news.*'] });
    expect(rules.slice(0, 6)).toEqual(['reset', 'on', `#${h1}`, `#${h2}`, '~orders:*', '&news.*']);
    expect(rules.slice(6, 11)).toEqual(['-@all', '+@read', '+@connection', '-@admin', '-@dangerous']);
    expect(rules).not.toContain('+keys');
  });

  it.each([
    ['read-only', ['-@all', '+@read'], ['+@all', '+flushall', '+keys']],
    ['read-write', ['+@all', '-@admin', '-@dangerous', '+keys', '+flushall'], ['-@all']],
    ['read-write-safe', ['+@all', '-@admin', '-@dangerous'], ['+keys', '+flushall', '+flushdb', '+sort']],
  ] as const)('preset %s', (preset, present, absent) => {
    const rules = databaseUserRules({ name: 'u', preset, passwordHashes: [h1] });
    for (const r of present) expect(rules).toContain(r);
    for (const r of absent) expect(rules).not.toContain(r);
    expect(rules).toContain('~*');
    expect(rules).toContain('&*');
  });

  it('a user without a password is off', () => {
    expect(databaseUserRules({ ...reader, passwordHashes: [] }).slice(0, 2)).toEqual(['reset', 'off']);
  });

  it.each([
    ['a name with a space', { ...reader, name: 'bad name' }],
    ['the default user', { ...reader, name: 'default' }],
    ['a plaintext password', { ...reader, passwordHashes: ['not-a-hash'] }],
    ['rule syntax as a pattern', { ...reader, keyPatterns: ['~x'] }],
    ['a pattern with a space', { ...reader, keyPatterns: ['a b'] }],
    ['an unknown preset', { ...reader, preset: 'admin' as never }],
  ])('refuses %s', (_what, u) => {
    expect(() => databaseUserRules(u)).toThrow();
  });
});

describe('patterns and names', () => {
  it.each(['orders:*', 'user:{42}:*', 'a?c', '[ab]*', 'x/y|z', 'cache.v2-*'])('accepts %s', (p) => expect(DATABASE_USER_PATTERN.test(p)).toBe(true));
  it.each(['', 'a b', '~x', '&x', '%R~x', '+@all', '-@all', '@all', '#abc', '>pw', '<pw', 'a"b', 'a\\b', 'a\nb', 'x'.repeat(129)])(
    'refuses %j', (p) => expect(DATABASE_USER_PATTERN.test(p)).toBe(false),
  );
  it('reserves default, strata* and the cluster\'s own user names', () => {
    expect(isReservedDatabaseUserName('default')).toBe(true);
    expect(isReservedDatabaseUserName('Strata-internal')).toBe(true);
    expect(isReservedDatabaseUserName('app', ['app', 'strata-internal'])).toBe(true);
    expect(isReservedDatabaseUserName('reports')).toBe(false);
  });
});

describe('redis.conf', () => {
  it('renders each database user as a user line after Strata\'s own users', () => {
    const conf = renderRedisConfig({
      address: '127.0.1.2', port: 7001, dataDir: '.', memoryMb: 64, durability: 'none', evictionPolicy: 'noeviction',
      credentials: { customerUser: 'app', customerPassword: 'c'.repeat(16), internalUser: 'strata-internal', internalPassword: 'i'.repeat(16), databaseUsers: [reader] },
    });
    expect(conf).toContain(`${databaseUserConfigLines([reader])[0]}\n`);
    expect(conf.indexOf('user reader ')).toBeGreaterThan(conf.indexOf('user app '));
    expect(conf).not.toContain('first-password');
  });
  it('refuses a database user named like one of Strata\'s', () => {
    expect(() => renderRedisConfig({
      address: '127.0.1.2', port: 7001, dataDir: '.', memoryMb: 64, durability: 'none', evictionPolicy: 'noeviction',
      credentials: { customerUser: 'app', customerPassword: 'c'.repeat(16), internalUser: 'strata-internal', internalPassword: 'i'.repeat(16), databaseUsers: [{ ...reader, name: 'app' }] },
    })).toThrow(/reserves/);
  });
});

describe('databaseUsersDigest and planUserSync', () => {
  const writer: DatabaseUserAcl = { name: 'writer', preset: 'read-write', passwordHashes: [h2] };
  it('depends on the users, their rules and passwords, not on their order', () => {
    const d = databaseUsersDigest([reader, writer]);
    expect(databaseUsersDigest([writer, reader])).toBe(d);
    expect(databaseUsersDigest([reader, { ...writer, passwordHashes: [h1] }])).not.toBe(d);
    expect(databaseUsersDigest([reader, { ...writer, preset: 'read-write-safe' }])).not.toBe(d);
    expect(databaseUsersDigest([reader])).not.toBe(d);
    expect(databaseUsersDigest([{ ...reader, passwordHashes: [h1, h2] }])).toBe(databaseUsersDigest([{ ...reader, passwordHashes: [h2, h1] }]));
  });

  it('an engine that reports no digest has no database users: nothing to sync while none are wanted', () => {
    const instances = [{ id: 'a', running: true, usersDigest: null }, { id: 'b', running: true, usersDigest: NO_USERS_DIGEST }];
    expect(planUserSync({ desiredDigest: databaseUsersDigest([]), generation: 0, instances })).toEqual([]);
    expect(planUserSync({ desiredDigest: databaseUsersDigest([reader]), generation: 1, instances }).map((a) => a.instanceId)).toEqual(['a', 'b']);
  });

  it('syncs every running instance whose digest differs (none reported included), never a stopped one', () => {
    const desiredDigest = databaseUsersDigest([reader]);
    const actions = planUserSync({
      desiredDigest, generation: 7,
      instances: [
        { id: 'a', running: true, usersDigest: desiredDigest },
        { id: 'b', running: true, usersDigest: databaseUsersDigest([]) },
        { id: 'c', running: true, usersDigest: null },
        { id: 'd', running: false, usersDigest: null },
      ],
    });
    expect(actions).toEqual([
      { kind: 'sync-users', instanceId: 'b', generation: 7, digest: desiredDigest },
      { kind: 'sync-users', instanceId: 'c', generation: 7, digest: desiredDigest },
    ]);
  });
});

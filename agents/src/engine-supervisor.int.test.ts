/**
 * The agent's safe-restart rule against real redis-server processes: a
 * crashed primary is held until healing restarts it (no timed release, and a
 * plain ensure leaves it held), a crashed replica restarts on its own, and every engine found
 * stopped when an agent starts is held, with a crash time bounded by the
 * last time an agent saw it running. A restored primary whose engine died
 * before its cluster was ready loads its backup file again when its restart
 * carries the file, and starts empty when it does not.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineCredentials, InstanceSpec } from '@strata/api';
import { ENGINE_STOP_GRACE_MS, EngineSupervisor } from './engine-supervisor';
import { InstanceRegistry } from './instance-registry';
import { isAlive, readPid } from './process-utils';
import { awaitAofWritten } from './backup/seed-instance';
import { loopbackAddress } from '@strata/local';

const ADDRESS = loopbackAddress('127.0.161.1');
const credentials: EngineCredentials = { customerUser: 'app', customerPassword: 'app-secret-1', internalUser: 'strata', internalPassword: 'internal-secret-1' };
const spec = (n: number): InstanceSpec => ({ instanceId: `i${n}`, clusterId: 'c1', port: 7100 + n, memoryMb: 32, durability: 'none', evictionPolicy: 'noeviction' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
let supervisors: EngineSupervisor[];

const supervisor = (registry = new InstanceRegistry(dir)) => {
  const s = new EngineSupervisor({ registry, address: ADDRESS, redisServer: process.env.STRATA_REDIS_SERVER ?? 'redis-server', log: pino({ level: 'silent' }), onChange: () => {} });
  supervisors.push(s);
  return { s, registry };
};
const pidOf = (id: string) => readPid(path.join(dir, 'instances', id, 'redis.pid'))!;

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * A supervisor without its watch loop (no recover()) whose primary `i<n>` was just killed: nothing has seen the
 * crash yet, so the next call on the supervisor is the first to meet it.
 */
async function primaryJustDead(n: number): Promise<EngineSupervisor> {
  const { s, registry } = supervisor();
  await s.ensure(spec(n), credentials);
  registry.setLastRole(`i${n}`, 'primary');
  const pid = pidOf(`i${n}`);
  process.kill(pid, 'SIGKILL');
  await until('the engine to exit', () => !isAlive(pid));
  return s;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'strata-supervisor-'));
  supervisors = [];
});
afterEach(async () => {
  for (const s of supervisors) await s.stopAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('EngineSupervisor: safe restarts', () => {
  it('holds a crashed primary until the control plane asks for it, with no timed release; restarts a crashed replica on its own', async () => {
    const { s, registry } = supervisor();
    await s.recover();
    await s.ensure(spec(1), credentials);
    await s.ensure(spec(2), credentials);
    registry.setLastRole('i1', 'primary');
    registry.setLastRole('i2', 'replica');
    const primaryPid = pidOf('i1');
    const replicaPid = pidOf('i2');

    const killedAt = Date.now();
    process.kill(primaryPid, 'SIGKILL');
    process.kill(replicaPid, 'SIGKILL');
    await until('the replica to run again', () => s.status('i2')?.state === 'running' && s.status('i2')!.pid !== replicaPid);
    expect(s.status('i2')!.held).toBe(false);

    // Far past the old 20 s hold would be too slow for a unit; 3 s past the crash shows nothing restarts it on a timer.
    await sleep(3000);
    const held = s.status('i1')!;
    expect(held).toMatchObject({ state: 'crashed', held: true });
    expect(held.crashedAt).toBeGreaterThanOrEqual(killedAt);
    expect(held.crashedAt).toBeLessThan(killedAt + 1000);
    expect(isAlive(primaryPid)).toBe(false);
    // The crash time is on disk, for an agent that dies before the control plane answers.
    expect(Number(readFileSync(path.join(dir, 'instances', 'i1', 'crashed-at'), 'utf8'))).toBe(held.crashedAt);

    // A plain ensure (an operation making sure its instances run) leaves it held: restarted empty before its
    // replica took over, it would still claim its slots and its replica would resync the emptiness.
    await s.ensure(spec(1), credentials);
    expect(s.status('i1')).toMatchObject({ state: 'crashed', held: true });
    expect(isAlive(pidOf('i1'))).toBe(false);
    // Healing's restart (ensure-instance with release) ends the hold.
    await s.ensure(spec(1), credentials, undefined, { release: true });
    expect(s.status('i1')).toMatchObject({ state: 'running', held: false, crashedAt: null });
    expect(isAlive(pidOf('i1'))).toBe(true);
  }, 30_000);

  it('an ensure that comes after a primary died, before the crash was seen, holds it instead of starting it empty', async () => {
    const s = await primaryJustDead(6); // no watch loop: only the ensure can see the crash
    await s.ensure(spec(6), credentials);
    expect(s.status('i6')).toMatchObject({ state: 'crashed', held: true });
    expect(isAlive(pidOf('i6'))).toBe(false);
  }, 30_000);

  it('a replica promoted since its last report (its nodes.conf says primary with slots) is held when it crashes, not restarted', async () => {
    const { s, registry } = supervisor();
    await s.recover();
    await s.ensure(spec(7), credentials);
    registry.setLastRole('i7', 'replica'); // what the agent last reported
    const r = new Redis({ host: ADDRESS, port: spec(7).port, username: credentials.internalUser, password: credentials.internalPassword });
    try {
      await r.call('CLUSTER', 'ADDSLOTSRANGE', '0', '99'); // it serves slots now: Redis saves that in nodes.conf
    } finally {
      r.disconnect();
    }
    const pid = pidOf('i7');
    process.kill(pid, 'SIGKILL');
    await until('the crash to be seen', () => s.status('i7')?.state === 'crashed');
    await sleep(1500); // past the first restart backoff
    expect(s.status('i7')).toMatchObject({ state: 'crashed', held: true });
    expect(isAlive(pidOf('i7'))).toBe(false);
  }, 30_000);

  it('a restored engine keeps its backup file until the append-only file it switched on holds the data', async () => {
    const { s } = supervisor();
    await s.ensure({ ...spec(8), memoryMb: 128 }, credentials);
    const r = new Redis({ host: ADDRESS, port: spec(8).port, username: credentials.internalUser, password: credentials.internalPassword });
    try {
      await r.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
      while (!/cluster_state:ok/.test(String(await r.call('CLUSTER', 'INFO')))) await sleep(50);
      for (let i = 0; i < 200_000; i += 5000) {
        const p = r.pipeline();
        for (let j = i; j < i + 5000; j++) p.set(`{k}:${j}`, 'v'.repeat(100));
        for (const [err] of (await p.exec()) ?? []) if (err) throw err;
      }
      await r.call('CONFIG', 'SET', 'appendonly', 'yes'); // what reconfigureInstance does for aof-everysec
      await awaitAofWritten(r, 30_000);
      const info = String(await r.call('INFO', 'persistence'));
      expect(info).toMatch(/aof_rewrite_in_progress:0/);
      expect(info).toMatch(/aof_rewrite_scheduled:0/);
      expect(info).toMatch(/aof_last_bgrewrite_status:ok/);
      const aofDir = path.join(dir, 'instances', 'i8', 'appendonlydir');
      const base = readdirSync(aofDir).find((f) => f.includes('.base.'));
      expect(base && statSync(path.join(aofDir, base)).size).toBeGreaterThan(1_000_000);
    } finally {
      r.disconnect();
    }
  }, 60_000);

  it('a rolling restart asked for a primary that has just died refuses and holds it: it never starts it empty', async () => {
    const s = await primaryJustDead(9); // no watch loop: only the restart can see the crash
    await expect(s.restart('i9')).rejects.toThrow(/not running \(crashed, held\)/);
    expect(s.status('i9')).toMatchObject({ state: 'crashed', held: true });
    expect(isAlive(pidOf('i9'))).toBe(false);
  }, 30_000);

  it('a new agent adopts running engines and holds every stopped one (primary or replica), with the last time an agent saw it running as its crash time', async () => {
    const first = supervisor();
    await first.s.recover();
    for (const n of [1, 2, 3, 4]) await first.s.ensure(spec(n), credentials);
    first.registry.setLastRole('i1', 'primary');
    first.registry.setLastRole('i2', 'replica');
    first.registry.setLastRole('i3', 'primary');
    first.registry.setLastRole('i4', 'replica');
    await sleep(1200); // the "seen running" mark is written every second
    // The agent dies (its engines are detached and live on)...
    first.s.detach();
    const agentGoneAt = Date.now();
    await sleep(1500);
    // ...then two engines die while no agent watches them.
    process.kill(pidOf('i1'), 'SIGKILL');
    process.kill(pidOf('i2'), 'SIGKILL');
    await until('the engines to exit', () => !isAlive(pidOf('i1')) && !isAlive(pidOf('i2')));
    await sleep(1500);

    const second = supervisor(new InstanceRegistry(dir));
    await second.s.recover();
    await sleep(1500);
    for (const id of ['i1', 'i2']) {
      const rt = second.s.status(id)!;
      expect(rt, id).toMatchObject({ state: 'stopped', held: true });
      // Not the new agent's start time: the last mark of the old agent, before the engines died.
      expect(rt.crashedAt!, id).toBeLessThanOrEqual(agentGoneAt);
      expect(rt.crashedAt!, id).toBeGreaterThan(agentGoneAt - 2500);
      expect(isAlive(pidOf(id)), id).toBe(false);
    }
    for (const id of ['i3', 'i4']) expect(second.s.status(id), id).toMatchObject({ state: 'running', held: false });

    // A replica the control plane still wants is restarted when healing says so.
    await second.s.ensure(spec(2), credentials, undefined, { release: true });
    expect(second.s.status('i2')).toMatchObject({ state: 'running', held: false });
  }, 30_000);

  it('an engine whose crash an agent saw before dying keeps that crash time in the next agent', async () => {
    const first = supervisor();
    await first.s.recover();
    await first.s.ensure(spec(5), credentials);
    first.registry.setLastRole('i5', 'primary');
    const killedAt = Date.now();
    process.kill(pidOf('i5'), 'SIGKILL');
    await until('the crash to be seen', () => first.s.status('i5')?.state === 'crashed');
    const seen = first.s.status('i5')!.crashedAt!;
    expect(seen).toBeGreaterThanOrEqual(killedAt);
    await sleep(1500); // the agent keeps marking "seen running" meanwhile: the crash mark must win
    first.s.detach();

    const second = supervisor(new InstanceRegistry(dir));
    await second.s.recover();
    expect(second.s.status('i5')).toMatchObject({ state: 'stopped', held: true, crashedAt: seen });
  }, 30_000);
});

describe('EngineSupervisor: bounded stops and taken ports', () => {
  it('does not start an engine where another process listens (its port or its cluster bus port) and names that process', async () => {
    const { s } = supervisor();
    await s.recover();
    for (const [n, port] of [[10, spec(10).port], [11, spec(11).port + 10000]] as const) {
      const stranger = net.createServer().listen(port, ADDRESS);
      await new Promise((r) => stranger.once('listening', r));
      try {
        const message = new RegExp(`${ADDRESS.replace(/\./g, '\\.')}:${port} is in use by pid ${process.pid} \\(.*node`);
        await expect(s.ensure(spec(n), credentials)).rejects.toThrow(message);
        expect(s.status(`i${n}`)).toMatchObject({ state: 'crashed', lastError: expect.stringMatching(message) });
      } finally {
        stranger.close();
      }
    }
  }, 30_000);

  it('stops an engine that ignores SIGTERM while it writes its first AOF, cleanly and within the grace', async () => {
    const { s } = supervisor();
    await s.recover();
    const big = { ...spec(12), memoryMb: 512 };
    await s.ensure(big, credentials);
    const pid = pidOf('i12');
    const r = new Redis({ host: ADDRESS, port: big.port, username: credentials.internalUser, password: credentials.internalPassword });
    try {
      const value = 'v'.repeat(100);
      for (let i = 0; i < 400_000; i += 20_000) {
        const p = r.pipeline();
        for (let j = i; j < i + 20_000; j++) p.set(`k${j}`, value);
        await p.exec();
      }
      // What claiming a spare for an AOF cluster does: Redis now writes its first AOF in a child, and until that is
      // done it answers SIGTERM with "Writing initial AOF, can't exit" and runs on.
      await r.config('SET', 'appendonly', 'yes');
    } finally {
      r.disconnect();
    }
    const t0 = Date.now();
    const killed = await s.stopAll();
    expect(Date.now() - t0).toBeLessThan(ENGINE_STOP_GRACE_MS);
    expect(killed).toEqual([]);
    expect(isAlive(pid)).toBe(false);
    const log = readFileSync(path.join(dir, 'instances', 'i12', 'redis.log'), 'utf8');
    expect(log).toMatch(/Writing initial AOF, can't exit/);
    expect(log).toMatch(/ready to exit, bye bye/);
  }, 60_000);

  it('starts no engine once stopAll began: a start in flight is ended, a later one refused', async () => {
    const { s } = supervisor();
    await s.recover();
    const starting = s.ensure(spec(13), credentials);
    starting.catch(() => {});
    await sleep(5);
    await s.stopAll();
    await expect(starting).rejects.toThrow(/stopping/);
    const pid = pidOf('i13');
    if (pid) expect(isAlive(pid)).toBe(false);
    expect(s.status('i13')?.state).toBe('stopped');
    await expect(s.ensure(spec(14), credentials)).rejects.toThrow(/stopping/);
    expect(readPid(path.join(dir, 'instances', 'i14', 'redis.pid'))).toBeNull();
  }, 30_000);
});

/** A connection to instance `i<n>` as the internal user (connect() it). */
const internalClient = (n: number) => new Redis({ host: ADDRESS, port: spec(n).port, username: credentials.internalUser, password: credentials.internalPassword, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });

/** DBSIZE of instance `i<n>`. */
async function keysOn(n: number): Promise<number> {
  const c = internalClient(n);
  try {
    await c.connect();
    return Number(await c.dbsize());
  } finally {
    c.disconnect();
  }
}

async function clusterOk(client: Redis): Promise<void> {
  for (let i = 0; !/cluster_state:ok/.test(String(await client.call('CLUSTER', 'INFO'))); i++) {
    if (i > 250) throw new Error('the one-node cluster did not turn ok');
    await sleep(20);
  }
}

describe('EngineSupervisor: a restored primary', () => {
  it('whose engine died before its cluster was ready loads its backup file again when the restart carries the file; a restart without it starts empty', async () => {
    const { s, registry } = supervisor();
    await s.ensure(spec(9), credentials);
    registry.setLastRole('i9', 'primary');
    const client = internalClient(9);
    await client.connect();
    // A one-node cluster with 500 keys, saved: the backup file.
    await client.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    await clusterOk(client);
    for (let i = 0; i < 50; i++) await Promise.all(Array.from({ length: 10 }, (_, k) => client.set(`{k${i}}:${k}`, `v${i}-${k}`)));
    await client.call('SAVE');
    const root = path.join(dir, 'backups');
    mkdirSync(root, { recursive: true });
    const file = readFileSync(path.join(dir, 'instances', 'i9', 'dump.rdb'));
    writeFileSync(path.join(root, 'shard-0.rdb'), file);
    rmSync(path.join(dir, 'instances', 'i9', 'dump.rdb'));
    const seed = { storage: { kind: 'local' as const, root }, key: 'shard-0.rdb', sha256: createHash('sha256').update(file).digest('hex'), keys: 500, keysWithExpiry: 0 };
    client.disconnect();

    // A new instance seeded from that file, killed before its cluster formed: held (the engine took the slots of the
    // keys it loaded, so it is a primary by its cluster file), not restarted empty; the restart that hands the file
    // again brings every key back.
    await s.ensure(spec(8), credentials, seed);
    const pid8 = pidOf('i8');
    process.kill(pid8, 'SIGKILL');
    await until('the seeded engine to be seen crashed', () => s.status('i8')?.state === 'crashed');
    expect(s.status('i8')).toMatchObject({ held: true });
    await sleep(300);
    expect(s.status('i8')).toMatchObject({ state: 'crashed', held: true });
    await s.ensure(spec(8), credentials, seed, { release: true });
    expect(await keysOn(8)).toBe(500);

    // Durability none: killed, it would come back empty. It is a primary serving slots, so it is held.
    process.kill(pidOf('i9'), 'SIGKILL');
    await until('the engine to be seen stopped', () => s.status('i9')?.state !== 'running');
    await s.ensure(spec(9), credentials, seed, { release: true });
    const back = internalClient(9);
    await back.connect();
    try {
      expect(Number(await back.dbsize())).toBe(500);
      await clusterOk(back);
      expect(await back.get('{k7}:3')).toBe('v7-3');
      // Still the same cluster node, with its slots.
      expect(String(await back.call('CLUSTER', 'INFO'))).toMatch(/cluster_slots_assigned:16384/);
      // The file is not left for a later restart to load.
      expect(readdirSync(path.join(dir, 'instances', 'i9'))).not.toContain('dump.rdb');
      // A later crash and restart without the file (its cluster ready by then): empty, as durability none says.
      process.kill(pidOf('i9'), 'SIGKILL');
      await until('the engine to be seen stopped', () => s.status('i9')?.state !== 'running');
      back.disconnect();
    } finally {
      back.disconnect();
    }
    await s.ensure(spec(9), credentials, undefined, { release: true });
    expect(pid8).not.toBe(pidOf('i8'));
    expect(await keysOn(9)).toBe(0);
  });
});

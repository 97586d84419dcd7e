/**
 * Benchmark: what 1 Hz metrics sampling costs a Redis instance. Starts one
 * redis-server, measures its CPU for WINDOW seconds idle, then WINDOW seconds
 * while the agent's InstanceSampler reads it every second over its long-lived
 * connection, and prints both (and the sampler's own CPU). Asserts nothing.
 *
 *   npm run bench:sampler        (WINDOW=30)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { connectAdmin } from '@strata/engine/redis-admin';
import { InstanceSampler } from '@strata/agent/instance-sampler';

const WINDOW = Number(process.env.WINDOW ?? 30);
const TICK = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ticks = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); };

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-sampler-'));
  const host = '127.0.39.1';
  const port = 7390;
  const redis = spawn('redis-server', ['--bind', host, '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir, '--latency-tracking', 'yes'], { stdio: 'ignore' });
  try {
    const admin = new Redis({ host, port, retryStrategy: (n) => (n > 100 ? null : 50) });
    admin.on('error', () => {});
    await admin.ping();
    await admin.call('ACL', 'SETUSER', 'sampler', 'on', '>sampler-password', '~*', '&*', '+@all');
    // Some keys and command history, so INFO commandstats and LATENCY HISTOGRAM have content.
    for (let i = 0; i < 2000; i++) await admin.set(`k${i}`, 'v');
    for (let i = 0; i < 2000; i++) await admin.get(`k${i}`);
    admin.disconnect();
    console.log(`sampling cost of one redis-server (pid ${redis.pid}), ${WINDOW} s windows, machine shared (load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);

    const idle0 = ticks(redis.pid!);
    await sleep(WINDOW * 1000);
    const idle = (ticks(redis.pid!) - idle0) / TICK / WINDOW;

    // One long-lived connection, as the agent keeps per instance.
    const conn = await connectAdmin({ host, port, username: 'sampler', password: 'sampler-password' }, 1000);
    const sampler = new InstanceSampler({ instanceId: '00000000-0000-0000-0000-000000000001', clusterId: '00000000-0000-0000-0000-000000000002' }, async () => conn);
    const r0 = ticks(redis.pid!);
    const s0 = process.cpuUsage();
    let samples = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < WINDOW * 1000) {
      await sleep(1000 - (Date.now() % 1000) + 20);
      if (await sampler.sample(Math.floor(Date.now() / 1000) * 1000)) samples++;
    }
    const wall = (Date.now() - t0) / 1000;
    const sampled = (ticks(redis.pid!) - r0) / TICK / wall;
    const own = process.cpuUsage(s0);
    conn.disconnect();
    console.log(`  redis-server CPU idle            ${(idle * 100).toFixed(2)} % of one core`);
    console.log(`  redis-server CPU while sampled   ${(sampled * 100).toFixed(2)} % of one core (${samples} samples)`);
    console.log(`  => sampling cost in redis-server ${((sampled - idle) * 100).toFixed(2)} % of one core (goal: at most 1 %)`);
    console.log(`  sampler (agent side) CPU         ${(((own.user + own.system) / 1e6 / wall) * 100).toFixed(2)} % of one core per instance (includes this script's timers)`);
  } finally {
    redis.kill('SIGTERM');
    await new Promise((r) => redis.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

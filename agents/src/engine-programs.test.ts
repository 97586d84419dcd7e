import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sparesServe } from './engine-supervisor';
import { isRedisOnPort, redisProcessesUnder } from './process-utils';

describe('engines of both kinds', () => {
  it('warm spares (redis-server) go only to Redis 7.0 instances', () => {
    expect(sparesServe({})).toBe(true);
    expect(sparesServe({ engineVersion: '7' })).toBe(true);
    expect(sparesServe({ engineVersion: 'valkey-8' })).toBe(false);
  });

  it('a valkey-server is recognised as an engine on its port and under its directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'strata-valkey-proc-'));
    // Its title is "valkey-server <address>:<port>"; a port of its own on an address no other test uses.
    const port = 20000 + Math.floor(Math.random() * 10000);
    const child = spawn('valkey-server', ['--bind', '127.0.163.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { cwd: dir, stdio: 'ignore' });
    try {
      const pid = child.pid!;
      const deadline = Date.now() + 5000;
      // Its title is set once it has started.
      while (Date.now() < deadline && !isRedisOnPort(pid, port)) await new Promise((r) => setTimeout(r, 20));
      expect(redisProcessesUnder(dir).map((p) => p.pid)).toEqual([pid]);
      expect(isRedisOnPort(pid, port)).toBe(true);
      expect(isRedisOnPort(pid, port + 1)).toBe(false);
      expect(isRedisOnPort(process.pid, port)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

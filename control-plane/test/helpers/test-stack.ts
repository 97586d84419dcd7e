import { mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startStack, type Stack, type StackOptions } from '@strata/local';
import { TestApi } from './api-client';
import { watchLogs } from './failure-logs';

/**
 * A hermetic real stack for one test file: own temp dir, own PostgreSQL,
 * control plane on a free port, agents on their own loopback range.
 */
export async function testStack(addressPrefix: string, opts: Partial<StackOptions> = {}): Promise<{ stack: Stack; api: TestApi; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-test-'));
  let stack: Stack;
  try {
    stack = await startStack({ dir, addressPrefix, port: 0, fastPostgres: true, endWithLauncher: true, ...opts });
  } catch (err) {
    // startStack stopped what it had started; its directory goes too.
    if (!process.env.STRATA_KEEP_TEST_DIRS) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const unwatch = watchLogs(path.join(dir, 'logs'));
  return {
    stack,
    api: new TestApi(stack.url, stack.adminToken),
    cleanup: async () => {
      unwatch();
      await stack.stop();
      // STRATA_KEEP_TEST_DIRS=1 keeps the stack's directory (logs, data) for a post-mortem.
      if (!process.env.STRATA_KEEP_TEST_DIRS) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * PIDs of redis-server processes on these addresses that serve cluster
 * instances (working directory under instances/), or with `spares` the warm
 * spares the agents keep (under spares/).
 */
export function redisPidsOn(addresses: string[], kind: 'instances' | 'spares' = 'instances'): number[] {
  let out = '';
  try {
    out = execFileSync('pgrep', ['-a', 'redis-server|valkey-server'], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out.split('\n').filter((l) => addresses.some((a) => l.includes(`${a}:`))).map((l) => Number(l.split(' ')[0]))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`).includes(`/${kind}/`);
      } catch {
        return false;
      }
    });
}

/**
 * A node's whole host stops: its agent and every engine and warm spare on its address are killed together
 * (SIGKILL), as when the machine dies.
 */
export async function killHost(stack: Stack, index: number): Promise<void> {
  const address = stack.agents[index]!.address;
  await stack.stopAgent(index, 'SIGKILL');
  for (const pid of [...redisPidsOn([address]), ...redisPidsOn([address], 'spares')]) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** The internal (admin) user of the instance at `address`, from its agent's records (instances.json). */
export function internalCredentials(stack: Stack, address: string): { username: string; password: string } {
  const port = Number(address.split(':')[1]);
  for (const a of stack.agents.filter((x) => address.startsWith(`${x.address}:`))) {
    const recs = JSON.parse(readFileSync(`${a.dir}/instances.json`, 'utf8')) as { spec: { port: number }; credentials: { internalUser: string; internalPassword: string } }[];
    const rec = recs.find((x) => x.spec.port === port);
    if (rec) return { username: rec.credentials.internalUser, password: rec.credentials.internalPassword };
  }
  throw new Error(`no agent runs ${address}`);
}

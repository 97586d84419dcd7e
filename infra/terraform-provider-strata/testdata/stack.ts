/**
 * Acceptance-test harness: a live local Strata (embedded PostgreSQL, control plane, agents) for
 * `go test`. Prints {"url","token"} on one line once ready; stops everything when stdin closes
 * (the Go test exits or dies) or on SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack } from '@strata/local';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-tfacc-'));
const stack = await startStack({ endWithLauncher: true,
  dir, port: 0, fastPostgres: true,
  addressPrefix: process.env.STRATA_TEST_ADDRESS_PREFIX ?? '127.0.52',
  nodes: Number(process.env.STRATA_TEST_NODES ?? 2),
});
process.stdout.write(JSON.stringify({ url: stack.url, token: stack.adminToken }) + '\n');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  const { leftoverPids } = await stack.stop();
  rmSync(dir, { recursive: true, force: true });
  if (leftoverPids.length) process.stderr.write(`stopped leftover redis-server ${leftoverPids.join(', ')}\n`);
  process.exit(0);
};
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

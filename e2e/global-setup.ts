import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { startStack, type Stack } from '@strata/local';
import { STACK_FILE, type StackInfo } from './support/stack-info';

const REPO = path.resolve(import.meta.dirname, '..');

declare global {
  // Handed from global-setup to global-teardown (same runner process).
  var __strataStack: Stack | undefined;
}

/**
 * Builds the console if needed and starts a real stack: embedded PostgreSQL,
 * the control plane (serving console/dist) on a free port and three agents
 * running redis-server. Set STRATA_E2E_URL (+ _ADMIN_TOKEN, _ADMIN_PASSWORD)
 * to run against a stack that is already up instead.
 */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  mkdirSync(path.dirname(STACK_FILE), { recursive: true });
  mkdirSync(path.join(import.meta.dirname, 'artifacts'), { recursive: true });
  if (process.env.STRATA_E2E_URL) return;

  if (!existsSync(path.join(REPO, 'console/dist/index.html')) || process.env.STRATA_E2E_BUILD === '1') {
    console.log('[e2e] building the console…');
    execFileSync('npm', ['run', 'build', '--workspace', '@strata/console'], { cwd: REPO, stdio: 'inherit' });
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'strata-e2e-'));
  console.log(`[e2e] starting the stack in ${dir}…`);
  // Our own loopback addresses, so engine ports never collide with a dev,
  // bench or integration-test stack running on the same machine.
  const addressPrefix = process.env.STRATA_E2E_ADDRESS_PREFIX ?? '127.0.77';
  const stack = await startStack({ endWithLauncher: true, dir, nodes: 3, port: 0, fastPostgres: true, addressPrefix });
  globalThis.__strataStack = stack;

  const info: StackInfo = {
    url: stack.url,
    adminEmail: stack.adminEmail,
    adminPassword: stack.adminPassword,
    adminToken: stack.adminToken,
    nodes: stack.nodes,
  };
  writeFileSync(STACK_FILE, JSON.stringify(info, null, 2), { mode: 0o600 });
  // Workers inherit the runner's environment.
  process.env.STRATA_E2E_URL = info.url;
  process.env.STRATA_E2E_ADMIN_EMAIL = info.adminEmail;
  process.env.STRATA_E2E_ADMIN_PASSWORD = info.adminPassword;
  process.env.STRATA_E2E_ADMIN_TOKEN = info.adminToken;
  process.env.STRATA_E2E_NODES = String(info.nodes);
  console.log(`[e2e] stack ready at ${info.url}`);
}

#!/usr/bin/env node
/**
 * Runs the Playwright suite as N shards side by side (STRATA_E2E_SHARDS,
 * default 1: `npm test` runs the integration files beside it, and on two
 * cores a second stack and browser slowed them more than it gained), each
 * against a stack of its own: its own loopback range,
 * PostgreSQL, control plane and agents, its own results folder. No test can
 * see another shard's clusters or nodes, so files that count capacity or
 * drain a node stay exact. Extra arguments go to every `playwright test`.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const here = import.meta.dirname;
const shards = Math.max(1, Number(process.env.STRATA_E2E_SHARDS ?? 1));
const extra = process.argv.slice(2);
const children = new Set();

function runShard(i) {
  const tag = shards > 1 ? `[${i}/${shards}] ` : '';
  const env = {
    ...process.env,
    STRATA_E2E_ADDRESS_PREFIX: `127.0.${76 + i}`,
    STRATA_E2E_OUTPUT: path.join('artifacts', shards > 1 ? `test-results-${i}` : 'test-results'),
    // CI keeps no artifacts: no HTML report there.
    ...(process.env.CI ? {} : { STRATA_E2E_REPORT: path.join('artifacts', shards > 1 ? `report-${i}` : 'report') }),
    STRATA_E2E_STACK_FILE: path.join(here, '.tmp', shards > 1 ? `stack-${i}.json` : 'stack.json'),
  };
  const args = ['playwright', 'test', '-c', 'playwright.config.ts', ...(shards > 1 ? [`--shard=${i}/${shards}`] : []), ...extra];
  return new Promise((resolve) => {
    const child = spawn('npx', args, { cwd: here, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (l) => console.log(`${tag}${l}`));
    child.on('close', (code) => { children.delete(child); resolve(code ?? 1); });
  });
}

// Ctrl-C or a parent's SIGTERM reaches every shard, whose teardown stops its stack.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => { for (const c of children) c.kill(sig); });

/**
 * What the page showed when a test failed (Playwright's error-context.md: the
 * error and the page's accessibility snapshot), printed so a CI log that
 * keeps no artifacts still says why.
 */
function printErrorContexts(dir) {
  if (!existsSync(dir)) return;
  for (const test of readdirSync(dir)) {
    const file = path.join(dir, test, 'error-context.md');
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    console.log(`--- page when ${test} failed (${file}) ---`);
    for (const l of lines.slice(0, 200)) console.log(`  ${l}`);
    if (lines.length > 200) console.log(`  … ${lines.length - 200} more lines`);
  }
}

const codes = await Promise.all(Array.from({ length: shards }, (_, k) => runShard(k + 1)));
codes.forEach((code, k) => { if (code !== 0) printErrorContexts(path.join(here, 'artifacts', shards > 1 ? `test-results-${k + 1}` : 'test-results')); });
const failed = codes.filter((c) => c !== 0).length;
console.log(`e2e: ${shards - failed} of ${shards} shard(s) passed`);
process.exit(failed ? 1 : 0);

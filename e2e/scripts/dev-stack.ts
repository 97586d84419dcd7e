// Starts a real local stack (PostgreSQL, control plane serving console/dist,
// agents with redis-server) and keeps it up until Ctrl-C. For working on the
// console or the e2e suite by hand:  npx tsx e2e/scripts/dev-stack.ts
import { startStack } from '@strata/local';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const dir = process.env.STRATA_E2E_DIR ?? mkdtempSync(path.join(tmpdir(), 'strata-dev-'));
const stack = await startStack({ endWithLauncher: true, dir, nodes: Number(process.env.STRATA_NODES ?? 3), port: Number(process.env.STRATA_PORT ?? 0), fastPostgres: true });
console.log(JSON.stringify({ url: stack.url, adminEmail: stack.adminEmail, adminPassword: stack.adminPassword, adminToken: stack.adminToken, dir }, null, 2));
const stop = async () => {
  await stack.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

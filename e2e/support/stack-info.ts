import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What global-setup hands to the tests (via env, with a JSON file as a fallback). */
export interface StackInfo {
  url: string;
  adminEmail: string;
  adminPassword: string;
  adminToken: string;
  nodes: number;
}

/** Where global-setup writes the stack's details (one file per shard when the suite runs sharded). */
export const STACK_FILE = process.env.STRATA_E2E_STACK_FILE ?? path.join(import.meta.dirname, '..', '.tmp', 'stack.json');

export function stackInfo(): StackInfo {
  const e = process.env;
  if (e.STRATA_E2E_URL && e.STRATA_E2E_ADMIN_TOKEN && e.STRATA_E2E_ADMIN_PASSWORD) {
    return {
      url: e.STRATA_E2E_URL,
      adminEmail: e.STRATA_E2E_ADMIN_EMAIL ?? 'admin@strata.local',
      adminPassword: e.STRATA_E2E_ADMIN_PASSWORD,
      adminToken: e.STRATA_E2E_ADMIN_TOKEN,
      nodes: Number(e.STRATA_E2E_NODES ?? 3),
    };
  }
  return JSON.parse(readFileSync(STACK_FILE, 'utf8')) as StackInfo;
}

/**
 * Integration files run several at a time, each on loopback addresses of its
 * own (127.0.N.x): two files on one prefix bind each other's engine ports and
 * fail, or hang, only when the scheduler happens to run them together. Every
 * prefix a test file names must be its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'artifacts', '.tmp']);

/** The integration files (their fixtures take the prefix from the file that starts them). */
function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith('.int.test.ts')) out.push(p);
  }
  return out;
}

/**
 * 127.0.5.x and 127.0.6.x are shared on purpose: the engine's admin tests start bare redis-servers there, each file
 * on ports of its own (127.0.5: form-cluster 7100-7101, form-cluster-warm 7110-7111, apply-settings 7190, rdb-sync
 * 7191, membership 7200-7201, the fleet fixture 7397-7399; 127.0.6: migrate-slots 7200-7211, slot-move.scripts 7230, tls-switch 7300-7401).
 */
const SHARED = new Set([0, 5, 6]);

describe('loopback prefixes of the integration files', () => {
  it('are each used by one file', () => {
    const users = new Map<number, Set<string>>();
    for (const f of testFiles(ROOT)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/127\.0\.(\d{1,3})(?=[.'"`])/g)) {
        const n = Number(m[1]);
        if (SHARED.has(n)) continue;
        users.set(n, (users.get(n) ?? new Set()).add(path.relative(ROOT, f)));
      }
    }
    expect(users.size).toBeGreaterThan(30);
    const shared = [...users].filter(([, files]) => files.size > 1).map(([n, files]) => `127.0.${n}: ${[...files].sort().join(', ')}`);
    expect(shared).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The log directories of the stacks a test file started, so that a failed
 * test prints the end of each log (CI keeps nothing else). A global, not a
 * module variable: the setup file and the test may load this module apart.
 */
const KEY = Symbol.for('strata.test.logDirs');
const dirs = (): Set<string> => ((globalThis as Record<symbol, Set<string>>)[KEY] ??= new Set<string>());

export function watchLogs(logDir: string): () => void {
  dirs().add(logDir);
  return () => dirs().delete(logDir);
}

/** The last lines of every log of the watched stacks (control plane first), as one block of text. */
export function tailOfLogs(lines = 40): string {
  const out: string[] = [];
  for (const dir of dirs()) {
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter((f) => f.endsWith('.log')).sort((a, b) => Number(b.startsWith('control-plane')) - Number(a.startsWith('control-plane')) || a.localeCompare(b));
    for (const f of files) {
      const text = readFileSync(path.join(dir, f), 'utf8').trimEnd().split('\n');
      out.push(`----- ${path.join(dir, f)} (last ${Math.min(lines, text.length)} of ${text.length} lines)`, ...text.slice(-lines));
    }
  }
  return out.join('\n');
}

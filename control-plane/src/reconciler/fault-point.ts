import { readFileSync, rmSync } from 'node:fs';

/**
 * Fault injection for crash tests. When `file` (STRATA_TEST_FAULT_FILE, read
 * by config.ts) holds `point`, the control plane removes the file and kills
 * itself with SIGKILL (no cleanup, exactly as `kill -9`), so a test can stop
 * it at a defined moment of a heal. Unset in production: then a no-op.
 */
export function faultPoint(file: string | null | undefined, point: string): void {
  if (!file) return;
  let armed: string;
  try {
    armed = readFileSync(file, 'utf8').trim();
  } catch {
    return;
  }
  if (armed !== point) return;
  rmSync(file, { force: true });
  process.kill(process.pid, 'SIGKILL');
}

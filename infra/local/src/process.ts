import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { entryBundle } from './entry-bundle';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

export interface Managed {
  child: ChildProcess;
  exited: Promise<number | null>;
}

/**
 * Starts a TypeScript entry point from its precompiled bundle (see
 * entry-bundle.ts; `STRATA_RUN_WITH_TSX=1` runs the sources through tsx), logs to a file (and optionally the
 * console), and resolves once a line starting with `readyPrefix` is printed.
 */
/** How node runs an entry: from its sources under tsx (STRATA_RUN_WITH_TSX), else its bundle (with source maps). */
async function nodeArgs(entry: string): Promise<string[]> {
  if (process.env.STRATA_RUN_WITH_TSX) return ['--import', 'tsx', entry];
  const profile = process.env.STRATA_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.STRATA_PROFILE_DIR}`] : [];
  return [...profile, '--enable-source-maps', await entryBundle(REPO_ROOT, entry)];
}

/** Starts an entry detached from this process (its own session, no pipes): it outlives this process. */
export async function startDetachedTs(entry: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, await nodeArgs(entry), { cwd: REPO_ROOT, env, detached: true, stdio: 'ignore' });
  child.unref();
  return child;
}

export async function startTs(opts: {
  entry: string; env: NodeJS.ProcessEnv; logFile: string; readyPrefix: string; timeoutMs?: number; echo?: boolean;
  /** Run inside this network namespace (`ip netns exec` execs the command: the child's PID is the process's). */
  netns?: string;
}): Promise<Managed & { readyLine: string }> {
  mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const args = await nodeArgs(opts.entry);
  const [command, argv] = opts.netns ? ['ip', ['netns', 'exec', opts.netns, process.execPath, ...args]] as const : [process.execPath, args] as const;
  const child = spawn(command, argv, {
    cwd: REPO_ROOT, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { log.end(); resolve(code); }));
  child.stderr!.pipe(log, { end: false });
  if (opts.echo) child.stderr!.pipe(process.stderr, { end: false });
  const lines = createInterface({ input: child.stdout! });
  const readyLine = await new Promise<string>((resolve, reject) => {
    // A process that never says it is ready is stopped, not left running unsupervised.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${path.basename(opts.entry)} did not start within ${opts.timeoutMs ?? 60_000} ms (stopped); see ${opts.logFile}`));
    }, opts.timeoutMs ?? 60_000);
    lines.on('line', (line) => {
      log.write(line + '\n');
      if (opts.echo) process.stdout.write(line + '\n');
      if (line.startsWith(opts.readyPrefix)) { clearTimeout(timer); resolve(line); }
    });
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`${path.basename(opts.entry)} exited with code ${code} during start:\n${logTail(opts.logFile)}\n(full log: ${opts.logFile})`)); });
  });
  return { child, exited, readyLine };
}

export async function stopProcess(m: Managed | undefined, signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<void> {
  if (!m || m.child.exitCode !== null || m.child.signalCode !== null) return;
  m.child.kill(signal);
  const t = setTimeout(() => m.child.kill('SIGKILL'), timeoutMs);
  await m.exited;
  clearTimeout(t);
}

/** The last lines a process wrote, to explain why it stopped. */
export function logTail(file: string, lines = 5): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).map((l) => `  ${l}`).join('\n');
}

/**
 * Starts a chaos run's clients on a node host: one process (client-worker.ts)
 * inside the host's network namespace for all of that host's clients, its ops
 * streamed back over its stdout (client-wire.ts).
 *
 * Every worker is bounded three ways: its config's deadline, the end of its
 * stdin (this process gone, even by SIGKILL), and a SIGKILL by PID from here
 * when it does not stop in time or when this process exits.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT } from '../process';
import { STOP_LINE, WorkerStream, type WorkerConfig } from './client-wire';

const WORKER = path.join(import.meta.dirname, 'client-worker.ts');

const live = new Set<number>();
let exitHook = false;
/** SIGKILL to every worker still running (by PID). */
export function killWorkers(): void {
  for (const pid of live) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
}

function killLiveOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', killWorkers);
}

export interface RemoteClients {
  host: string;
  pid: number;
  stream: WorkerStream;
  /** Resolves once the worker's clients append (rejects if it exits or is silent for `readyTimeoutMs`). */
  ready: Promise<void>;
  /** Stops the clients and waits for the process to end (SIGKILL after `timeoutMs`). */
  stop(timeoutMs?: number): Promise<{ whole: boolean; exitCode: number | null; stderr: string }>;
}

export function startRemoteClients(o: { host: string; ns: string; config: WorkerConfig; readyTimeoutMs?: number }): RemoteClients {
  killLiveOnExit();
  const child = spawn('ip', ['netns', 'exec', o.ns, process.execPath, '--import', 'tsx', WORKER], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  // `ip netns exec` execs the command: this PID is the worker's.
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start the chaos clients on ${o.host}`);
  live.add(pid);
  const stream = new WorkerStream();
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  child.stdin!.on('error', () => { /* the worker is gone; its exit says why */ });
  // Only a worker still known to run is killed (its PID is not reused while it is ours).
  const kill = () => { if (live.has(pid)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { live.delete(pid); resolve(code); }));
  const readyTimeoutMs = o.readyTimeoutMs ?? 30_000;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`the chaos clients on ${o.host} did not start within ${readyTimeoutMs / 1000} s (stopped): ${stderr.trim().slice(-500)}`));
    }, readyTimeoutMs);
    markReady = () => { clearTimeout(timer); resolve(); };
    void exited.then((code) => { clearTimeout(timer); if (!stream.ready) reject(new Error(`the chaos clients on ${o.host} exited (${code}) before starting: ${stderr.trim().slice(-500)}`)); });
  });
  ready.catch(() => undefined);
  // Every line written before the exit is read: stop() waits for the stream's end as well.
  const lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const m = stream.accept(line);
    if (m && 'ready' in m) markReady();
  });
  const drained = new Promise<void>((resolve) => lines.once('close', resolve));
  child.stdin!.write(`${JSON.stringify(o.config)}\n`);

  return {
    host: o.host, pid, stream, ready,
    stop: async (timeoutMs = 10_000) => {
      if (child.exitCode === null && child.signalCode === null && !child.stdin!.writableEnded) {
        child.stdin!.write(`${STOP_LINE}\n`);
        child.stdin!.end();
      }
      const t = setTimeout(kill, timeoutMs);
      const exitCode = await exited;
      await drained;
      clearTimeout(t);
      return { whole: stream.whole, exitCode, stderr: stderr.trim() };
    },
  };
}

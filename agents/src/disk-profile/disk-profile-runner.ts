/**
 * Runs a disk profile (a `disk-profile` task) with fio on this node's data
 * volume: only inside `<dataDir>/disk-profile/<profileId>/`, which is removed
 * after each run and, after a crash, by the sweep at agent start. fio runs
 * under `setpriv --pdeathsig KILL`, so it dies with the agent; it is killed
 * by its pid on cancel, at the time limit and when the agent stops.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { profileGroups, profileSeconds, profileSpaceNeeded, type DiskProfileCommand, type DiskProfileReport, type TaskPayload } from '@strata/api';
import { fioArgs, workloadFile } from './fio-job';
import { parseFioOutput, toProfileResult } from './fio-result';
import { readDiskFacts } from './disk-facts';
import { isAlive, processInfo, stopProcesses, worksUnder } from '../process-utils';

type DiskProfilePayload = Extract<TaskPayload, { kind: 'disk-profile' }>;

export const PROFILE_DIR_NAME = 'disk-profile';
export const profileRoot = (dataDir: string) => path.join(dataDir, PROFILE_DIR_NAME);

export interface DiskProfileDeps {
  dataDir: string;
  /** The fio binary (default `fio` on PATH). */
  fio?: string;
  report: (r: DiskProfileReport) => Promise<DiskProfileCommand>;
  log: Logger;
  /** The task's attempt: a second one means the agent died during the first, whose results are gone. */
  attempt: number;
  /** The agent is stopping. */
  stopping: AbortSignal;
  /** How often progress is reported (ms). */
  reportEveryMs?: number;
}

/** Processes working in a profile directory (fio, or the setpriv that execs it): a crashed agent's leftovers. */
export function profileProcesses(dataDir: string): number[] {
  const root = profileRoot(dataDir);
  if (!existsSync(root)) return [];
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).flatMap((n) => {
    const p = processInfo(Number(n));
    return p && worksUnder(p, root) && isAlive(p.pid) ? [p.pid] : [];
  });
}

/** At agent start: kills what a crashed run left and removes its files. */
export async function sweepDiskProfiles(dataDir: string, log: Logger): Promise<void> {
  const root = profileRoot(dataDir);
  if (!existsSync(root)) return;
  const pids = profileProcesses(dataDir);
  if (pids.length) await stopProcesses(pids, 1000);
  rmSync(root, { recursive: true, force: true });
  log.warn({ killed: pids }, 'removed a disk profile left by an earlier agent');
}

type Finish = NonNullable<DiskProfileReport['finished']>;

export async function runDiskProfile(p: DiskProfilePayload, d: DiskProfileDeps): Promise<void> {
  const fio = d.fio ?? 'fio';
  const log = d.log.child({ profileId: p.profileId });
  if (d.attempt > 1) {
    // The first attempt's fio died with its agent (pdeathsig) and the sweep removed its files.
    await d.report({ progress: 0, finished: { status: 'failed', code: 'agent-restarted', message: 'the agent restarted during the run; start the profile again' } }).catch(() => {});
    return;
  }
  const dir = path.join(profileRoot(d.dataDir), p.profileId);
  const total = Math.max(1, profileSeconds(p.workloads));
  const deadline = Date.now() + p.timeLimitSec * 1000;
  let done = 0;
  let finished: Finish = { status: 'completed' };
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    let facts;
    try {
      facts = readDiskFacts(d.dataDir, fio);
    } catch (err) {
      finished = { status: 'failed', code: 'fio-missing', message: `fio could not run on this node (install it: apt-get install fio): ${(err as Error).message}` };
      return;
    }
    const groups = profileGroups(p.workloads);
    const need = profileSpaceNeeded(p.workloads);
    if (facts.freeBytes < need) {
      finished = { status: 'failed', code: 'insufficient_space', message: `the data volume has ${Math.floor(facts.freeBytes / 1e6)} MB free; the profile needs ${Math.ceil(need / 1e6)} MB (twice its test files)` };
      return;
    }
    if ((await d.report({ progress: 0, detail: 'starting', facts })).stop) return void (finished = { status: 'cancelled' });
    for (const group of groups) {
      const seconds = Math.max(...group.map((i) => p.workloads[i]!.durationSec));
      const names = group.map((i) => p.workloads[i]!.name ?? `workload ${i + 1}`).join(' + ');
      for (const i of group) if (p.workloads[i]!.noatime) setNoAtime(workloadFile(dir, i));
      const run = await runFio(fio, fioArgs(p.workloads, group, dir), dir, {
        deadline, stopping: d.stopping, everyMs: d.reportEveryMs ?? 500,
        tick: async (elapsedSec) => (await d.report({ progress: Math.min(0.99, (done + Math.min(seconds, elapsedSec)) / total), detail: `running ${names}` })).stop,
      });
      for (const i of group) rmSync(workloadFile(dir, i), { force: true });
      if (run.outcome === 'stopped') return void (finished = { status: 'cancelled' });
      if (run.outcome === 'time-limit') return void (finished = { status: 'failed', code: 'time-limit', message: `fio was still running at the profile's time limit (${p.timeLimitSec} s)` });
      if (run.outcome === 'agent-stopping') return void (finished = { status: 'failed', code: 'agent-stopping', message: 'the agent stopped during the run' });
      if (run.code !== 0) return void (finished = { status: 'failed', code: 'fio-failed', message: `fio exited with ${run.code}: ${run.stderr.trim().slice(-1500)}` });
      const report = parseFioOutput(run.stdout);
      done += seconds;
      for (const [k, i] of group.entries()) {
        const job = report.jobs.find((j) => j.groupid === k);
        if (!job) return void (finished = { status: 'failed', code: 'fio-failed', message: `fio reported nothing for ${p.workloads[i]!.name ?? `workload ${i + 1}`}` });
        if ((await d.report({ progress: Math.min(0.99, done / total), detail: `finished ${names}`, result: toProfileResult(job, i, p.workloads[i]!) })).stop) {
          return void (finished = { status: 'cancelled' });
        }
      }
    }
  } catch (err) {
    finished = { status: 'failed', code: 'agent-error', message: (err as Error).message };
    log.warn({ err: (err as Error).message }, 'disk profile failed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    try { if (readdirSync(profileRoot(d.dataDir)).length === 0) rmSync(profileRoot(d.dataDir), { recursive: true, force: true }); } catch { /* already gone */ }
    await report(d, { progress: finished.status === 'completed' ? 1 : done / total, finished }, log);
  }
}

/** The final report must arrive: retried a few times. */
async function report(d: DiskProfileDeps, r: DiskProfileReport, log: Logger): Promise<void> {
  for (let i = 0; i < 5; i++) {
    try {
      await d.report(r);
      return;
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'could not report the disk profile; retrying');
      await new Promise((res) => setTimeout(res, 500 * (i + 1)));
    }
  }
}

/** O_NOATIME's effect, as a file attribute (chattr +A) on a file created before fio opens it. */
function setNoAtime(file: string): void {
  writeFileSync(file, '');
  execFileSync('chattr', ['+A', file], { timeout: 5000 });
}

interface FioRun { outcome: 'exited' | 'stopped' | 'time-limit' | 'agent-stopping'; code: number | null; stdout: string; stderr: string }

/** fio, dying with the agent (setpriv --pdeathsig), killed by its pid when asked to stop. */
function runFio(fio: string, args: string[], cwd: string, o: { deadline: number; stopping: AbortSignal; everyMs: number; tick: (elapsedSec: number) => Promise<boolean> }): Promise<FioRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn('setpriv', ['--pdeathsig', 'KILL', '--', fio, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let outcome: FioRun['outcome'] = 'exited';
    child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const started = Date.now();
    const kill = (why: FioRun['outcome']) => {
      if (outcome !== 'exited') return;
      outcome = why;
      if (child.pid) try { process.kill(child.pid, 'SIGKILL'); } catch { /* gone */ }
    };
    const onStopping = () => kill('agent-stopping');
    o.stopping.addEventListener('abort', onStopping);
    let inFlight = false;
    const timer = setInterval(() => {
      if (Date.now() > o.deadline) return kill('time-limit');
      if (inFlight) return;
      inFlight = true;
      o.tick((Date.now() - started) / 1000).then((stop) => stop && kill('stopped'), () => {}).finally(() => (inFlight = false));
    }, o.everyMs);
    child.on('error', (err) => {
      clearInterval(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearInterval(timer);
      o.stopping.removeEventListener('abort', onStopping);
      resolve({ outcome, code, stdout, stderr });
    });
  });
}

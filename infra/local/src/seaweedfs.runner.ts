/**
 * A real S3-compatible object store for tests and benches: SeaweedFS's
 * all-in-one `weed mini` (master, volume, filer and S3 gateway in one
 * process), on its own loopback address and ports, with its own data
 * directory and one access key pair. `scripts/bootstrap.mjs` installs
 * `weed` (scripts/install-seaweedfs.mjs, built from the Go module proxy).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './postgres.runner';
import { logTail } from './process';

export interface SeaweedFs {
  /** http://address:port of the S3 gateway. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The data directory (volumes: where objects' bytes are). */
  dataDir: string;
  pid: number;
  /** Stops it (SIGTERM, then SIGKILL after 10 s); the data directory stays. */
  stop(): Promise<void>;
  /** Starts it again on the same ports and data (after `stop`). */
  restart(): Promise<void>;
}

/** `weed` on PATH, else where `go install` puts it. */
export function findWeed(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, 'weed'))) return path.join(dir, 'weed');
  }
  const gobin = process.env.GOBIN ?? path.join(process.env.GOPATH ?? path.join(os.homedir(), 'go'), 'bin');
  if (existsSync(path.join(gobin, 'weed'))) return path.join(gobin, 'weed');
  throw new Error('SeaweedFS (weed) is not installed: run `node scripts/install-seaweedfs.mjs` (npm test and npm start do it)');
}

/** Whether `url` answers (with `ok`: with a 2xx status). */
const answers = (url: string, ok = false) => new Promise<boolean>((resolve) => {
  const req = http.get(url, { timeout: 1000, headers: { accept: 'application/json' } }, (res) => { res.resume(); resolve(!ok || (res.statusCode ?? 500) < 300); });
  req.on('error', () => resolve(false));
  req.on('timeout', () => { req.destroy(); resolve(false); });
});

export async function startSeaweedFs(opts: { dir: string; address: string; bucket?: string; timeoutMs?: number }): Promise<SeaweedFs> {
  const bin = findWeed();
  const dataDir = path.join(opts.dir, 'data');
  const logDir = path.join(opts.dir, 'logs');
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(logDir, { recursive: true });
  const bucket = opts.bucket ?? 'strata-backups';
  const accessKeyId = 'strata-test-key';
  const secretAccessKey = `secret-${Math.random().toString(36).slice(2)}`;
  const config = path.join(opts.dir, 's3.json');
  writeFileSync(config, JSON.stringify({
    identities: [{ name: 'strata', credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }], actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'] }],
  }), { mode: 0o600 });
  const ports: number[] = [];
  while (ports.length < 10) {
    const p = await freePort(opts.address);
    if (!ports.includes(p)) ports.push(p);
  }
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc, admin, adminGrpc] = ports as [number, ...number[]];
  // -logdir: its log files go beside its data, not into the machine's /tmp.
  const args = [
    `-logdir=${logDir}`, 'mini', `-dir=${dataDir}`, `-ip=${opts.address}`, `-ip.bind=${opts.address}`,
    `-master.port=${master}`, `-master.port.grpc=${masterGrpc}`, `-volume.port=${volume}`, `-volume.port.grpc=${volumeGrpc}`,
    `-filer.port=${filer}`, `-filer.port.grpc=${filerGrpc}`, `-s3.port=${s3}`, `-s3.port.grpc=${s3Grpc}`, '-s3.port.iceberg=0', '-s3.port.lance=0',
    '-admin.ui=false', `-admin.port=${admin}`, `-admin.port.grpc=${adminGrpc}`, '-admin.port.legacy=0', '-webdav=false',
    `-s3.config=${config}`, `-bucket=${bucket}`,
  ];
  const endpoint = `http://${opts.address}:${s3}`;
  let child: ReturnType<typeof spawn> | undefined;
  let exited: Promise<void> = Promise.resolve();
  const logFile = path.join(opts.dir, 'weed.log');

  const launch = async () => {
    const log = createWriteStream(logFile, { flags: 'a' });
    const c = spawn(bin, args, { cwd: opts.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    c.stdout!.pipe(log);
    c.stderr!.pipe(log);
    child = c;
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    // Ready once the S3 gateway answers and the bucket exists (created at start).
    while (!(await answers(`${endpoint}/`)) || !(await answers(`http://${opts.address}:${filer}/buckets/${bucket}/`, true))) {
      if (c.exitCode !== null) throw new Error(`weed exited with code ${c.exitCode} during start:\n${logTail(logFile)}`);
      if (Date.now() > deadline) {
        c.kill('SIGKILL');
        throw new Error(`SeaweedFS did not start within ${opts.timeoutMs ?? 60_000} ms (stopped); see ${logFile}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGTERM');
    const t = setTimeout(() => c.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(t);
  };
  await launch();
  return {
    endpoint, bucket, region: 'us-east-1', accessKeyId, secretAccessKey, dataDir,
    get pid() { return child!.pid!; },
    stop,
    restart: launch,
  };
}

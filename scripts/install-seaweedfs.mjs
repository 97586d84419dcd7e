#!/usr/bin/env node
// Installs SeaweedFS's `weed` (the S3-compatible object store the backup tests and bench run) into
// $GOBIN (default ~/go/bin) unless it is on PATH or already there. Built from the Go module proxy at a
// pinned version; `go install pkg@version` refuses this module (its go.mod has replace directives), so
// the module is downloaded and built in place. The first build takes ~5 minutes on 2 cores; the Go
// build cache makes later ones fast.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SEAWEEDFS_VERSION = 'v0.0.0-20261109003541-7506e5f91cd6';
const say = (msg) => console.log(`\x1b[36m[strata]\x1b[0m ${msg}`);

function goEnv(name) {
  const r = spawnSync('go', ['env', name], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : '';
}

export function weedPath() {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(path.join(dir, 'weed'))) return path.join(dir, 'weed');
  const gobin = process.env.GOBIN || goEnv('GOBIN') || path.join(process.env.GOPATH || goEnv('GOPATH') || path.join(os.homedir(), 'go'), 'bin');
  const bin = path.join(gobin, 'weed');
  return existsSync(bin) ? bin : null;
}

export function installSeaweedFs() {
  const found = weedPath();
  if (found) return found;
  const gobin = process.env.GOBIN || goEnv('GOBIN') || path.join(goEnv('GOPATH') || path.join(os.homedir(), 'go'), 'bin');
  say(`building SeaweedFS ${SEAWEEDFS_VERSION} (weed) from the Go module proxy into ${gobin}; the first build takes a few minutes`);
  const dl = spawnSync('go', ['mod', 'download', '-json', `github.com/seaweedfs/seaweedfs@${SEAWEEDFS_VERSION}`], {
    encoding: 'utf8', cwd: os.tmpdir(), env: { ...process.env, GOFLAGS: '-mod=mod' },
  });
  if (dl.status !== 0) throw new Error(`go mod download of SeaweedFS failed:\n${dl.stderr}`);
  const dir = JSON.parse(dl.stdout).Dir;
  mkdirSync(gobin, { recursive: true });
  const build = spawnSync('go', ['build', '-o', path.join(gobin, 'weed'), './weed'], {
    cwd: dir, stdio: 'inherit', env: { ...process.env, GOFLAGS: '-buildvcs=false' },
  });
  if (build.status !== 0) throw new Error('building SeaweedFS (weed) failed');
  return path.join(gobin, 'weed');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    say(`weed: ${installSeaweedFs()}`);
  } catch (err) {
    console.error(`\x1b[31m[strata]\x1b[0m ${err.message}`);
    process.exit(1);
  }
}

#!/usr/bin/env node
/**
 * Builds the load generator's native YCSB worker: bench/native/ycsb-worker.c
 * (and the headers beside it) -> bench/native/build/ycsb-worker, with `$CC`
 * (default `cc`) -O2. Runs when the project installs (scripts/bootstrap.mjs,
 * `npm run build:native`, a node's provisioning), never on a node at run
 * time: the load generator only looks for the binary. Rebuilds only when a
 * source is newer than the binary.
 *
 *   node bench/scripts/build-native.mjs [--force] [--optional]
 *
 * --force     rebuild even when the binary is up to date
 * --optional  a missing compiler or a failed build is a warning, not an error (the load generator then uses its JS worker)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const nativeDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../native');
const source = path.join(nativeDir, 'ycsb-worker.c');
const binary = path.join(nativeDir, 'build', 'ycsb-worker');
const force = process.argv.includes('--force');
const optional = process.argv.includes('--optional');
const cc = process.env.CC || 'cc';
const rel = (p) => path.relative(process.cwd(), p) || p;

const sources = readdirSync(nativeDir).filter((f) => /\.[ch]$/.test(f)).map((f) => path.join(nativeDir, f));
const newestSource = Math.max(...sources.map((f) => statSync(f).mtimeMs));
if (!force && existsSync(binary) && statSync(binary).mtimeMs >= newestSource) process.exit(0);

mkdirSync(path.dirname(binary), { recursive: true });
const tmp = `${binary}.${process.pid}.tmp`;
console.log(`building the native load generator worker: ${cc} -O2 -o ${rel(binary)} ${rel(source)}`);
const r = spawnSync(cc, ['-O2', '-Wall', '-o', tmp, source, '-lm'], { stdio: ['ignore', 'inherit', 'inherit'] });
if (r.error || r.status !== 0) {
  rmSync(tmp, { force: true });
  // a binary older than its sources would run what the sources no longer say: better none (auto then runs js)
  if (existsSync(binary) && statSync(binary).mtimeMs < newestSource) rmSync(binary);
  const why = r.error?.code === 'ENOENT' ? `no C compiler (${cc}; install gcc, or set CC)` : `${cc} failed`;
  if (optional) {
    console.log(`native load generator worker not built: ${why}; benchmarks use the JS worker`);
    process.exit(0);
  }
  console.error(`native load generator worker not built: ${why}`);
  process.exit(1);
}
renameSync(tmp, binary); // atomic: a concurrent build of the same sources yields the same file

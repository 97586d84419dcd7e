#!/usr/bin/env node
// Installs the valkey-8 engine (Valkey 8: Redis 7.2's protocol and cluster bus) from Debian's bookworm-backports
// when valkey-server or valkey-cli is missing: only valkey-server and valkey-tools come from backports
// (`apt-get install -t bookworm-backports` on them alone), and the backports source is added in a file of its
// own only when no apt source lists it. Not valkey-redis-compat: `redis-server` on PATH stays Debian's Redis 7.0.
// The package's own service is not left running (where services start on install, it would serve 6379).
// Throws with what is missing and how to install it when not root. Run alone: node scripts/install-valkey.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BACKPORTS_SOURCE_FILE = '/etc/apt/sources.list.d/strata-bookworm-backports.sources';
const HOW = 'add Debian bookworm-backports to apt\'s sources, then: apt-get install -t bookworm-backports valkey-server valkey-tools';
const say = (msg) => console.log(`\x1b[36m[strata]\x1b[0m ${msg}`);
const onPath = (bin) => (process.env.PATH ?? '').split(':').some((d) => d && existsSync(path.join(d, bin)));
export const valkeyPresent = () => onPath('valkey-server') && onPath('valkey-cli');

function backportsListed() {
  const dir = '/etc/apt/sources.list.d';
  const files = ['/etc/apt/sources.list', ...(existsSync(dir) ? readdirSync(dir).map((f) => path.join(dir, f)) : [])];
  return files.some((f) => /\.(list|sources)$|sources\.list$/.test(f) && existsSync(f) && /^[^#\n]*bookworm-backports/m.test(readFileSync(f, 'utf8')));
}

function apt(args) {
  const r = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
}

/** The package's service, when the install started it (no policy-rc.d): a valkey-server on 6379 of its own config. */
function stopPackagedService() {
  const r = spawnSync('pgrep', ['-f', '^/usr/bin/valkey-server .*:6379'], { encoding: 'utf8' });
  if (r.status !== 0) return;
  say('stopping the valkey-server service the package started (Strata starts its own instances)');
  spawnSync('sh', ['-c', 'invoke-rc.d valkey-server stop || service valkey-server stop; update-rc.d valkey-server disable'], { stdio: 'inherit' });
}

export function installValkey() {
  if (valkeyPresent()) return;
  if (process.getuid?.() !== 0) throw new Error(`missing: valkey-server and valkey-cli (the valkey-8 engine). As root: ${HOW}`);
  if (!backportsListed()) {
    say(`adding Debian bookworm-backports to apt's sources (${BACKPORTS_SOURCE_FILE}) for valkey-server`);
    writeFileSync(BACKPORTS_SOURCE_FILE, [
      'Types: deb', 'URIs: http://deb.debian.org/debian', 'Suites: bookworm-backports', 'Components: main',
      'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg', '',
    ].join('\n'));
  }
  say('installing valkey-server valkey-tools from bookworm-backports (the valkey-8 engine)');
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', '-t', 'bookworm-backports', 'valkey-server', 'valkey-tools']);
  stopPackagedService();
  if (!valkeyPresent()) throw new Error(`valkey-server or valkey-cli still missing after apt: ${HOW}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try { installValkey(); say(`valkey-server: ${spawnSync('valkey-server', ['--version'], { encoding: 'utf8' }).stdout.trim()}`); } catch (err) { console.error(err.message); process.exit(1); }
}

import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { bundleFileName } from './entry-names';

export { runsEntry } from './entry-names';

/**
 * Precompiled entry points. Starting the control plane or an agent through
 * tsx transforms and resolves a few hundred TypeScript files on every start
 * (about a second of CPU); the launcher and the tests start them dozens of
 * times. An entry is bundled once with esbuild (workspace packages inlined,
 * npm packages left as imports) and rebuilt only when a source is newer than
 * the bundle, so an edited file is never run stale.
 */

/** Folders whose TypeScript ends up in the control plane and agent bundles. */
const SOURCE_DIRS = ['control-plane/src', 'api/src', 'engine/src', 'bench/src', 'agents/src'];

function newestMtime(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Modules that find files next to themselves (migrations, a worker's boot
 * file) keep their own location inside a bundle: `import.meta.url` and
 * `import.meta.dirname` are replaced by the source file's.
 */
const keepModuleLocation: Plugin = {
  name: 'keep-module-location',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const contents = source
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href));
      return { contents, loader: 'ts' };
    });
  },
};

/** Bare imports of npm packages stay imports; the project's own `@strata/*` packages are inlined. */
const externalNpmPackages: Plugin = {
  name: 'external-npm-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@strata/') ? undefined : { path: args.path, external: true }));
  },
};

const built = new Map<string, Promise<string>>();

/**
 * The bundle of `entry` (an absolute path to a .ts file under `repoRoot`),
 * built or rebuilt when missing or older than any source. Concurrent callers
 * (parallel test files) may each build; the rename makes the result whole.
 */
export function entryBundle(repoRoot: string, entry: string): Promise<string> {
  let p = built.get(entry);
  if (!p) {
    p = bundle(repoRoot, entry);
    built.set(entry, p);
    p.catch(() => built.delete(entry));
  }
  return p;
}

async function bundle(repoRoot: string, entry: string): Promise<string> {
  const outDir = path.join(repoRoot, 'node_modules', '.strata-bundles');
  const out = path.join(outDir, bundleFileName(path.relative(repoRoot, entry).split(path.sep).join('/')));
  const sources = Math.max(...SOURCE_DIRS.map((d) => newestMtime(path.join(repoRoot, d))));
  if (existsSync(out) && statSync(out).mtimeMs > sources) return out;
  mkdirSync(outDir, { recursive: true });
  const tmp = `${out}.${process.pid}.${Date.now()}.tmp`;
  await build({
    entryPoints: [entry], outfile: tmp, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    sourcemap: 'inline', logLevel: 'warning', plugins: [externalNpmPackages, keepModuleLocation],
    // Bundled CommonJS helpers call require(); give ESM output one.
    banner: { js: "import { createRequire as __strataRequire } from 'node:module'; const require = __strataRequire(import.meta.url);" },
    absWorkingDir: repoRoot,
  });
  renameSync(tmp, out);
  return out;
}

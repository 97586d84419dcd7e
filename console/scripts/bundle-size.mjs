// Initial JavaScript of the console: every chunk index.html loads or
// modulepreloads, gzip-compressed. Run after `npm run build`.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

let total = 0;
console.log('Initial load (index.html):');
for (const f of initial) {
  const n = gz(f);
  total += n;
  console.log(`  ${f.padEnd(48)} ${kb(n)}`);
}
console.log(`  ${'total'.padEnd(48)} ${kb(total)} gzip${total > 250 * 1024 ? '  (over the 250 KB budget!)' : ''}`);
console.log('Lazy chunks:');
for (const f of readdirSync(join(dist, 'assets')).filter((x) => x.endsWith('.js') && !initial.includes(`assets/${x}`)).sort()) {
  console.log(`  ${`assets/${f}`.padEnd(48)} ${kb(gz(`assets/${f}`))}`);
}
if (total > 250 * 1024) process.exit(1);

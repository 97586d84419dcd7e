#!/usr/bin/env node
// Refreshes scripts/integration-durations.json from a Vitest JSON report:
//   npx vitest run --project integration --reporter=json --outputFile=.tmp/int.json && npm run test:durations
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const report = JSON.parse(readFileSync(process.argv[2] ?? path.join(root, '.tmp/int.json'), 'utf8'));
const seconds = Object.fromEntries(report.testResults
  .map((r) => [path.relative(root, r.name), Math.round((r.endTime - r.startTime) / 1000)])
  .sort((a, b) => b[1] - a[1]));
writeFileSync(path.join(root, 'scripts/integration-durations.json'), JSON.stringify(seconds, null, 2) + '\n');
console.log(`${Object.keys(seconds).length} files`);

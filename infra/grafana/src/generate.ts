/** Writes infra/grafana/dashboards/*.json from the builders in dashboards.ts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DASHBOARDS } from './dashboards';

export const DASHBOARD_DIR = path.resolve(import.meta.dirname, '../dashboards');

export function renderDashboards(): Record<string, string> {
  return Object.fromEntries(Object.entries(DASHBOARDS).map(([name, build]) => [`${name}.json`, JSON.stringify(build().build(), null, 2) + '\n']));
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  mkdirSync(DASHBOARD_DIR, { recursive: true });
  for (const [file, text] of Object.entries(renderDashboards())) {
    writeFileSync(path.join(DASHBOARD_DIR, file), text);
    console.log(`wrote ${path.join(DASHBOARD_DIR, file)}`);
  }
}

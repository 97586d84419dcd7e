import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderDashboards, DASHBOARD_DIR } from '../src/generate';
import { promqlOf } from '../src/dashboards';

describe('Grafana dashboards as code', () => {
  it('the committed JSON is what the builders generate (run `npm run generate -w @strata/grafana`)', () => {
    for (const [file, text] of Object.entries(renderDashboards())) {
      expect(readFileSync(path.join(DASHBOARD_DIR, file), 'utf8'), file).toBe(text);
    }
  });

  it('every panel has a query on the provisioned Prometheus datasource', () => {
    for (const text of Object.values(renderDashboards())) {
      const d = JSON.parse(text) as { uid: string; panels: { type: string; datasource?: { uid: string }; targets?: unknown[] }[] };
      const panels = d.panels.filter((p) => p.type !== 'row');
      expect(panels.length).toBeGreaterThan(5);
      for (const p of panels) {
        expect(p.datasource?.uid).toBe('strata-prometheus');
        expect(p.targets?.length).toBeGreaterThan(0);
      }
      expect(promqlOf(d).length).toBeGreaterThanOrEqual(panels.length);
    }
  });
});

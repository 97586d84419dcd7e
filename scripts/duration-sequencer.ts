import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Runs the integration files that take longest first, so that with several
 * files at a time the last one to start is a short one. Durations (seconds)
 * come from `integration-durations.json` beside this file, refreshed with
 * `npm run test:durations` after a run; a file it does not list runs first.
 * Vitest's own cache would do the same, but a fresh clone has none.
 */
export class DurationSequencer extends BaseSequencer {
  private readonly seconds: Record<string, number> = JSON.parse(readFileSync(path.join(import.meta.dirname, 'integration-durations.json'), 'utf8'));

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (f: TestSpecification) => this.seconds[path.relative(root, f.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}

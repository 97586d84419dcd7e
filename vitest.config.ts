import { defineConfig } from 'vitest/config';
import { DurationSequencer } from './scripts/duration-sequencer';

// Two groups: `unit` (pure code, fakes allowed, fast) and `integration`
// (*.int.test.ts: real PostgreSQL, redis-server and agent processes).
export default defineConfig({
  test: {
    // Longest integration files first (several run at a time).
    sequence: { sequencer: DurationSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          // Nothing here is timed: npm test runs these beside the integration
          // and e2e suites, where a CPU-heavy test (generating the API's types)
          // can wait several seconds for a core.
          testTimeout: 30_000,
          include: ['{api,control-plane,engine,bench,agents,infra}/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{api,control-plane,engine,bench,agents,infra}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A failed test prints the end of its stacks' logs.
          setupFiles: ['control-plane/test/setup/logs-on-failure.ts'],
        },
      },
    ],
  },
});

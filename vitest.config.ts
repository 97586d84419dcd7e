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
        },
      },
    ],
  },
});

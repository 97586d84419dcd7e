import { defineConfig } from 'vitest/config';

// Two groups: `unit` (pure code, fakes allowed, fast) and `integration`
// (*.int.test.ts: real PostgreSQL, redis-server and agent processes).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{control-plane,engine,bench,agents,infra}/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{control-plane,engine,bench,agents,infra}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

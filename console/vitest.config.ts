import { defineConfig } from 'vitest/config';

// Pure logic tests (formatters, snippets, wizard summary, error mapping).
export default defineConfig({
  test: {
    name: 'console',
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});

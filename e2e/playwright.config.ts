import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser.
const CHROMIUM = process.env.STRATA_E2E_CHROMIUM ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './tests',
  testMatch: '**/*.e2e.ts',
  outputDir: process.env.STRATA_E2E_OUTPUT ?? './artifacts/test-results',
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 180_000,
  // Beside the integration suite the machine's 2 cores run at 100 %: a first paint or a lazy chunk can take over 10 s.
  expect: { timeout: 20_000 },
  // CI keeps no artifacts (a failed test prints its page snapshot); STRATA_E2E_REPORT writes an HTML report there.
  reporter: process.env.STRATA_E2E_REPORT ? [['list'], ['html', { outputFolder: process.env.STRATA_E2E_REPORT, open: 'never' }]] : [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1360, height: 900 },
    screenshot: 'only-on-failure',
    // CI keeps no artifacts (a failed test prints its page snapshot instead), and recording a trace costs the browser
    // a screencast of every test; locally a failed test keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // The console stops its spinners and shimmer for users who ask for less motion: the browser then paints less.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-dev-shm-usage',
      ],
    },
  },
});

import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { DEFAULT_TIMINGS } from './reconciler/timings';

const base = { DATABASE_URL: 'postgres://u@localhost/db' };

describe('reconciler timings from the environment', () => {
  it("defaults to today's values", () => {
    expect(loadConfig(base).reconciler).toEqual(DEFAULT_TIMINGS);
    expect(loadConfig(base).testFaultFile).toBeNull();
  });

  it('each can be shortened (tests do)', () => {
    const c = loadConfig({
      ...base,
      STRATA_RECONCILE_TICK_MS: '50', STRATA_RECONCILE_REQUEUE_MS: '10', STRATA_RECONCILE_SWEEP_MS: '200', STRATA_RECONCILE_SETTLED_RECHECK_MS: '1000',
      STRATA_RECONCILE_LEASE_MS: '1000', STRATA_RECONCILE_NODES_TTL_MS: '0', STRATA_RECONCILE_RETRY_BASE_MS: '10', STRATA_RECONCILE_RETRY_MAX_MS: '100',
      STRATA_UPDATE_HEADLESS_WAIT_MS: '3000', STRATA_UPDATE_FORGET_WAIT_MS: '2000', STRATA_UPDATE_MIGRATE_RETRY_BASE_MS: '20',
      STRATA_UPDATE_MIGRATE_REPORT_WAIT_MS: '100', STRATA_CREATE_REFORM_AFTER_MS: '500', STRATA_TEST_FAULT_FILE: '/tmp/fault',
    });
    expect(c.reconciler).toEqual({
      tickMs: 50, requeueMs: 10, sweepMs: 200, settledRecheckMs: 1000, leaseMs: 1000, nodesTtlMs: 0, retryBaseMs: 10, retryMaxMs: 100,
      headlessWaitMs: 3000, forgetWaitMs: 2000, migrateRetryBaseMs: 20, migrateReportWaitMs: 100, reformAfterMs: 500,
    });
    expect(c.testFaultFile).toBe('/tmp/fault');
  });

  it('refuses nonsense', () => {
    expect(() => loadConfig({ ...base, STRATA_RECONCILE_TICK_MS: '0' })).toThrow(/STRATA_RECONCILE_TICK_MS/);
    expect(() => loadConfig({ ...base, STRATA_RECONCILE_LEASE_MS: 'soon' })).toThrow(/STRATA_RECONCILE_LEASE_MS/);
  });
});

describe('certificate renewal window', () => {
  it('is 30 days unless STRATA_TLS_RENEW_BEFORE_DAYS says otherwise', () => {
    expect(loadConfig(base).tlsRenewBeforeMs).toBe(30 * 86_400_000);
    expect(loadConfig({ ...base, STRATA_TLS_RENEW_BEFORE_DAYS: '400' }).tlsRenewBeforeMs).toBe(400 * 86_400_000);
  });

  it('refuses a window of no days, a fraction, or one longer than half a CA', () => {
    for (const bad of ['0', '1.5', 'monthly', '1801']) expect(() => loadConfig({ ...base, STRATA_TLS_RENEW_BEFORE_DAYS: bad })).toThrow(/STRATA_TLS_RENEW_BEFORE_DAYS/);
  });
});

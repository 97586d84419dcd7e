import type { Page } from '@playwright/test';

/** A problem a page showed: an error in its console, an uncaught exception, or a request that failed. */
export interface PageProblem {
  kind: 'console' | 'pageerror' | 'requestfailed' | 'http';
  text: string;
  /** The request (or the resource a console message is about). */
  url?: string;
  method?: string;
  status?: number;
}

/** A failure a test provokes on purpose, e.g. `{ method: 'POST', url: /\/v1\/clusters$/, status: 409 }`. */
export interface AllowedProblem {
  url: RegExp;
  method?: string;
  status?: number;
}

/** Request failures that are not the console's: navigation cutting a request off, or the machine's network changing. */
const NOT_THE_CONSOLES = /ERR_ABORTED|ERR_NETWORK_CHANGED/;

/**
 * Watches pages for console errors, uncaught exceptions, failed requests and
 * HTTP errors. A test fails on any it did not declare with `allow`. Requests
 * cut off by navigation (net::ERR_ABORTED) are not failures a user sees, nor
 * those Chromium drops when the machine's network changes
 * (net::ERR_NETWORK_CHANGED): `npm test` runs the integration files beside
 * this suite, and they create and remove network namespaces and bridges.
 */
export class ConsoleGuard {
  readonly problems: PageProblem[] = [];
  private readonly allowed: AllowedProblem[] = [];

  allow(a: AllowedProblem): void {
    this.allowed.push(a);
  }

  watch(page: Page): void {
    page.on('console', (m) => {
      if (m.type() !== 'error' || /net::ERR_NETWORK_CHANGED/.test(m.text())) return;
      const url = m.location().url || undefined;
      // Chromium logs every 4xx/5xx as "Failed to load resource"; the response event carries its method and status.
      const status = /status of (\d{3})/.exec(m.text())?.[1];
      this.problems.push({ kind: 'console', text: m.text(), url, status: status ? Number(status) : undefined });
    });
    page.on('pageerror', (e) => this.problems.push({ kind: 'pageerror', text: e.message }));
    page.on('requestfailed', (r) => {
      const reason = r.failure()?.errorText ?? 'failed';
      if (NOT_THE_CONSOLES.test(reason)) return;
      this.problems.push({ kind: 'requestfailed', text: reason, url: r.url(), method: r.method() });
    });
    page.on('response', (r) => {
      if (r.status() < 400) return;
      this.problems.push({ kind: 'http', text: `HTTP ${r.status()}`, url: r.url(), method: r.request().method(), status: r.status() });
    });
  }

  unexpected(): PageProblem[] {
    return this.problems.filter((p) => !this.allowed.some((a) => this.matches(a, p)));
  }

  private matches(a: AllowedProblem, p: PageProblem): boolean {
    if (!p.url || !a.url.test(p.url)) return false;
    if (a.status !== undefined && p.status !== undefined && a.status !== p.status) return false;
    if (a.method && p.method && a.method !== p.method) return false;
    // A console line about an allowed failed resource has a url and a status only.
    return p.kind === 'http' || p.kind === 'console' || p.kind === 'requestfailed';
  }
}

import { lazy, type ComponentType } from 'react';

/**
 * What React.lazy loads for a page part: the picked component, or (when
 * Vite resolved the import with nothing) a wait that never ends. When a
 * part's file cannot be fetched, main.tsx reloads the page (it prevents
 * vite:preloadError) and Vite resolves the import with nothing: the part
 * waits for the reload instead of failing on the missing module.
 */
export function partLoader<M, C>(load: () => Promise<M | undefined>, pick: (m: M) => C): () => Promise<{ default: C }> {
  return () => load().then((m) => (m === undefined ? new Promise<never>(() => {}) : { default: pick(m) }));
}

/** A page part loaded on demand (its own chunk); see partLoader. */
export function lazyPart<M, P extends object>(load: () => Promise<M | undefined>, pick: (m: M) => ComponentType<P>) {
  return lazy(partLoader(load, pick));
}

/** Reloads for parts that failed to load, allowed within RELOAD_WINDOW_MS (more: the part's error is shown instead). */
export const MAX_RELOADS = 3;
export const RELOAD_WINDOW_MS = 60_000;

/**
 * Whether a part that failed to load may reload the page now, given the times of the earlier such reloads (kept
 * in sessionStorage across them): up to MAX_RELOADS a minute. One is not always enough: a request cut off by a
 * network change can be cut off again right after the reload, while a file that is really gone would reload
 * the page forever. Returns the times to keep.
 */
export function reloadForPart(now: number, earlier: number[]): { reload: boolean; keep: number[] } {
  const recent = earlier.filter((t) => now - t < RELOAD_WINDOW_MS);
  return recent.length < MAX_RELOADS ? { reload: true, keep: [...recent, now] } : { reload: false, keep: recent };
}

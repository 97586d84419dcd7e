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

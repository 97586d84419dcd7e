/**
 * A deliberately tiny client-side router (History API). The console has a
 * handful of routes; a full router library would cost more bytes than the
 * whole app shell. Links are real <a href> elements, so keyboard navigation,
 * middle-click and "open in new tab" work as users expect.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('popstate', notify);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
}

function snapshot(): string {
  return window.location.pathname + window.location.search;
}

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (opts.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  notify();
  if (!opts.replace) window.scrollTo(0, 0);
}

/** Current path + search string, re-rendering on navigation. */
export function useLocation(): { pathname: string; search: URLSearchParams } {
  const loc = useSyncExternalStore(subscribe, snapshot, () => '/');
  const q = loc.indexOf('?');
  return {
    pathname: q === -1 ? loc : loc.slice(0, q),
    search: new URLSearchParams(q === -1 ? '' : loc.slice(q + 1)),
  };
}

/** Matches "/clusters/:id/:tab?" style patterns. Returns params or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const pat = pattern.split('/').filter(Boolean);
  const parts = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  const params: Record<string, string> = {};
  let i = 0;
  for (; i < pat.length; i++) {
    const seg = pat[i]!;
    const part = parts[i];
    const optional = seg.endsWith('?');
    if (seg.startsWith(':')) {
      const key = seg.slice(1, optional ? -1 : undefined);
      if (part === undefined) {
        if (optional) continue;
        return null;
      }
      params[key] = decodeURIComponent(part);
    } else if (seg !== part) {
      return null;
    }
  }
  return parts.length > pat.length ? null : params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string; replace?: boolean };

export function Link({ to, replace, onClick, ...rest }: LinkProps) {
  function handle(e: MouseEvent<HTMLAnchorElement>) {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    e.preventDefault();
    navigate(to, { replace });
  }
  return <a href={to} onClick={handle} {...rest} />;
}

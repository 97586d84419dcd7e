/**
 * Live-stream state shared by every query: whether the event stream is open
 * (then polling is only a slow fallback) and which clusters the stream said
 * are gone (so no page asks for them again and logs a 404).
 */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();
let live = false;
const deleted = new Set<string>();
let version = 0;

function emit(): void {
  version++;
  for (const l of listeners) l();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function isLive(): boolean {
  return live;
}

export function setLive(open: boolean): void {
  if (open === live) return;
  live = open;
  emit();
}

export function markClusterDeleted(id: string): void {
  if (deleted.has(id)) return;
  deleted.add(id);
  emit();
}

export function isClusterDeleted(id: string): boolean {
  return deleted.has(id);
}

export function useLiveState(): { live: boolean } {
  useSyncExternalStore(subscribe, () => version);
  return { live };
}

export function useClusterDeleted(id: string): boolean {
  useSyncExternalStore(subscribe, () => version);
  return deleted.has(id);
}

/** Polling interval: as asked while the stream is down; a slow safety net while it is live. */
export function pollMs(ms: number): number {
  return live ? Math.max(ms, LIVE_FALLBACK_POLL_MS) : ms;
}

export const LIVE_FALLBACK_POLL_MS = 30_000;

/** Tests only. */
export function resetLiveStore(): void {
  live = false;
  deleted.clear();
  emit();
}

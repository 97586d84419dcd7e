/**
 * The result of an action, shown for a few seconds in one polite live region
 * (`<Toaster />` in the app shell): "Switchover of Shard 2 requested", "Node
 * node-2 is draining". A failure stays until dismissed. Call `toast()` from
 * a mutation's onSuccess / onError; components never render toasts themselves.
 */
import { useSyncExternalStore } from 'react';

export type ToastTone = 'success' | 'danger' | 'info';
export interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
}

let items: Toast[] = [];
let next = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export const TOAST_MS = 5000;

export function dismissToast(id: number): void {
  items = items.filter((t) => t.id !== id);
  emit();
}

export function toast(message: string, tone: ToastTone = 'success'): number {
  const id = next++;
  items = [...items.slice(-3), { id, tone, message }];
  emit();
  if (tone !== 'danger') setTimeout(() => dismissToast(id), TOAST_MS);
  return id;
}

export function useToasts(): Toast[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => items,
  );
}

/** Merges the slow logs of several instances into one list: newest first, the slowest first within a second, then by instance and entry id. */
export interface Mergeable {
  at: string;
  durationMicros: number;
  instanceId: string;
  id: number;
}

export function mergeSlowLogs<T extends Mergeable>(lists: readonly (readonly T[])[], limit = Infinity): T[] {
  const all = lists.flat();
  all.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0) || b.durationMicros - a.durationMicros || a.instanceId.localeCompare(b.instanceId) || b.id - a.id);
  return all.slice(0, limit);
}

/**
 * One rule on one cluster, one evaluation (pure code): whether its alert fires,
 * resolves or neither.
 *
 * A gauge or state is breached while its value is above the threshold; the
 * alert fires at the first sample taken `forSeconds` or more after the first
 * sample above (timed by the samples' own seconds, so a late push neither
 * delays nor hastens it): the value crossed before that first sample, so it
 * has been above for at least `forSeconds`. It resolves at the first sample
 * that is not above. Events count happenings in
 * the last `forSeconds`: the alert fires while there are more than the
 * threshold and resolves when the window holds no more. No value (a cluster
 * with no fresh sample) changes nothing.
 */
export interface Breach {
  /** The first second (unix) of the current breach; null when not breached. */
  since: number | null;
}

export interface Observation {
  /** The value, or null when there is none. */
  value: number | null;
  /** The unix second the value is for. */
  sec: number;
}

export type Verdict = { action: 'fire'; value: number } | { action: 'resolve'; value: number } | { action: 'none' };

export function evaluate(rule: { threshold: number; forSeconds: number; kind: 'gauge' | 'state' | 'event' }, breach: Breach, firing: boolean, o: Observation): Verdict {
  if (o.value === null) return { action: 'none' };
  const above = o.value > rule.threshold;
  if (!above) {
    breach.since = null;
    return firing ? { action: 'resolve', value: o.value } : { action: 'none' };
  }
  if (rule.kind === 'event') return firing ? { action: 'none' } : { action: 'fire', value: o.value };
  if (breach.since === null || o.sec < breach.since) breach.since = o.sec;
  return !firing && o.sec - breach.since >= rule.forSeconds ? { action: 'fire', value: o.value } : { action: 'none' };
}

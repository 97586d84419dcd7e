import { CA_RETIRE_AFTER_SECONDS, type Operation } from '@strata/api';

/** How long the old CA stays trusted once every instance serves the new one: the choices the Rotate CA dialog offers. */
export const RETIRE_AFTER_CHOICES: readonly { seconds: number; label: string }[] = [
  { seconds: 0, label: 'Right away (only if no client trusts the old CA alone)' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: CA_RETIRE_AFTER_SECONDS.max, label: '30 days' },
];

/** A rotation stays on the Connect tab while it runs and for a while after it ended. */
const SHOWN_AFTER_MS = 10 * 60_000;

/** The CA rotation to show: the newest operation if it is one, running or ended within 10 minutes. */
export function shownRotation(ops: readonly Operation[] | undefined, now: number): Operation | undefined {
  const latest = ops?.[0];
  if (latest?.kind !== 'rotate-ca') return undefined;
  if (latest.state === 'pending' || latest.state === 'running') return latest;
  return now - Date.parse(latest.finishedAt ?? latest.updatedAt) < SHOWN_AFTER_MS ? latest : undefined;
}

export type RotationStage = { title: string; ca: 'both' | 'new' | null; note: string };

/**
 * Where a rotation stands, for clients: which CAs the CA file holds now
 * (both until the old one is retired) and what to do about it.
 */
export function rotationStage(op: Operation): RotationStage {
  const step = (name: string) => op.steps.find((s) => s.name === name)?.state;
  if (op.state === 'failed' || op.state === 'cancelled') {
    return { title: `CA rotation ${op.state}`, ca: null, note: op.error?.message ?? 'The instances keep trusting the CAs they trust now.' };
  }
  if (op.state === 'succeeded') {
    return { title: 'CA rotated', ca: 'new', note: 'The old CA is retired: the CA file holds the new CA alone. Clients that still trust only the old CA are refused; give them this file.' };
  }
  if (step('retire-old-ca') === 'succeeded') {
    return { title: 'Old CA retired', ca: 'new', note: 'The CA file holds the new CA alone; the instances are being re-issued certificates from it.' };
  }
  if (step('reissue') === 'succeeded') {
    return { title: 'Waiting to retire the old CA', ca: 'both', note: 'Every instance serves a certificate from the new CA. Download the CA file (it holds both CAs) and give it to your clients before the old CA is retired.' };
  }
  return { title: 'Rotating the CA', ca: 'both', note: 'The CA file holds the new CA and the old one: download it and give it to your clients.' };
}

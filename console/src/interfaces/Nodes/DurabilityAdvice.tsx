import type { Durability } from '@strata/api';
import { useDurabilityAdviceQuery } from '../../data/disk-profiles/durability-advice-query';
import './disk-profile.css';

/**
 * What the nodes' disks can take at a durability level, from their newest Redis disk profile (the
 * slowest node counts: a shard may land on any). Nothing when no node has been profiled.
 */
export function DurabilityAdvice({ durability }: { durability: Durability }) {
  const advice = useDurabilityAdviceQuery();
  const fleet = advice.data?.fleet;
  const level = fleet?.levels.find((l) => l.durability === durability);
  if (!fleet || !level) return null;
  const nodes = advice.data!.items.length;
  return (
    <p className="durability-advice" data-testid="durability-advice">
      {level.writesPerSec === null ? 'Disk: not a limit at this level.' : `Disk ceiling: ~${Math.round(level.writesPerSec).toLocaleString('en-US')} writes/s per shard for a client writing one at a time.`}{' '}
      <span className="muted">{level.summary} (Redis disk profile of {nodes === 1 ? '1 node' : `${nodes} nodes`}, slowest shown.)</span>
    </p>
  );
}

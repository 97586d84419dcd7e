import type { SlotRange } from '@strata/api';
import { TOTAL_SLOTS, formatSlotRange } from '../../lib/format';

const PALETTE = ['#6366f1', '#0ea5e9', '#14b8a6', '#f59e0b', '#ec4899', '#8b5cf6', '#22c55e', '#ef4444'];

export function shardColor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

export function slotCount(ranges: readonly SlotRange[]): number {
  return ranges.reduce((n, r) => n + (r.end - r.start + 1), 0);
}

/** A shard's slot ranges drawn on the 0..16383 hash-slot space. */
export function SlotBar({ ranges, index }: { ranges: readonly SlotRange[]; index: number }) {
  const label =
    ranges.length === 0
      ? 'No slots assigned'
      : `Slots ${ranges.map(formatSlotRange).join(', ')} of 0–${TOTAL_SLOTS - 1}`;
  return (
    <div className="slotbar" role="img" aria-label={label}>
      <div className="slotbar-track">
        {ranges.map((r) => (
          <span
            key={`${r.start}-${r.end}`}
            className="slotbar-seg"
            style={{
              left: `${(r.start / TOTAL_SLOTS) * 100}%`,
              width: `max(2px, ${((r.end - r.start + 1) / TOTAL_SLOTS) * 100}%)`,
              background: shardColor(index),
            }}
          />
        ))}
      </div>
      <div className="slotbar-axis" aria-hidden="true">
        <span>0</span>
        <span>8192</span>
        <span>16383</span>
      </div>
    </div>
  );
}

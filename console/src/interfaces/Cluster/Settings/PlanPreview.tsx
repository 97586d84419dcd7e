import { shardLabel, shardName } from '@strata/api';
import type { TopologyPlan } from '@strata/api';
import { TOTAL_SLOTS, formatMemoryMb, formatSlotRange, plural } from '../../../lib/format';
import { shardColor } from '../SlotBar';
import { changeLabel, changeValue } from './ApplyConfirm';

/** The dry-run plan: slot ranges moving on the 0..16383 bar, instances added or removed per node, the ordered steps. */
export function PlanPreview({ plan, shards, applying, onApply, onDiscard }: {
  plan: TopologyPlan; shards: number; applying: boolean; onApply: () => void; onDiscard: () => void;
}) {
  const byNode = new Map<string, { added: TopologyPlan['addInstances']; removed: TopologyPlan['removeInstances'] }>();
  for (const a of plan.addInstances) (byNode.get(a.nodeName) ?? byNode.set(a.nodeName, { added: [], removed: [] }).get(a.nodeName)!).added.push(a);
  for (const r of plan.removeInstances) (byNode.get(r.nodeName) ?? byNode.set(r.nodeName, { added: [], removed: [] }).get(r.nodeName)!).removed.push(r);
  return (
    <section className="card settings-card" aria-labelledby="plan-title" data-testid="plan-preview">
      <h2 id="plan-title" className="card-title">Plan</h2>
      <p className="small">
        {plan.changes.map((c) => `${changeLabel(c.field)}: ${changeValue(c.field, c.from)} → ${changeValue(c.field, c.to)}`).join(' · ')}{' '}
        <span className={plan.online ? 'badge badge-success' : 'badge badge-warning'}>{plan.online ? 'online' : 'needs downtime'}</span>
      </p>
      {plan.slotMoves.length > 0 && (
        <>
          <h3 className="field-label">Slots moving: {plan.totals.slots.toLocaleString()} slots, about {plan.totals.keys.toLocaleString()} keys and {formatMemoryMb(Math.round(plan.totals.bytes / 1048576))} (estimated from the data now)</h3>
          <div className="slotbar" role="img" aria-label={`${plan.totals.slots} slots move: ${plan.slotMoves.map((m) => `${shardName(m.fromShard)} to ${shardName(m.toShard)}`).join(', ')}`} data-testid="plan-slotbar">
            <div className="slotbar-track">
              {plan.slotMoves.flatMap((m) => m.slots.map((r) => (
                <span
                  key={`${m.fromShard}-${m.toShard}-${r.start}`}
                  className="slotbar-seg"
                  title={`slots ${formatSlotRange(r)}: ${shardName(m.fromShard)} → ${shardName(m.toShard)}`}
                  style={{ left: `${(r.start / TOTAL_SLOTS) * 100}%`, width: `max(2px, ${((r.end - r.start + 1) / TOTAL_SLOTS) * 100}%)`, background: `linear-gradient(90deg, ${shardColor(m.fromShard)}, ${shardColor(m.toShard)})` }}
                />
              )))}
            </div>
            <div className="slotbar-axis" aria-hidden="true"><span>0</span><span>8192</span><span>16383</span></div>
          </div>
          <table className="table table-cards small" data-testid="plan-moves">
            <thead><tr><th>From</th><th>To</th><th>Slots</th><th>Est. keys</th><th>Est. data</th></tr></thead>
            <tbody>
              {plan.slotMoves.map((m) => (
                <tr key={`${m.fromShard}-${m.toShard}`}>
                  <td data-label="From"><span className="shard-chip"><span className="swatch" style={{ background: shardColor(m.fromShard) }} /> <span data-testid="shard-label">{shardLabel(m.fromShard)}</span></span></td>
                  <td data-label="To"><span className="shard-chip"><span className="swatch" style={{ background: shardColor(m.toShard) }} /> <span data-testid="shard-label">{shardLabel(m.toShard)}</span></span></td>
                  <td data-label="Slots">{m.slotCount} ({m.slots.slice(0, 2).map(formatSlotRange).join(', ')}{m.slots.length > 2 ? '…' : ''})</td>
                  <td data-label="Est. keys">{m.estimatedKeys.toLocaleString()}</td>
                  <td data-label="Est. data">{formatMemoryMb(Math.round(m.estimatedBytes / 1048576))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {plan.migrationCosts.length > 0 && (
            <>
              <h3 className="field-label">What the move costs (runs at {plan.migrationPriority} priority)</h3>
              <ul className="list-plain small" data-testid="plan-costs">
                {plan.migrationCosts.map((c) => (
                  <li key={c.priority}><strong>{c.priority}</strong>{c.priority === plan.migrationPriority ? ' (chosen)' : ''}: {c.summary}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {byNode.size > 0 && (
        <>
          <h3 className="field-label">Instances by node</h3>
          <ul className="list-plain" data-testid="plan-instances">
            {[...byNode.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([node, v]) => (
              <li key={node}>
                <strong>{node}</strong>:{' '}
                {v.added.map((a) => <span key={`a${a.shard}-${a.port}`} className="badge badge-success">+ {shardName(a.shard)} {a.role} :{a.port}</span>)}
                {v.removed.map((r) => <span key={`r${r.instanceId}`} className="badge badge-danger">− {shardName(r.shard)} {r.role} :{r.port}</span>)}
              </li>
            ))}
          </ul>
        </>
      )}
      <h3 className="field-label">Steps</h3>
      <ol className="small" data-testid="plan-steps">
        {plan.steps.map((s) => <li key={s.name}>{s.title}</li>)}
      </ol>
      {plan.notes.length > 0 && <ul className="muted small">{plan.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
      <p className="muted small">{plural(shards, 'shard')} involved.</p>
      <div className="form-actions">
        <button type="button" className="btn btn-secondary" onClick={onDiscard}>Discard</button>
        <button type="button" className="btn btn-primary" onClick={onApply} disabled={applying}>{applying ? 'Applying…' : 'Apply'}</button>
      </div>
    </section>
  );
}

import { describe, expect, it } from 'vitest';
import { LeaseWatch } from './lease-watch';

describe('LeaseWatch', () => {
  it('goes on while heartbeats renew the lease, and stops when the control plane asks', () => {
    const w = new LeaseWatch(0, true, 6000);
    expect(w.answer({ kind: 'renewed', stop: false }, 2000)).toBeNull();
    expect(w.answer({ kind: 'renewed', stop: true }, 4000)).toMatch(/asks the task to stop/);
  });

  it('stops once a heartbeat is refused (the task was taken back)', () => {
    expect(new LeaseWatch(0, true, 6000).answer({ kind: 'refused' }, 2000)).toMatch(/no longer leased by this node/);
  });

  it('rides out unanswered heartbeats within a lease, and stops past it (counted from the last renewal)', () => {
    const w = new LeaseWatch(0, true, 6000);
    expect(w.answer({ kind: 'unanswered' }, 2000)).toBeNull();
    expect(w.answer({ kind: 'renewed', stop: false }, 4000)).toBeNull();
    expect(w.answer({ kind: 'unanswered' }, 9000)).toBeNull();
    expect(w.answer({ kind: 'unanswered' }, 10_001)).toMatch(/lease not renewed for 6001 ms/);
  });

  it('a task only its own node can run rides out a control-plane outage, but not a refusal', () => {
    const w = new LeaseWatch(0, false, 6000);
    expect(w.answer({ kind: 'unanswered' }, 60_000)).toBeNull();
    expect(w.answer({ kind: 'refused' }, 61_000)).toMatch(/no longer leased/);
  });
});

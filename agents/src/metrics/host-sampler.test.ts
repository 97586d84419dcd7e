import { describe, expect, it } from 'vitest';
import { parseMeminfo, parseProcStat } from './host-sampler';

describe('host sampling parsers', () => {
  it('reads busy and total jiffies from /proc/stat (idle and iowait are not busy)', () => {
    const t = parseProcStat('cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 50 2 25 400 20 1 1 0 0 0\n');
    expect(t.total).toBe(1000);
    expect(t.busy).toBe(160);
  });

  it('reads MemTotal and MemAvailable in bytes', () => {
    expect(parseMeminfo('MemTotal:       24684128 kB\nMemFree:        1000 kB\nMemAvailable:   23571200 kB\n')).toEqual({
      total: 24684128 * 1024, available: 23571200 * 1024,
    });
  });
});

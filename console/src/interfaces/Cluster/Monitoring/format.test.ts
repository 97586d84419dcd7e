import { describe, expect, it } from 'vitest';
import { formatBytes, formatMicros, formatPercent, formatRate } from './format';

describe('metric formatters', () => {
  it('formats rates, latencies, bytes and shares', () => {
    expect(formatRate(0)).toBe('0.0 ops/s');
    expect(formatRate(1234)).toBe('1,234 ops/s');
    expect(formatRate(45_600)).toBe('45.6k ops/s');
    expect(formatRate(2_500_000, '')).toBe('2.50M');
    expect(formatRate(null)).toBe('—');
    expect(formatMicros(3.2)).toBe('3.2 µs');
    expect(formatMicros(1500)).toBe('1.5 ms');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatPercent(0.414)).toBe('41%');
  });
});

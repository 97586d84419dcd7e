import { describe, expect, it } from 'vitest';
import { formatAge, formatMemoryMb } from './format';

describe('format', () => {
  it('formats memory', () => {
    expect(formatMemoryMb(256)).toBe('256 MB');
    expect(formatMemoryMb(1024)).toBe('1 GB');
    expect(formatMemoryMb(1536)).toBe('1.5 GB');
  });
  it('formats age', () => {
    const now = Date.parse('2025-01-02T00:00:00Z');
    expect(formatAge('2025-01-01T23:59:30Z', now)).toBe('30s');
    expect(formatAge('2025-01-01T23:00:00Z', now)).toBe('1h');
    expect(formatAge('2024-12-20T00:00:00Z', now)).toBe('13d');
    expect(formatAge(null, now)).toBe('—');
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nulFields, parseBody } from './validate';
import { AppError } from '../errors';
import { problemFromError } from './problem.middleware';

describe('nulFields', () => {
  it('finds NUL bytes in values and keys at any depth', () => {
    expect(nulFields({ a: 'ok', b: { c: ['x', 'y\u0000'] }, ['k\u0000']: 1 })).toEqual([
      { field: 'b.c.1', message: 'must not contain a NUL byte' },
      { field: 'k\\0', message: 'field names must not contain a NUL byte' },
    ]);
    expect(nulFields('\u0000')).toEqual([{ field: '(body)', message: 'must not contain a NUL byte' }]);
    expect(nulFields({ a: 'fine', n: 1, t: true, z: null })).toEqual([]);
  });
});

describe('parseBody', () => {
  it('rejects NUL even where the schema itself would accept any string', () => {
    const loose = z.object({ note: z.string() });
    try {
      parseBody(loose, { note: 'x\u0000' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(400);
      expect((err as AppError).errors).toEqual([{ field: 'note', message: 'must not contain a NUL byte' }]);
    }
    expect(parseBody(loose, { note: 'x' })).toEqual({ note: 'x' });
  });
});

describe('problemFromError', () => {
  it('maps an oversized body to 413 payload_too_large', () => {
    const p = problemFromError(Object.assign(new Error('too large'), { type: 'entity.too.large', limit: 1024 }));
    expect(p).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(p.detail).toContain('1024 bytes');
  });
});

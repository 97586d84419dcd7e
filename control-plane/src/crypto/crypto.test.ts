import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';
import { hashPassword, hashToken, newToken, verifyPassword } from './tokens';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));
  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('hunter2-password');
    expect(sealed).not.toContain('hunter2');
    expect(box.open(sealed)).toBe('hunter2-password');
  });
  it('rejects tampered ciphertext', () => {
    const sealed = box.seal('x');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('y').toString('base64');
    expect(() => box.open(parts.join('.'))).toThrow();
  });
  it('rejects another key', () => {
    expect(() => new SecretBox(randomBytes(32)).open(box.seal('x'))).toThrow();
  });
});

describe('passwords and tokens', () => {
  it('verifies the right password only', async () => {
    const h = await hashPassword('correct horse');
    expect(h.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('correct horse', h)).toBe(true);
    expect(await verifyPassword('wrong horse', h)).toBe(false);
  });
  it('makes distinct prefixed tokens with stable hashes', () => {
    const a = newToken('stk');
    expect(a).toMatch(/^stk_[A-Za-z0-9_-]{32}$/);
    expect(newToken('stk')).not.toBe(a);
    expect(hashToken(a)).toBe(hashToken(a));
  });
});

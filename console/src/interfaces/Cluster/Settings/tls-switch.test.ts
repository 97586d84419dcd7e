import { describe, expect, it } from 'vitest';
import type { Cluster } from '@strata/api';
import { tlsSwitchBlocked, tlsSwitchImpact } from './tls-switch';

const cluster = (engineVersion: '7' | 'valkey-8') => ({ spec: { engineVersion } }) as Cluster;

describe('TLS switch (Settings)', () => {
  it('engine 7 says why it cannot switch in place; valkey-8 can', () => {
    expect(tlsSwitchBlocked(cluster('7'))).toMatch(/valkey-8.*one client port/);
    expect(tlsSwitchBlocked(cluster('valkey-8'))).toBeNull();
  });

  it('says what each switch serves and what it closes, in order', () => {
    expect(tlsSwitchImpact('off', 'preferred')[0]).toMatch(/serving TLS on a second port/);
    expect(tlsSwitchImpact('off', 'preferred').join(' ')).not.toMatch(/disconnected/);
    const on = tlsSwitchImpact('off', 'required');
    expect(on[1]).toMatch(/Plain text then closes.*redis:\/\/ are disconnected/);
    expect(tlsSwitchImpact('preferred', 'off')[0]).toMatch(/TLS then closes.*rediss:\/\//);
    expect(tlsSwitchImpact('required', 'off')[0]).toMatch(/plain text on a second port/);
    for (const [from, to] of [['off', 'required'], ['required', 'off'], ['preferred', 'required']] as const) {
      expect(tlsSwitchImpact(from, to).at(-1)).toMatch(/No restart/);
    }
  });
});

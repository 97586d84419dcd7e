import { describe, expect, it } from 'vitest';
import { floatingAddressProblem, keepalivedConfig, takeoverSeconds, type FloatingAddressSpec } from './keepalived-config';

const spec: FloatingAddressSpec = {
  address: '10.0.1.200', prefixLength: 24, interface: 'eth0', sourceAddress: '10.0.1.11', peers: ['10.0.1.12', '10.0.1.13'],
  priority: 254, routerId: 51, advertSeconds: 0.5,
};

describe('keepalived configuration', () => {
  it('one VRRPv3 instance: unicast to the peers, every host BACKUP without preemption, the address on the interface', () => {
    const text = keepalivedConfig(spec, 'node-1');
    expect(text).toContain('vrrp_version 3');
    expect(text).toMatch(/state BACKUP\n\s+nopreempt/);
    expect(text).toContain('priority 254');
    expect(text).toContain('advert_int 0.5');
    expect(text).toContain('unicast_src_ip 10.0.1.11');
    expect(text).toMatch(/unicast_peer \{\n\s+10\.0\.1\.12\n\s+10\.0\.1\.13\n\s+\}/);
    expect(text).toMatch(/virtual_ipaddress \{\n\s+10\.0\.1\.200\/24 dev eth0\n/);
    expect(text).toContain('garp_lower_prio_repeat 1');
    // Braces balance: keepalived ignores what follows an unbalanced block.
    expect(text.split('{').length).toBe(text.split('}').length);
  });

  it('a lone host has no unicast block', () => {
    const text = keepalivedConfig({ ...spec, peers: [] }, 'solo');
    expect(text).not.toContain('unicast');
    expect(text.split('{').length).toBe(text.split('}').length);
  });

  it('a name cannot break out of its line', () => {
    expect(keepalivedConfig(spec, 'evil }\ninclude /etc/x')).toContain('router_id evil___include__etc_x');
  });

  it.each([
    [{ address: '10.0.1' }, /IPv4/],
    [{ prefixLength: 33 }, /prefix length/],
    [{ interface: 'eth0; rm' }, /interface/],
    [{ peers: ['10.0.1.11'] }, /own address/],
    [{ peers: ['10.0.1.200'] }, /own address|must not/],
    [{ priority: 255 }, /priority/],
    [{ routerId: 0 }, /router id/],
    [{ advertSeconds: 0.001 }, /advert/],
  ] as [Partial<FloatingAddressSpec>, RegExp][])('refuses %j', (change, message) => {
    expect(floatingAddressProblem({ ...spec, ...change })).toMatch(message);
    expect(() => keepalivedConfig({ ...spec, ...change }, 'n')).toThrow(message);
  });

  it('a silent holder loses the address after about three adverts', () => {
    expect(takeoverSeconds({ advertSeconds: 0.5, priority: 254 })).toBeCloseTo(1.504, 3);
    expect(takeoverSeconds({ advertSeconds: 1, priority: 100 })).toBeCloseTo(3.609, 3);
  });
});

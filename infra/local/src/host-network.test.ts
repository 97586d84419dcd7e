import { describe, expect, it } from 'vitest';
import { hostNetworkNames, hostSubnet, onClientHost } from './host-network';

describe('host network names', () => {
  it('hosts at .11.., the floating endpoint address at .200, the client host at .250, all named by the tag', () => {
    const { tag, subnet } = hostSubnet('127.255.255');
    const net = hostNetworkNames(tag, subnet, 3);
    expect(net.hosts.map((h) => h.address)).toEqual(['10.255.255.11', '10.255.255.12', '10.255.255.13']);
    expect(net.floatingAddress).toBe('10.255.255.200');
    expect(net.client).toEqual({ ns: 'strata-255x255-client', address: '10.255.255.250', veth: 'stv255x255c' });
    // Namespaces share the prefix a cleanup looks for; link names fit the kernel's 15 characters.
    for (const h of [...net.hosts, net.client]) expect(h.ns.startsWith(`strata-${tag}-`)).toBe(true);
    for (const name of [net.bridge, ...net.hosts.map((h) => h.veth), net.client.veth]) expect(name.length).toBeLessThanOrEqual(15);
  });

  it('runs a command on the client host through ip netns exec', () => {
    const net = hostNetworkNames('0x1', '10.0.1', 1);
    expect(onClientHost(net, 'redis-cli', ['-u', 'redis://x'])).toEqual(['ip', ['netns', 'exec', 'strata-0x1-client', 'redis-cli', '-u', 'redis://x']]);
  });
});

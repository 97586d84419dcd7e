import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { loopbackAddress } from './loopback';
import { isWildcard, portHolders } from './leftovers';

const servers: net.Server[] = [];
afterEach(() => { for (const s of servers.splice(0)) s.close(); });
const listen = (host: string) => new Promise<number>((resolve, reject) => {
  const s = net.createServer().listen(0, host, () => resolve((s.address() as net.AddressInfo).port)).on('error', reject);
  servers.push(s);
});

describe('portHolders (/proc/net/tcp and /proc/<pid>/fd)', () => {
  it('finds a listener on a loopback address and the process holding it', async () => {
    const host = loopbackAddress('127.0.163.7');
    const port = await listen(host);
    expect(portHolders((a, p) => a === host && p === port)).toEqual([{ address: host, port, pid: process.pid }]);
    expect(portHolders((a, p) => a === host && p === port + 1)).toEqual([]);
  });

  it('reads a wildcard IPv6 listener as "::"', async () => {
    const port = await listen('::');
    expect(portHolders((a, p) => isWildcard(a) && p === port)).toEqual([{ address: '::', port, pid: process.pid }]);
  });
});

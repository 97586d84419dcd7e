import net from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointServer } from './endpoint-server';

const freePort = () => new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as net.AddressInfo;
    s.close(() => resolve(port));
  });
});

let server: EndpointServer | undefined;
afterEach(() => server?.stop());

describe('endpoint server on a floating address', () => {
  it('listens whether or not this host holds the address, and reports serving only while it holds it', async () => {
    const port = await freePort();
    let holds = false;
    server = new EndpointServer({ fetch: async () => ({ host: '127.0.0.1', items: [] }), log: pino({ level: 'silent' }), holdsAddress: () => holds });
    server.apply({ host: '127.0.0.1', items: [{ clusterId: 'c1', port, targets: [] }] });
    await expect.poll(() => new Promise<boolean>((resolve) => {
      const c = net.connect({ host: '127.0.0.1', port }).once('connect', () => { c.destroy(); resolve(true); }).once('error', () => resolve(false));
    }), { timeout: 2000, interval: 20 }).toBe(true);
    expect(server.servingPorts()).toEqual([]);
    holds = true;
    expect(server.servingPorts()).toEqual([port]);
  });
});

import net from 'node:net';

/**
 * What a plain-text client gets from host:port after sending PING: the bytes
 * received before the server closed the connection (or 500 ms passed). Empty
 * from a TLS-only port, `+PONG`/`-NOAUTH…` from a plain-text one.
 */
export function plainPing(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    let got = '';
    const done = () => { clearTimeout(t); s.destroy(); resolve(got); };
    const t = setTimeout(done, 500);
    s.on('connect', () => s.write('PING\r\n'));
    s.on('data', (d) => { got += d.toString('latin1'); });
    s.on('close', done);
    s.on('error', done);
  });
}

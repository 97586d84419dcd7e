import { describe, expect, it } from 'vitest';
import { layoutAfter, layoutPorts, planTlsChange, replicationPortAfter, secondProtocolMovesHome, stageConnection, stageName, switchOrder, tlsSwitchActs, tlsTargetOf, TLS_LAYOUTS, type TlsSwitchMember, type TlsTarget } from './tls-switch.plan';

const m: TlsSwitchMember = { host: '10.0.0.1', port: 7000, secondPort: 7100, role: 'primary' };
const settings = (acts: ReturnType<typeof tlsSwitchActs>) => acts.map((a) => (a.kind === 'config' ? Object.fromEntries(a.settings) : { kill: a.address }));

describe('in-place TLS switch plan', () => {
  it('replicas before primaries (a primary announcing its new port is what moves its replicas)', () => {
    const members = [{ role: 'primary' as const, n: 1 }, { role: 'replica' as const, n: 2 }, { role: 'primary' as const, n: 3 }, { role: 'replica' as const, n: 4 }];
    expect(switchOrder(members).map((x) => x.n)).toEqual([2, 4, 1, 3]);
  });

  it('on: TLS beside plain text on the second port, replication to TLS, the bus port pinned; then plain text closed and cut, TLS on the port', () => {
    expect(settings(tlsSwitchActs('on', 'serve-both', m))).toEqual([
      { 'tls-cert-file': 'tls/instance.crt', 'tls-key-file': 'tls/instance.key', 'tls-ca-cert-file': 'tls/ca.crt', 'tls-auth-clients': 'no', 'cluster-announce-bus-port': '17000' },
      { 'tls-replication': 'yes' },
      { 'tls-port': '7100', 'cluster-announce-tls-port': '7100' },
    ]);
    expect(settings(tlsSwitchActs('on', 'finish', m))).toEqual([
      { port: '0', 'cluster-announce-port': '0' },
      { kill: '10.0.0.1:7000' },
      { 'tls-port': '7000', 'cluster-announce-tls-port': '7000' },
    ]);
  });

  it('off: plain text beside TLS on the second port, replication to plain text; then TLS closed and cut, plain text on the port', () => {
    expect(settings(tlsSwitchActs('off', 'serve-both', m))).toEqual([
      { 'cluster-announce-bus-port': '17000' },
      { 'tls-replication': 'no' },
      { port: '7100', 'cluster-announce-port': '7100' },
    ]);
    expect(settings(tlsSwitchActs('off', 'finish', m))).toEqual([
      { 'tls-port': '0', 'cluster-announce-tls-port': '0' },
      { kill: '10.0.0.1:7000' },
      { port: '7000', 'cluster-announce-port': '7000' },
    ]);
  });

  it('client certificates follow the cluster when TLS comes on', () => {
    expect(settings(tlsSwitchActs('on', 'serve-both', m, { clientAuth: 'required' }))[0]).toMatchObject({ 'tls-auth-clients': 'yes' });
  });

  it('Strata speaks the old protocol on the port during serve-both, the new one on the second port during finish (both stay open throughout)', () => {
    expect(stageConnection('on', 'serve-both', m)).toEqual({ tls: false, port: 7000 });
    expect(stageConnection('on', 'finish', m)).toEqual({ tls: true, port: 7100 });
    expect(stageConnection('off', 'serve-both', m)).toEqual({ tls: true, port: 7000 });
    expect(stageConnection('off', 'finish', m)).toEqual({ tls: false, port: 7100 });
  });

  it('withdraw undoes serve-both: replication back first, then the second port closed and its connections cut', () => {
    expect(settings(tlsSwitchActs('on', 'withdraw', m))).toEqual([
      { 'tls-replication': 'no' },
      { 'tls-port': '0', 'cluster-announce-tls-port': '0' },
      { kill: '10.0.0.1:7100' },
    ]);
    expect(settings(tlsSwitchActs('off', 'withdraw', m))).toEqual([
      { 'tls-replication': 'yes' },
      { port: '0', 'cluster-announce-port': '0' },
      { kill: '10.0.0.1:7100' },
    ]);
    // Over the port, which keeps the old protocol throughout; replication ends on the port.
    expect(stageConnection('on', 'withdraw', m)).toEqual({ tls: false, port: 7000 });
    expect(stageConnection('off', 'withdraw', m)).toEqual({ tls: true, port: 7000 });
    expect(replicationPortAfter('withdraw', m)).toBe(7000);
    expect(replicationPortAfter('serve-both', m)).toBe(7100);
    expect(replicationPortAfter('finish', m)).toBe(7000);
  });
});

describe('TLS change plan (what a PATCH of tls runs)', () => {
  const names = (from: Parameters<typeof planTlsChange>[0], to: TlsTarget) => planTlsChange(from, to).map((s) => `${stageName(s.step)}>${s.after}`);

  it.each([
    ['plain', 'preferred', ['serve-tls-beside-plain>plain+tls']],
    ['plain', 'required', ['serve-tls-beside-plain>plain+tls', 'close-plain>tls']],
    ['plain+tls', 'required', ['close-plain>tls']],
    ['plain+tls', 'off', ['close-second-tls>plain']],
    ['tls', 'off', ['serve-plain-beside-tls>tls+plain', 'close-tls>plain']],
    ['tls', 'preferred', ['serve-plain-beside-tls>tls+plain']],
    ['tls+plain', 'off', ['close-tls>plain']],
    ['tls+plain', 'required', ['close-second-plain>tls']],
    ['plain', 'off', []],
    ['plain+tls', 'preferred', []],
    ['tls+plain', 'preferred', []],
    ['tls', 'required', []],
  ] as const)('%s -> %s', (from, to, expected) => {
    expect(names(from, to)).toEqual(expected);
  });

  it('every plan ends where the setting asks, each stage a move the engine knows, never without the old protocol before the new one was offered', () => {
    for (const from of TLS_LAYOUTS) {
      for (const to of ['off', 'preferred', 'required'] as const) {
        let at = from;
        for (const s of planTlsChange(from, to)) {
          const next = layoutAfter(at, s.step);
          expect(next, `${at} ${stageName(s.step)}`).toBe(s.after);
          // A single protocol is only ever reached from a layout serving both.
          if (next === 'plain' || next === 'tls') expect(at === 'plain+tls' || at === 'tls+plain').toBe(true);
          at = next!;
        }
        expect(tlsTargetOf(at)).toBe(to);
      }
    }
  });

  it('what the ports serve in each layout', () => {
    expect(layoutPorts('plain', 7000, null)).toEqual({ plainPort: 7000, tlsPort: 0, tlsReplication: false });
    expect(layoutPorts('plain+tls', 7000, 7100)).toEqual({ plainPort: 7000, tlsPort: 7100, tlsReplication: true });
    expect(layoutPorts('tls+plain', 7000, 7100)).toEqual({ plainPort: 7100, tlsPort: 7000, tlsReplication: false });
    expect(layoutPorts('tls', 7000, null)).toEqual({ plainPort: 0, tlsPort: 7000, tlsReplication: true });
    expect(() => layoutPorts('plain+tls', 7000, null)).toThrow(/second port/);
  });
});

describe('secondProtocolMovesHome', () => {
  it('is true only when the second ports\' protocol is what the own ports serve next', () => {
    const moves = TLS_LAYOUTS.flatMap((a) => TLS_LAYOUTS.filter((b) => secondProtocolMovesHome(a, b)).map((b) => `${a}>${b}`));
    expect(moves).toEqual(['plain+tls>tls', 'tls+plain>plain']);
  });
});

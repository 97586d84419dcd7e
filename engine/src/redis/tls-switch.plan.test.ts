import { describe, expect, it } from 'vitest';
import { stageConnection, switchOrder, tlsSwitchActs, type TlsSwitchMember } from './tls-switch.plan';

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
});

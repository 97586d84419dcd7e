import { describe, expect, it } from 'vitest';
import { membership, nodesToForget, type KnownNode } from './membership.rule';

const node = (id: string, host: string, port: number, myself = false): KnownNode => ({ id, host, port, myself });

describe('nodesToForget: every node with neither a member id nor a member address', () => {
  const members = membership([
    { host: '10.0.0.1', port: 7000, engineId: 'A' },
    { host: '10.0.0.2', port: 7000, engineId: null }, // never seen running: kept by its address
    { host: '10.0.0.3', port: 7001, engineId: 'C' },
  ], ['B']);

  const table: [string, KnownNode[], string[]][] = [
    ['a healthy view forgets nothing', [node('A', '10.0.0.1', 7000, true), node('B', '10.0.0.2', 7000), node('C', '10.0.0.3', 7001)], []],
    ['a lost copy (no member id, no member address)', [node('A', '10.0.0.1', 7000, true), node('L', '10.0.0.9', 7000)], ['L']],
    ['a removed instance on a member host but another port', [node('A', '10.0.0.1', 7000, true), node('R', '10.0.0.3', 7002)], ['R']],
    ['a member known only by address (handshake id) is kept', [node('A', '10.0.0.1', 7000, true), node('tmp', '10.0.0.2', 7000)], []],
    ['a member whose id is recorded but shown without address is kept', [node('A', '10.0.0.1', 7000, true), node('C', '', 0)], []],
    ['a stranger without address is forgotten', [node('A', '10.0.0.1', 7000, true), node('S', '', 0)], ['S']],
    ['myself is never forgotten', [node('Z', '10.0.0.8', 7000, true)], []],
  ];
  it.each(table)('%s', (_name, known, expected) => {
    expect(nodesToForget(known, members)).toEqual(expected);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nativeSpecHeader, sequenceLines, ycsbVectors, type YcsbVectors } from './ycsb-spec';

const VECTORS = fileURLToPath(new URL('../../spec/ycsb-vectors.json', import.meta.url));
const HEADER = fileURLToPath(new URL('../../native/ycsb-spec.h', import.meta.url));
const REGENERATE = 'run `npm run generate:spec -w @strata/bench` (then `npm run build:native`) and commit both files';

describe('the YCSB spec rendered from the TypeScript implementation', () => {
  const checkedIn = JSON.parse(readFileSync(VECTORS, 'utf8')) as YcsbVectors;

  // ~3 s of CPU (120,000 ops, their keys and commands): more under a loaded machine than the default 5 s allow
  it(`bench/spec/ycsb-vectors.json is what the TypeScript computes (${REGENERATE} if this fails)`, { timeout: 60_000 }, () => {
    expect(ycsbVectors()).toEqual(checkedIn);
  });

  it(`bench/native/ycsb-spec.h is generated from the TypeScript constants (${REGENERATE} if this fails)`, () => {
    expect(readFileSync(HEADER, 'utf8')).toBe(nativeSpecHeader());
  });

  it("holds BENCHMARKS.md's golden keys and covers every op kind of every workload", { timeout: 60_000 }, () => {
    for (const k of ['0 user6284781860667377211 ', '1 user8517097267634966620 ', '2 user1820151046732198393 ']) expect(checkedIn.keys.some((l) => l.startsWith(k))).toBe(true);
    const kinds = (w: string) => new Set(checkedIn.sequences.filter((s) => s.workload === w).flatMap((s) => sequenceLines(s).map((l) => l.split(' ')[0])));
    expect([...kinds('ycsb-a')].sort()).toEqual(['read', 'update']);
    expect([...kinds('ycsb-c')]).toEqual(['read']);
    expect([...kinds('ycsb-d')].sort()).toEqual(['insert', 'read']);
    expect([...kinds('ycsb-f')].sort()).toEqual(['read', 'rmw']);
  });
});

import { describe, expect, it } from 'vitest';
import type { Node } from '@strata/api';
import { datasetMemoryMb, instanceCount, previewPlacement, reservedMemoryMb } from './cluster-math';

function node(name: string, status: 'online' | 'offline', memoryMb = 4096, usedMemoryMb = 0): Node {
  return {
    id: `00000000-0000-4000-8000-00000000000${name.length}`,
    name,
    address: '127.0.0.1',
    status,
    draining: false,
    capacity: { memoryMb, usedMemoryMb },
    lastHeartbeatAt: null,
    agentVersion: null,
    instances: [],
    createdAt: '2025-01-01T00:00:00Z',
  };
}

describe('cluster math', () => {
  const shape = { shards: 3, replicasPerShard: 1, memoryMbPerShard: 256 };
  it('counts instances and memory', () => {
    expect(instanceCount(shape)).toBe(6);
    expect(datasetMemoryMb(shape)).toBe(768);
    expect(reservedMemoryMb(shape)).toBe(1536);
  });

  it('uses at most the online nodes', () => {
    const p = previewPlacement(shape, [node('a', 'online'), node('b', 'online'), node('c', 'online'), node('d', 'offline')]);
    expect(p).toMatchObject({ onlineNodes: 3, nodesUsed: 3, problem: null, memoryWarning: null });
  });

  it('flags more replicas than online nodes allow, at replicasPerShard', () => {
    const p = previewPlacement({ ...shape, replicasPerShard: 3 }, [node('a', 'online'), node('b', 'online'), node('c', 'online')]);
    expect(p.problem?.field).toBe('replicasPerShard');
    expect(p.problem?.message).toMatch(/need 4 online nodes/);
  });

  it('flags an instance that fits on no node, at memoryMbPerShard', () => {
    const p = previewPlacement({ ...shape, memoryMbPerShard: 8192 }, [node('a', 'online'), node('b', 'online')]);
    expect(p.problem?.field).toBe('memoryMbPerShard');
  });

  it('warns when the total exceeds free memory', () => {
    const p = previewPlacement(shape, [node('a', 'online', 1024, 512), node('b', 'online', 1024, 512)]);
    expect(p.problem).toBeNull();
    expect(p.memoryWarning).toMatch(/1536 MB/);
  });
});

import { describe, expect, it } from 'vitest';
import { INITIAL_VALUES, mapServerErrors, validateClusterForm, type ClusterFormValues } from './validation';

const valid: ClusterFormValues = { ...INITIAL_VALUES, name: 'orders-cache' };

describe('validateClusterForm (mirrors the server schema)', () => {
  it('accepts a valid form and returns the request body', () => {
    const r = validateClusterForm(valid);
    expect(r).toEqual({
      ok: true,
      body: { name: 'orders-cache', shards: 3, replicasPerShard: 1, memoryMbPerShard: 256, durability: 'aof-everysec', evictionPolicy: 'noeviction', fencing: 'off', engineVersion: '7', tls: 'off', tlsClientAuth: 'none' },
    });
  });

  it('asks for the engine chosen', () => {
    const r = validateClusterForm({ ...valid, engineVersion: 'valkey-8' });
    expect(r.ok && r.body.engineVersion).toBe('valkey-8');
  });

  it('asks for TLS when the box is ticked', () => {
    const r = validateClusterForm({ ...valid, tls: 'required' });
    expect(r.ok && r.body.tls).toBe('required');
  });

  it.each([
    [{ shards: '0' }, 'shards', 'Choose between 1 and 64 shards.'],
    [{ shards: '65' }, 'shards', 'Choose between 1 and 64 shards.'],
    [{ shards: '' }, 'shards', 'Enter a whole number.'],
    [{ shards: '2.5' }, 'shards', 'Enter a whole number.'],
    [{ replicasPerShard: '6' }, 'replicasPerShard', 'Choose between 0 and 5 replicas per shard.'],
    [{ replicasPerShard: '-1' }, 'replicasPerShard', 'Choose between 0 and 5 replicas per shard.'],
    [{ name: '' }, 'name', 'Enter a name for the cluster.'],
    [{ name: 'a' }, 'name', 'Use at least 2 characters.'],
    [{ name: 'Orders' }, 'name', expect.stringContaining('lowercase letters')],
    [{ name: 'orders-' }, 'name', expect.stringContaining('lowercase letters')],
    [{ name: 'x'.repeat(41) }, 'name', 'Use at most 40 characters.'],
  ] as const)('%j → error at %s', (patch, field, message) => {
    const r = validateClusterForm({ ...valid, ...patch });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[field]).toEqual(message);
  });

  it('write fencing without a replica is refused at the fencing field, with the server\'s reason', () => {
    const r = validateClusterForm({ ...valid, replicasPerShard: '0', fencing: 'on' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.fencing).toMatch(/^Write fencing needs at least one replica per shard/);
    expect(validateClusterForm({ ...valid, replicasPerShard: '1', fencing: 'on' }).ok).toBe(true);
  });

  it('trims the name', () => {
    const r = validateClusterForm({ ...valid, name: '  orders ' });
    expect(r.ok && r.body.name).toBe('orders');
  });
});

describe('mapServerErrors', () => {
  it('puts known fields at the field and keeps the rest', () => {
    expect(
      mapServerErrors([
        { field: 'name', message: 'taken' },
        { field: 'replicasPerShard', message: 'not enough nodes' },
        { field: 'restoreFrom', message: 'nope' },
      ]),
    ).toEqual({ fields: { name: 'Taken.', replicasPerShard: 'Not enough nodes.' }, other: ['restoreFrom: nope'] });
  });
});

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi';
import { CreateClusterRequest } from './clusters';
import { openApiTypes } from './client/generate-types';

describe('openapi.json', () => {
  it('is generated from the current schemas (run `npm run generate -w @strata/api` if this fails)', () => {
    const committed = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument())));
  });

  it('the typed client\'s types are generated from it (run `npm run generate -w @strata/api` if this fails)', async () => {
    const committed = readFileSync(new URL('./client/openapi-types.ts', import.meta.url), 'utf8');
    expect(committed).toBe(await openApiTypes(buildOpenApiDocument()));
  });

  it('describes the create-cluster body with limits and no extra fields', () => {
    const doc = buildOpenApiDocument() as any;
    const schema = doc.components.schemas.CreateClusterRequest;
    expect(schema.properties.shards).toMatchObject({ minimum: 1, maximum: 64 });
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'shards', 'replicasPerShard']);
  });
});

describe('CreateClusterRequest', () => {
  it.each([
    [{ name: 'ok-name', shards: 3, replicasPerShard: 1 }, true],
    [{ name: 'ok-name', shards: 0, replicasPerShard: 1 }, false],
    [{ name: 'ok-name', shards: 65, replicasPerShard: 1 }, false],
    [{ name: 'ok-name', shards: 1.5, replicasPerShard: 1 }, false],
    [{ name: 'ok-name', shards: '3', replicasPerShard: 1 }, false],
    [{ name: 'ok-name', shards: 3, replicasPerShard: 6 }, false],
    [{ name: 'Bad Name', shards: 3, replicasPerShard: 1 }, false],
    [{ name: 'ok-name', shards: 3, replicasPerShard: 1, extra: true }, false],
    [{ name: 'ok-name', shards: 3, replicasPerShard: 1, durability: 'aof-sometimes' }, false],
  ])('%j valid=%s', (input, valid) => {
    expect(CreateClusterRequest.safeParse(input).success).toBe(valid);
  });
});

// Regenerates openapi.json from OPERATION_TABLE and the schemas, and the typed client's types from it:
// `npm run generate -w @strata/api`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi';
import { openApiTypes } from './client/generate-types';

const doc = buildOpenApiDocument();
const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
writeFileSync(target, JSON.stringify(doc, null, 2) + '\n');
console.log(`wrote ${target}`);
const types = fileURLToPath(new URL('./client/openapi-types.ts', import.meta.url));
writeFileSync(types, await openApiTypes(doc));
console.log(`wrote ${types}`);

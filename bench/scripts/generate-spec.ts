/**
 * Writes the YCSB spec rendered from the TypeScript implementation (see
 * bench/src/spec/ycsb-spec.ts): bench/spec/ycsb-vectors.json and
 * bench/native/ycsb-spec.h. Run after changing how keys, values, op
 * sequences or commands are made, then `npm run build:native`, and make the
 * C worker reproduce the vectors (native-worker.test.ts says where not).
 *
 *   npm run generate:spec -w @strata/bench
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { nativeSpecHeader, ycsbVectors } from '../src/spec/ycsb-spec';

export const VECTORS_FILE = fileURLToPath(new URL('../spec/ycsb-vectors.json', import.meta.url));
export const HEADER_FILE = fileURLToPath(new URL('../native/ycsb-spec.h', import.meta.url));

writeFileSync(VECTORS_FILE, `${JSON.stringify(ycsbVectors(), null, 2)}\n`);
writeFileSync(HEADER_FILE, nativeSpecHeader());
console.log(`wrote ${VECTORS_FILE}\nwrote ${HEADER_FILE}`);

import openapiTS, { astToString } from 'openapi-typescript';

export const TYPES_HEADER = `/**
 * Generated from openapi.json by openapi-typescript (\`npm run generate -w @strata/api\`); do not edit.
 * openapi.test.ts fails when it is stale. Used through createStrataClient (./strata-client.ts).
 */
`;

/** The `paths`/`components` types openapi-fetch needs, as the text of openapi-types.ts. */
export async function openApiTypes(doc: object): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)), { alphabetize: false, exportType: false });
  return TYPES_HEADER + astToString(ast);
}

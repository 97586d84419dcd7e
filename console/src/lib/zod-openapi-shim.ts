/**
 * Browser stand-in for `@asteasolutions/zod-to-openapi` (aliased in
 * vite.config.ts). The schema package calls `extendZodWithOpenApi(z)` and
 * `.openapi(...)` while defining its schemas; in the console those calls only
 * need to exist and return the schema unchanged. The OpenAPI document itself
 * is generated on the server side from the real package.
 */
interface ZodLike {
  ZodType: { prototype: object };
}

export function extendZodWithOpenApi(zod: ZodLike): void {
  const proto = zod.ZodType.prototype as { openapi?: (...args: unknown[]) => unknown };
  if (typeof proto.openapi === 'function') return;
  proto.openapi = function openapi(this: unknown) {
    return this;
  };
}

import type { z } from 'zod';
import { notFound, validationFailed } from '../errors';

/** Parses `input` with a schema from @strata/api or throws a 400 naming each bad field. */
export function parseBody<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const r = schema.safeParse(input ?? {});
  if (r.success) return r.data;
  const errors = r.error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ field: [...issue.path, k].join('.'), message: 'unknown field' }));
    }
    return [{ field: issue.path.join('.') || '(body)', message: issue.message }];
  });
  throw validationFailed(errors);
}

export function parseUuid(value: string | undefined, what: string): string {
  if (value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) return value.toLowerCase();
  // A malformed id can never name an existing resource.
  throw notFound(what);
}

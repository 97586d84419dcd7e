/**
 * Loopback address prefixes for local stacks. `STRATA_TEST_NET` (e.g. `127.3`)
 * moves every `127.0.x` prefix a stack or test asks for to `127.3.x`, so two
 * checkouts can run the same integration files at once without sharing
 * addresses (any 127.a.b.c can be bound without setup).
 */
export function loopbackPrefix(prefix: string, env: NodeJS.ProcessEnv = process.env): string {
  const net = env.STRATA_TEST_NET;
  if (!net) return prefix;
  if (!/^127\.\d{1,3}$/.test(net)) throw new Error(`STRATA_TEST_NET must look like 127.N, got ${JSON.stringify(net)}`);
  return prefix.replace(/^127\.0\./, `${net}.`);
}

/** One loopback address (`127.0.14.99`) moved like {@link loopbackPrefix}. */
export const loopbackAddress = (address: string, env: NodeJS.ProcessEnv = process.env): string => loopbackPrefix(address, env);

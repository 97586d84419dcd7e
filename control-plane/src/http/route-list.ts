import type { Express } from 'express';
import type { OperationName } from '@strata/api';
import { declaredScope, type RouteScope } from '../auth/permissions';
import { authenticatedKind, mountedOperation } from './operation-router';

export interface MountedRoute {
  method: string;
  /** OpenAPI style: /v1/clusters/{id} */
  path: string;
  /** The scope the route declared with requireScope, if any. */
  scope?: RouteScope;
  /** The OPERATION_TABLE entry it was mounted from (mountOperation / mountRaw), if any. */
  operation?: OperationName;
  /**
   * Every authentication step a request to this route passes, in order: the route's own (from the
   * table's `auth`) and any `requireUser`/`requireNode`/`auditChanges` mounted on a prefix in front of it.
   */
  authentication: string[];
}

/** What a middleware does for authentication, if anything (tags set by auth.middleware / audit.middleware). */
const authStep = (h: unknown): string | undefined => authenticatedKind(h) ?? (h as { authStep?: string }).authStep;

interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: Layer[] };
  handle: { stack?: Layer[] } & ((...a: unknown[]) => unknown);
}

/** Every method+path the Express app serves (string paths only; the console's regex fallback is skipped). */
export function mountedRoutes(app: Express): MountedRoute[] {
  const out: MountedRoute[] = [];
  const walk = (stack: Layer[], prefix: string, inherited: string[]) => {
    const before = [...inherited];
    for (const layer of stack) {
      if (!layer.route && !layer.handle?.stack) {
        const step = authStep(layer.handle);
        if (step) before.push(step);
        continue;
      }
      if (layer.route) {
        if (typeof layer.route.path !== 'string') continue;
        const path = (prefix + (layer.route.path === '/' && prefix ? '' : layer.route.path)).replace(/:(\w+)/g, '{$1}');
        const scope = layer.route.stack.map((l) => declaredScope(l.handle)).find(Boolean);
        const operation = layer.route.stack.map((l) => mountedOperation(l.handle)).find(Boolean);
        const authentication = [...before, ...layer.route.stack.map((l) => authStep(l.handle)).filter((x): x is string => !!x)];
        for (const [m, on] of Object.entries(layer.route.methods)) {
          if (on && m !== '_all') out.push({ method: m.toUpperCase(), path, ...(scope ? { scope } : {}), ...(operation ? { operation } : {}), authentication });
        }
      } else if (layer.handle?.stack && typeof layer.rawPath === 'string') {
        walk(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath), before);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '', []);
  return out;
}

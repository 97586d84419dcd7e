import type { Principal } from '../stores/auth.store';

/**
 * Who a caller is for limits (requests per window, open event streams): the
 * user behind a session or token, else the token, else the actor (the
 * operator's token). One user's sessions and tokens share one budget.
 */
export function callerKey(p: Principal): string {
  if (p.userId) return `user:${p.userId}`;
  if (p.tokenId) return `token:${p.tokenId}`;
  return `${p.actor.type}:${p.actor.name}`;
}

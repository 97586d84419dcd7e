/**
 * Edits of a stopped engine's cluster config file (nodes.conf).
 *
 * A primary that crashed and was replaced (its replica promoted) comes back
 * with the claims it had when it died: its slots, with its old config epoch,
 * and any slot it was importing or migrating. Redis settles such claims by
 * epoch, but not always: Redis 7.0 can treat a slot its new owner claimed by
 * hand (CLUSTER SETSLOT ... NODE) as "unclaimed", and then the old primary's
 * stale claim wins it and the new owner deletes its keys in that slot. The
 * old primary rejoins as a replica anyway, so it starts without claims: an
 * empty primary owning nothing, which the control plane then makes a replica.
 */

/**
 * The file with the `myself` line cut to its first eight fields (id, address,
 * flags, primary, ping, pong, config epoch, link state): no slot ranges, no
 * importing/migrating marks. Other nodes' lines and the `vars` line are kept.
 * Null when the file has no `myself` line (nothing to edit).
 */
export function withoutOwnClaims(nodesConf: string): { text: string; dropped: string[] } | null {
  const lines = nodesConf.split('\n');
  const i = lines.findIndex((l) => l.split(' ')[2]?.split(',').includes('myself'));
  if (i < 0) return null;
  const fields = lines[i]!.trim().split(/ +/);
  lines[i] = fields.slice(0, 8).join(' ');
  return { text: lines.join('\n'), dropped: fields.slice(8) };
}

/**
 * Does the file say this engine was a primary serving slots when it last
 * saved its cluster state? Redis saves it (fsync'd) on every role or slot
 * change, so it can be newer than what the agent last reported: a replica
 * promoted a moment before it crashed.
 */
export function claimsSlots(nodesConf: string): boolean {
  const line = nodesConf.split('\n').find((l) => l.split(' ')[2]?.split(',').includes('myself'));
  if (!line) return false;
  const fields = line.trim().split(/ +/);
  return fields[2]!.split(',').includes('master') && fields.slice(8).some((f) => /^\d/.test(f));
}

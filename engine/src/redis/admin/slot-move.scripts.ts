/**
 * The two Lua scripts of a slot move, each atomic on the source primary.
 *
 * COPY reads keys of slots the source still serves alone (not MIGRATING):
 * for each, its DUMP payload, its absolute expiry and a fingerprint of
 * both. The keys are passed as arguments, not declared, so one call can
 * read keys of several slots this node owns (legacy EVAL scripts may).
 *
 * HANDOVER gives one slot up, all or nothing: only if the slot holds
 * exactly the keys copied, each unchanged since its copy (same
 * fingerprint), it deletes them and marks the slot MIGRATING to the target,
 * which already holds the copies (and whose replica has them). From then
 * on every key of the slot is answered with ASK by the source and served
 * by the target. Otherwise it changes nothing and answers 0.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export const COPY_SCRIPT = `
local out = {}
for i = 1, #ARGV do
  local d = redis.call('DUMP', ARGV[i])
  if d then
    local at = redis.call('PEXPIRETIME', ARGV[i])
    out[i] = { redis.sha1hex(d) .. ':' .. at, at, d }
  else
    out[i] = 0
  end
end
return out
`;

export const HANDOVER_SCRIPT = `
local slot = ARGV[1]
if redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot) ~= #KEYS then return 0 end
for i = 1, #KEYS do
  local d = redis.call('DUMP', KEYS[i])
  if not d or (redis.sha1hex(d) .. ':' .. redis.call('PEXPIRETIME', KEYS[i])) ~= ARGV[i + 2] then return 0 end
end
for i = 1, #KEYS, 500 do
  redis.call('DEL', unpack(KEYS, i, math.min(i + 499, #KEYS)))
end
redis.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', ARGV[2])
return 1
`;

const sha = (text: string) => createHash('sha1').update(text).digest('hex');
export const COPY_SHA = sha(COPY_SCRIPT);
export const HANDOVER_SHA = sha(HANDOVER_SCRIPT);

/** Loads both scripts (idempotent): EVALSHA works from then on, until the process restarts. */
export async function loadSlotMoveScripts(client: Redis): Promise<void> {
  await client.call('SCRIPT', 'LOAD', COPY_SCRIPT);
  await client.call('SCRIPT', 'LOAD', HANDOVER_SCRIPT);
}

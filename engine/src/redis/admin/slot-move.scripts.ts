/**
 * The two Lua scripts of a slot move, each atomic on the source primary.
 *
 * COPY copies keys of slots the source still serves alone (not
 * MIGRATING) to the target with `MIGRATE ... COPY REPLACE` (the keys stay
 * on the source; the target restores them into slots it imports, where no
 * client reads them yet) and returns, for each key, a fingerprint (SHA-1 of
 * its DUMP payload, and its absolute expiry) taken in the same atomic step,
 * so it describes exactly what the target received (0 for a key gone since
 * it was listed). The keys are passed as arguments, not declared, so one call
 * can carry keys of several slots this node owns (legacy EVAL scripts may;
 * one MIGRATE per slot);
 * the target's address and credentials come last, past what SLOWLOG keeps of
 * a command's arguments.
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
local n = #ARGV - 5
local host, port, timeout, user, pass = ARGV[n + 1], ARGV[n + 2], ARGV[n + 3], ARGV[n + 4], ARGV[n + 5]
local out, present, slot = {}, {}, nil
local function send()
  if #present > 0 then
    redis.call('MIGRATE', host, port, '', 0, timeout, 'COPY', 'REPLACE', 'AUTH2', user, pass, 'KEYS', unpack(present))
  end
  present = {}
end
for i = 1, n do
  local d = redis.call('DUMP', ARGV[i])
  if d then
    out[i] = redis.sha1hex(d) .. ':' .. redis.call('PEXPIRETIME', ARGV[i])
    -- one MIGRATE per slot: a command's keys must share a slot
    local s = redis.call('CLUSTER', 'KEYSLOT', ARGV[i])
    if s ~= slot then send(); slot = s end
    present[#present + 1] = ARGV[i]
  else
    out[i] = 0
  end
end
send()
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

/**
 * The two Lua scripts of a slot move, each atomic on the source primary.
 *
 * COPY reads keys of slots the source still serves alone (not MIGRATING):
 * for each, its DUMP payload and a fingerprint (SHA-1 of the payload, and
 * the absolute expiry, which the target needs too), all in one binary
 * reply: per key a big-endian int32 fingerprint length (-1: the key is gone
 * since it was listed), an int32 payload length, the fingerprint, the
 * payload. The keys are passed as arguments, not declared, so one call can
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
local parts = {}
for i = 1, #ARGV do
  local d = redis.call('DUMP', ARGV[i])
  if d then
    local fp = redis.sha1hex(d) .. ':' .. redis.call('PEXPIRETIME', ARGV[i])
    parts[#parts + 1] = struct.pack('>i4i4', #fp, #d)
    parts[#parts + 1] = fp
    parts[#parts + 1] = d
  else
    parts[#parts + 1] = struct.pack('>i4', -1)
  end
end
return table.concat(parts)
`;

/** Reads COPY's reply: per key its fingerprint, absolute expiry (<= 0: none) and payload, or null when it is gone. */
export function parseCopyReply(reply: Buffer, keys: number): ({ fp: string; expireAt: number; payload: Buffer } | null)[] {
  const out: ({ fp: string; expireAt: number; payload: Buffer } | null)[] = [];
  let at = 0;
  for (let i = 0; i < keys; i++) {
    const fpLen = reply.readInt32BE(at);
    at += 4;
    if (fpLen < 0) { out.push(null); continue; }
    const payloadLen = reply.readInt32BE(at);
    at += 4;
    const fp = reply.toString('latin1', at, at + fpLen);
    at += fpLen;
    out.push({ fp, expireAt: Number(fp.slice(fp.indexOf(':') + 1)), payload: reply.subarray(at, at + payloadLen) });
    at += payloadLen;
  }
  if (at !== reply.length) throw new Error(`COPY reply: ${reply.length - at} byte(s) left over after ${keys} key(s)`);
  return out;
}

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

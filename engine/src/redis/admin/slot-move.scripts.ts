/**
 * The two Lua scripts of a slot move, each atomic on the source primary.
 *
 * A slot's digest is its key count and the XOR of one SHA-1 per key over
 * the key's name, its DUMP payload and its absolute expiry (PEXPIRETIME):
 * order-independent, so a slot listed in another order (a rehash) digests
 * the same, and any change to a key, its expiry or the key set changes it.
 *
 * COPY reads keys of slots the source still serves alone (not MIGRATING).
 * Its arguments are groups `slot n key1 .. keyn`, or `slot -1` for every key
 * of the slot (listed by the script itself, so the agent sends no names).
 * Its one binary reply: its run time (big-endian int32, µs), then per group
 * a big-endian int32 count of the keys read
 * (a listed key gone since is skipped) and the 32-hex-digit digest of those
 * keys, then the `RESTORE-ASKING key ttl payload REPLACE [ABSTTL]`
 * commands, RESP-encoded, that recreate them on the target: the agent
 * writes them to the target as they are, without parsing a key. The keys
 * are not declared, so one call can read several slots this node owns
 * (legacy EVAL scripts may).
 *
 * Both report how long they ran on the source (TIME at their start and end),
 * which sizes the next call and the rest after it.
 *
 * HANDOVER gives one slot up, all or nothing: only if the slot's digest is
 * the one its copy had (same keys, each unchanged), it deletes the keys and
 * marks the slot MIGRATING to the target, which already holds the copies
 * (and whose replica has them). From then on every key of the slot is
 * answered with ASK by the source and served by the target. Otherwise it
 * changes nothing and answers 0 (with its run time: `{ok, µs}`).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Folds one key into a digest (a, b, c, d: four 32-bit words); nil when the key is gone. */
const DIGEST_LUA = `
local function fold(k, acc)
  local v = redis.call('DUMP', k)
  if not v then return nil end
  local t = redis.call('PEXPIRETIME', k)
  local h = redis.sha1hex(struct.pack('>I4', #k) .. k .. v .. ':' .. t)
  acc[1] = bit.bxor(acc[1], tonumber(string.sub(h, 1, 8), 16))
  acc[2] = bit.bxor(acc[2], tonumber(string.sub(h, 9, 16), 16))
  acc[3] = bit.bxor(acc[3], tonumber(string.sub(h, 17, 24), 16))
  acc[4] = bit.bxor(acc[4], tonumber(string.sub(h, 25, 32), 16))
  return v, t
end
local function hex(acc)
  return bit.tohex(acc[1]) .. bit.tohex(acc[2]) .. bit.tohex(acc[3]) .. bit.tohex(acc[4])
end
local started = redis.call('TIME')
local function micros()
  local now = redis.call('TIME')
  return (tonumber(now[1]) - tonumber(started[1])) * 1000000 + tonumber(now[2]) - tonumber(started[2])
end
`;

export const COPY_SCRIPT = `${DIGEST_LUA}
local heads, cmds = {}, {}
local i = 1
while i <= #ARGV do
  local slot, n = ARGV[i], tonumber(ARGV[i + 1])
  local keys
  if n < 0 then
    keys = redis.call('CLUSTER', 'GETKEYSINSLOT', slot, redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot))
    i = i + 2
  else
    keys = {}
    for j = 1, n do keys[j] = ARGV[i + 1 + j] end
    i = i + 2 + n
  end
  local acc, read = {0, 0, 0, 0}, 0
  for _, k in ipairs(keys) do
    local v, t = fold(k, acc)
    if v then
      read = read + 1
      if t > 0 then
        local ts = string.format('%d', t)
        cmds[#cmds + 1] = '*6\\r\\n$14\\r\\nRESTORE-ASKING\\r\\n$' .. #k .. '\\r\\n' .. k .. '\\r\\n$' .. #ts .. '\\r\\n' .. ts .. '\\r\\n$' .. #v .. '\\r\\n' .. v .. '\\r\\n$7\\r\\nREPLACE\\r\\n$6\\r\\nABSTTL\\r\\n'
      else
        cmds[#cmds + 1] = '*5\\r\\n$14\\r\\nRESTORE-ASKING\\r\\n$' .. #k .. '\\r\\n' .. k .. '\\r\\n$1\\r\\n0\\r\\n$' .. #v .. '\\r\\n' .. v .. '\\r\\n$7\\r\\nREPLACE\\r\\n'
      end
    end
  end
  heads[#heads + 1] = struct.pack('>i4', read) .. hex(acc)
end
return struct.pack('>i4', micros()) .. table.concat(heads) .. table.concat(cmds)
`;

/** One group of a COPY call: a slot's listed keys, or (no keys) every key of the slot. */
export interface CopyGroup { slot: number; keys?: Buffer[] }

/** COPY's arguments for these groups. */
export function copyArgs(groups: CopyGroup[]): (string | Buffer)[] {
  return groups.flatMap((g) => (g.keys ? [String(g.slot), String(g.keys.length), ...g.keys] : [String(g.slot), '-1']));
}

export interface CopyReply {
  /** How long the script ran on the source (ms): what an application request waited behind it at most. */
  serverMs: number;
  /** Per group, in order: the keys read and their digest. */
  groups: { keys: number; digest: string }[];
  /** The RESTORE-ASKING commands for the target, one per key read. */
  restores: Buffer;
  /** Keys read in all. */
  keys: number;
}

const HEAD = 4 + 32;

/** Reads COPY's reply for `groups` groups: the script's run time (int32 µs), each group's head, the commands. */
export function parseCopyReply(reply: Buffer, groups: number): CopyReply {
  if (reply.length < 4 + groups * HEAD) throw new Error(`COPY reply: ${reply.length} byte(s), shorter than ${groups} group header(s)`);
  const out: CopyReply['groups'] = [];
  let keys = 0;
  for (let i = 0; i < groups; i++) {
    const at = 4 + i * HEAD;
    const n = reply.readInt32BE(at);
    out.push({ keys: n, digest: reply.toString('latin1', at + 4, at + HEAD) });
    keys += n;
  }
  const restores = reply.subarray(4 + groups * HEAD);
  if (keys > 0 && restores.length === 0) throw new Error(`COPY reply: ${keys} key(s) read but no command to restore them`);
  return { serverMs: reply.readInt32BE(0) / 1000, groups: out, restores, keys };
}

/** The digest of keys read in several calls (a slot copied in parts): the XOR of the parts. */
export function combineDigests(a: string, b: string): string {
  let out = '';
  for (let i = 0; i < 32; i += 8) out += ((parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0).toString(16).padStart(8, '0');
  return out;
}

/** The digest of no key. */
export const EMPTY_DIGEST = '0'.repeat(32);

export const HANDOVER_SCRIPT = `${DIGEST_LUA}
local slot = ARGV[1]
local n = redis.call('CLUSTER', 'COUNTKEYSINSLOT', slot)
if n ~= tonumber(ARGV[3]) then return {0, micros()} end
if n == 0 then
  if ARGV[4] ~= '${EMPTY_DIGEST}' then return {0, micros()} end
else
  local keys = redis.call('CLUSTER', 'GETKEYSINSLOT', slot, n)
  local acc = {0, 0, 0, 0}
  for _, k in ipairs(keys) do
    if not fold(k, acc) then return {0, micros()} end
  end
  if hex(acc) ~= ARGV[4] then return {0, micros()} end
  for i = 1, #keys, 500 do
    redis.call('DEL', unpack(keys, i, math.min(i + 499, #keys)))
  end
end
redis.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', ARGV[2])
return {1, micros()}
`;

/** HANDOVER's reply: whether the slot was given up, and how long the script ran (ms). */
export function parseHandoverReply(reply: unknown): { handed: boolean; serverMs: number } {
  const [ok, micros] = reply as [number, number];
  return { handed: Number(ok) === 1, serverMs: Number(micros) / 1000 };
}

/** HANDOVER's arguments: the slot, the target's id, and the count and digest its copy had. */
export function handoverArgs(slot: number, targetId: string, copy: { keys: number; digest: string }): string[] {
  return [String(slot), targetId, String(copy.keys), copy.digest];
}

const sha = (text: string) => createHash('sha1').update(text).digest('hex');
export const COPY_SHA = sha(COPY_SCRIPT);
export const HANDOVER_SHA = sha(HANDOVER_SCRIPT);

/** Loads both scripts (idempotent): EVALSHA works from then on, until the process restarts. */
export async function loadSlotMoveScripts(client: Redis): Promise<void> {
  await client.call('SCRIPT', 'LOAD', COPY_SCRIPT);
  await client.call('SCRIPT', 'LOAD', HANDOVER_SCRIPT);
}

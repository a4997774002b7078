import { redisScript } from './redis-script.ts';

/**
 * The atomic versioned append. KEYS (all in the session's hash slot, so it runs on Redis Cluster):
 * head hash, message list, metadata hash, this append's receipt. ARGV: expected version ('' for
 * none), now ms (the session clock), ttl ms ('' for none), deadline ms (wall clock), metadata field count, then per field
 * `name, 'set'|'del', value`, then the encoded messages.
 * Returns `{0, actualVersion}` on a conflict, `{2}` when it reached the server after its deadline
 * (by the server's clock: its caller was already told it failed, so it changes nothing), else
 * `{1, version, createdAtMs, updatedAtMs, meta, messageCount}`: the messages are never read back,
 * so an append costs the same at any length.
 * The receipt makes the script idempotent: a client that resends it after a dropped connection
 * (ioredis does, for commands in flight) gets the session back instead of a second copy.
 */
export const appendScript = redisScript(`
local head, list, meta, receipt = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local function state(version)
  return {1, version, tonumber(redis.call('HGET', head, 'createdAtMs')), tonumber(redis.call('HGET', head, 'updatedAtMs')),
    redis.call('HGETALL', meta), redis.call('LLEN', list)}
end
local applied = redis.call('GET', receipt)
if applied then return state(tonumber(applied)) end
local time = redis.call('TIME')
if tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) > tonumber(ARGV[4]) then return {2} end
local now = tonumber(ARGV[2])
local ttl = tonumber(ARGV[3])
local version = tonumber(redis.call('HGET', head, 'version') or '0')
local created = tonumber(redis.call('HGET', head, 'createdAtMs') or ARGV[2])
local updated = tonumber(redis.call('HGET', head, 'updatedAtMs') or ARGV[2])
if version > 0 and ttl and now - updated > ttl then
  redis.call('DEL', head, list, meta)
  version = 0
  created = now
end
if ARGV[1] ~= '' and tonumber(ARGV[1]) ~= version then
  return {0, version}
end
if version == 0 then created = now end
local at = 6
for _ = 1, tonumber(ARGV[5]) do
  if ARGV[at + 1] == 'del' then
    redis.call('HDEL', meta, ARGV[at])
  else
    redis.call('HSET', meta, ARGV[at], ARGV[at + 2])
  end
  at = at + 3
end
while at <= #ARGV do
  local last = math.min(at + 999, #ARGV)
  redis.call('RPUSH', list, unpack(ARGV, at, last))
  at = last + 1
end
redis.call('HSET', head, 'version', version + 1, 'createdAtMs', created, 'updatedAtMs', now)
if ttl then
  for _, key in ipairs({head, list, meta}) do
    if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ttl) end
  end
end
redis.call('SET', receipt, version + 1, 'PX', 60000)
return state(version + 1)
`);

/**
 * Deletes one session if its last update is at or before a cutoff, re-checked inside the script so
 * a session appended meanwhile survives. KEYS: head, message list, metadata hash (one slot).
 * ARGV: cutoff ms. Returns 1 when it deleted a live session, 0 when there was none, else the
 * session's newer `updatedAtMs` (negated, so it cannot be mistaken for a count).
 */
export const pruneOneScript = redisScript(`
local updated = tonumber(redis.call('HGET', KEYS[1], 'updatedAtMs') or '-1')
if updated > tonumber(ARGV[1]) then return -updated end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
if updated >= 0 then return 1 end
return 0
`);

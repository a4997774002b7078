import { redisScript } from './redis-script.ts';

/**
 * The atomic versioned append. KEYS: head hash, message list, metadata hash, index sorted set, and
 * this append's receipt. ARGV: id, expected version ('' for none), now ms, ttl ms ('' for none),
 * metadata field count, then per field `name, 'set'|'del', value`, then the encoded messages.
 * Returns `{0, actualVersion}` on a conflict, else `{1, version, createdAtMs, updatedAtMs, meta, messages}`.
 * The receipt makes the script idempotent: a client that resends it after a dropped connection
 * (ioredis does, for commands in flight) gets the session back instead of a second copy.
 */
export const appendScript = redisScript(`
local head, list, meta, index, receipt = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local function state(version)
  return {1, version, tonumber(redis.call('HGET', head, 'createdAtMs')), tonumber(redis.call('HGET', head, 'updatedAtMs')),
    redis.call('HGETALL', meta), redis.call('LRANGE', list, 0, -1)}
end
local applied = redis.call('GET', receipt)
if applied then return state(tonumber(applied)) end
local now = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local version = tonumber(redis.call('HGET', head, 'version') or '0')
local created = tonumber(redis.call('HGET', head, 'createdAtMs') or ARGV[3])
local updated = tonumber(redis.call('HGET', head, 'updatedAtMs') or ARGV[3])
if version > 0 and ttl and now - updated > ttl then
  redis.call('DEL', head, list, meta)
  version = 0
  created = now
end
if ARGV[2] ~= '' and tonumber(ARGV[2]) ~= version then
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
redis.call('ZADD', index, now, ARGV[1])
if ttl then
  for _, key in ipairs({head, list, meta}) do
    if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ttl) end
  end
end
redis.call('SET', receipt, version + 1, 'PX', 60000)
return state(version + 1)
`);

/**
 * Deletes the sessions whose last update is at or before a cutoff, re-checking each one inside the
 * script so a session appended meanwhile survives. ARGV: key prefix, cutoff ms. Returns the count.
 */
export const pruneScript = redisScript(`
local prefix, cutoff = ARGV[1], tonumber(ARGV[2])
local index = prefix .. 'index'
local removed = 0
while true do
  local ids = redis.call('ZRANGEBYSCORE', index, '-inf', cutoff, 'LIMIT', 0, 500)
  if #ids == 0 then return removed end
  for _, id in ipairs(ids) do
    local base = prefix .. '{' .. id .. '}'
    local updated = tonumber(redis.call('HGET', base .. ':head', 'updatedAtMs') or '-1')
    if updated >= 0 and updated <= cutoff then removed = removed + 1 end
    if updated <= cutoff then
      redis.call('DEL', base .. ':head', base .. ':messages', base .. ':metadata')
      redis.call('ZREM', index, id)
    else
      redis.call('ZADD', index, updated, id)
    end
  end
end
`);

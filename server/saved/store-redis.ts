import type { RedisClient } from "bun";
import { savedConflict } from "../../shared/saved.ts";
import { randomSecret } from "../auth/secrets.ts";
import { defineScript, runScript } from "../redis.ts";
import { FEED_TOKEN, nameTaken, newRecord, SAVED_ID, type SavedRecord, type SavedSearchStore } from "./store.ts";

/**
 * Saved searches in Redis, beside the API keys, for several processes and replicas: a hash
 * `<prefix>saved:<id>` each, the owner's ids in `<prefix>saved:owner:<owner>`, the owner's names in
 * `<prefix>saved:names:<owner>`, the feed token's id in `<prefix>saved:feed:<token>`, the ids with a
 * webhook in `<prefix>saved:webhooks`. Create, remove, rotate and the cursor moves are Lua scripts,
 * so the checks and the writes cannot interleave with another process's.
 */
export function openRedisSavedSearchStore(redis: RedisClient, options: { prefix?: string; ownsClient?: boolean } = {}): SavedSearchStore {
  const { prefix = "jobsearch:", ownsClient = true } = options;
  const keyOf = (id: string) => `${prefix}saved:${id}`;
  const ownerSet = (owner: string) => `${prefix}saved:owner:${owner}`;
  const names = (owner: string) => `${prefix}saved:names:${owner}`;
  const feed = (token: string) => `${prefix}saved:feed:${token}`;
  const webhooks = `${prefix}saved:webhooks`;
  // An id or token not of our making names no key of ours (a hostile one could name another type's key).
  const read = async (id: string): Promise<SavedRecord | undefined> =>
    SAVED_ID.test(id) ? fromHash(id, (await redis.send("HGETALL", [keyOf(id)])) as Record<string, string> | null) : undefined;
  const owned = async (owner: string, id: string) => {
    const record = await read(id);
    return record?.owner === owner ? record : undefined;
  };

  return {
    async create(owner, input, createOptions) {
      const record = newRecord(owner, input, createOptions);
      const result = Number(await runScript(redis, CREATE, [keyOf(record.id), ownerSet(owner), names(owner), feed(record.feedToken), webhooks], [
        String(createOptions.maxPerOwner), record.id, record.name, JSON.stringify(toHash(record)),
      ]));
      if (result === -1) throw savedConflict(`at most ${createOptions.maxPerOwner} saved searches per key; delete one first`);
      if (result === -2) throw nameTaken(record.name);
      return record;
    },
    async list(owner) {
      const ids = (await redis.send("SMEMBERS", [ownerSet(owner)])) as string[];
      const records = (await Promise.all(ids.map(read))).filter((r): r is SavedRecord => r?.owner === owner);
      return records.sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
    },
    get: owned,
    async remove(owner, id) {
      const record = await owned(owner, id);
      if (!record) return false;
      return Number(await runScript(redis, REMOVE, [keyOf(id), ownerSet(owner), names(owner), webhooks], [id, owner, `${prefix}saved:feed:`])) === 1;
    },
    async byFeedToken(token) {
      if (!FEED_TOKEN.test(token)) return undefined;
      const id = await redis.send("GET", [feed(token)]);
      if (typeof id !== "string") return undefined;
      const record = await read(id);
      return record?.feedToken === token ? record : undefined;
    },
    async rotateFeedToken(owner, id) {
      if (!SAVED_ID.test(id)) return undefined;
      const token = randomSecret();
      const done = Number(await runScript(redis, ROTATE, [keyOf(id), feed(token)], [owner, id, token, `${prefix}saved:feed:`]));
      return done === 1 ? token : undefined;
    },
    async advance(id, which, from, to) {
      if (!SAVED_ID.test(id)) return false;
      const field = which === "poll" ? "cursor" : "webhook_cursor";
      return Number(await runScript(redis, ADVANCE, [keyOf(id)], [field, String(from), String(to)])) === 1;
    },
    async withWebhooks() {
      const ids = ((await redis.send("SMEMBERS", [webhooks])) as string[]).sort();
      return (await Promise.all(ids.map(read))).filter((r): r is SavedRecord => r !== undefined && r.webhook !== null);
    },
    close() {
      if (ownsClient) redis.close();
    },
  };
}

// --- internal ---

function toHash(record: SavedRecord): Record<string, string> {
  return {
    owner: record.owner,
    name: record.name,
    params: JSON.stringify(record.params),
    feed_token: record.feedToken,
    created_at: record.createdAt,
    cursor: String(record.cursor),
    ...(record.webhook ? { webhook_url: record.webhook.url, webhook_secret: record.webhook.secret, webhook_cursor: String(record.webhook.cursor) } : {}),
  };
}

function fromHash(id: string, hash: Record<string, string> | null): SavedRecord | undefined {
  if (!hash || hash.owner === undefined) return undefined;
  return {
    id,
    owner: hash.owner,
    name: hash.name ?? "",
    params: JSON.parse(hash.params ?? "{}") as Record<string, unknown>,
    feedToken: hash.feed_token ?? "",
    createdAt: hash.created_at ?? "",
    cursor: Number(hash.cursor ?? 0),
    webhook: hash.webhook_url ? { url: hash.webhook_url, secret: hash.webhook_secret ?? "", cursor: Number(hash.webhook_cursor ?? hash.cursor ?? 0) } : null,
  };
}

// KEYS: record, owner's ids, owner's names, feed token, webhook ids; ARGV: max, id, name, fields as JSON.
// -1: the owner has the most; -2: the name is taken; 1: created.
const CREATE = defineScript(`
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[1]) then return -1 end
if redis.call('HSETNX', KEYS[3], ARGV[3], ARGV[2]) == 0 then return -2 end
local fields = cjson.decode(ARGV[4])
for k, v in pairs(fields) do redis.call('HSET', KEYS[1], k, v) end
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('SET', KEYS[4], ARGV[2])
if fields['webhook_url'] then redis.call('SADD', KEYS[5], ARGV[2]) end
return 1
`);

// KEYS: record, owner's ids, owner's names, webhook ids; ARGV: id, owner, feed key prefix.
const REMOVE = defineScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[2] then return 0 end
local fields = redis.call('HMGET', KEYS[1], 'name', 'feed_token')
redis.call('HDEL', KEYS[3], fields[1])
if fields[2] then redis.call('DEL', ARGV[3] .. fields[2]) end
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('SREM', KEYS[4], ARGV[1])
redis.call('DEL', KEYS[1])
return 1
`);

// KEYS: record, new feed key; ARGV: owner, id, token, feed key prefix.
const ROTATE = defineScript(`
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
local old = redis.call('HGET', KEYS[1], 'feed_token')
if old then redis.call('DEL', ARGV[4] .. old) end
redis.call('HSET', KEYS[1], 'feed_token', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
return 1
`);

// KEYS: record; ARGV: field, from, to. 1 when the cursor was at from and now is at to.
const ADVANCE = defineScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`);

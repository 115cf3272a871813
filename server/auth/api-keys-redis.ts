import type { RedisClient } from "bun";
import { defineScript, runScript } from "../redis.ts";
import { LAST_USED_RESOLUTION_MS, newKey, parseKey, secretMatches, type ApiKeyInfo, type KeyStore } from "./api-keys.ts";

/**
 * API keys in Redis, for several server processes (and the CLI) sharing one store. Each key is a
 * hash `<prefix>key:<id>` (name, SHA-256 of the secret, times, rate limit) and `<prefix>keys` lists
 * the ids. Verifying a key is one HGETALL, so a revocation anywhere applies to the next request
 * on every process. Writes that must not race (revoke) are Lua scripts. Redis errors reject.
 */
export function openRedisKeyStore(redis: RedisClient, options: { prefix?: string; ownsClient?: boolean } = {}): KeyStore {
  const { prefix = "jobsearch:", ownsClient = true } = options;
  const keyOf = (id: string) => `${prefix}key:${id}`;
  const index = `${prefix}keys`;
  const read = async (id: string): Promise<StoredKey | undefined> => fromHash(id, (await redis.send("HGETALL", [keyOf(id)])) as Record<string, string>);

  return {
    async create(name, rateLimit) {
      const { created, secretHash } = newKey(name, rateLimit);
      await runScript(redis, CREATE, [keyOf(created.id), index], [
        created.id, name, secretHash.toString("hex"), created.created_at, created.rate_limit === null ? "" : String(created.rate_limit),
      ]);
      return created;
    },

    async list() {
      const ids = (await redis.send("SMEMBERS", [index])) as string[];
      const rows = await Promise.all(ids.map(read));
      return rows
        .filter((row): row is StoredKey => row !== undefined)
        .map(({ secretHash: _, ...info }) => info)
        .sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1));
    },

    async revoke(id) {
      return (await runScript(redis, REVOKE, [keyOf(id)], [new Date().toISOString()])) === 1;
    },

    async verify(key) {
      const parsed = parseKey(key);
      if (!parsed) return undefined;
      const row = await read(parsed.id);
      if (!row || row.revoked_at !== null || !secretMatches(parsed.secret, row.secretHash)) return undefined;
      const now = Date.now();
      if (row.last_used_at === null || now - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
        row.last_used_at = new Date(now).toISOString();
        // Not awaited: bookkeeping must not add a round trip to the request.
        redis.send("HSET", [keyOf(row.id), "last_used_at", row.last_used_at]).catch(() => {});
      }
      const { secretHash: _, ...info } = row;
      return info;
    },

    async getActive(id) {
      const row = await read(id);
      if (!row || row.revoked_at !== null) return undefined;
      const { secretHash: _, ...info } = row;
      return info;
    },

    async activeCount() {
      return (await this.list()).filter((key) => key.revoked_at === null).length;
    },

    close() {
      if (ownsClient) redis.close();
    },
  };
}

// --- internal ---

type StoredKey = ApiKeyInfo & { secretHash: Buffer };

function fromHash(id: string, hash: Record<string, string> | null): StoredKey | undefined {
  if (!hash || hash.secret_hash === undefined) return undefined;
  const optional = (value: string | undefined) => (value === undefined || value === "" ? null : value);
  const rateLimit = optional(hash.rate_limit);
  return {
    id,
    name: hash.name ?? "",
    created_at: hash.created_at ?? "",
    last_used_at: optional(hash.last_used_at),
    revoked_at: optional(hash.revoked_at),
    rate_limit: rateLimit === null ? null : Number(rateLimit),
    secretHash: Buffer.from(hash.secret_hash, "hex"),
  };
}

// KEYS[1] the key's hash, KEYS[2] the id set; ARGV id, name, secret hash, created_at, rate limit or "".
const CREATE = defineScript(`
redis.call('HSET', KEYS[1], 'name', ARGV[2], 'secret_hash', ARGV[3], 'created_at', ARGV[4], 'rate_limit', ARGV[5])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
`);

// KEYS[1] the key's hash; ARGV[1] now. 1 when an active key was revoked, 0 otherwise.
const REVOKE = defineScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local revoked = redis.call('HGET', KEYS[1], 'revoked_at')
if revoked and revoked ~= '' then return 0 end
redis.call('HSET', KEYS[1], 'revoked_at', ARGV[1])
return 1
`);

import { join } from "node:path";
import type { Config } from "../config.ts";
import { connectRedis } from "../redis.ts";
import { openKeyStore, type KeyStore } from "./api-keys.ts";
import { openRedisKeyStore } from "./api-keys-redis.ts";
import { fileKeyRing, redisKeyRing, type KeyRingStore } from "./oauth/key-ring-store.ts";
import { openOAuthStore, type OAuthStore } from "./oauth/store.ts";
import { openRedisOAuthStore } from "./oauth/store-redis.ts";

/*
 * Where authentication state lives. With REDIS_URL: API keys, OAuth clients, codes, grants, refresh
 * tokens and the signing key ring all in Redis, so any number of server processes and the CLI share
 * them. Without: `DATA_DIR/auth.sqlite` and `DATA_DIR/oauth-signing-key.json`, shared only by
 * processes on one machine.
 */

/** The API key store config names. Throws when REDIS_URL is set but Redis cannot be reached. */
/** Where the API keys of `config` live, as a person reads it: the SQLite file or the Redis URL (password hidden). */
export function keyStoreLocation(config: Config): string {
  if (!config.redisUrl) return join(config.dataDir, "auth.sqlite");
  const url = new URL(config.redisUrl);
  if (url.password) url.password = "***";
  return `Redis ${url.href}`;
}

export async function openKeys(config: Config): Promise<KeyStore> {
  return config.redisUrl ? openRedisKeyStore(await connectRedis(config.redisUrl)) : openKeyStore(config.dataDir);
}

/** The built-in authorization server's store and signing key ring; `close` releases both. */
export async function openOAuthState(config: Config): Promise<{ store: OAuthStore; ring: KeyRingStore; close(): void }> {
  if (!config.redisUrl) {
    const store = openOAuthStore(config.dataDir);
    return { store, ring: fileKeyRing(config.dataDir), close: () => store.close() };
  }
  const redis = await connectRedis(config.redisUrl);
  const store = openRedisOAuthStore(redis, { accessTokenTtlSeconds: config.oauth.accessTokenTtlSeconds, ownsClient: false });
  return { store, ring: redisKeyRing(redis), close: () => redis.close() };
}

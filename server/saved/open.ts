import type { Config } from "../config.ts";
import { connectRedis } from "../redis.ts";
import { openSavedSearchStore, type SavedSearchStore } from "./store.ts";
import { openRedisSavedSearchStore } from "./store-redis.ts";
import { openOutbox, type Outbox } from "./outbox.ts";
import { openRedisOutbox } from "./outbox-redis.ts";

/** The saved searches where the API keys live: REDIS_URL's Redis, else `DATA_DIR/saved-searches.sqlite`. Throws when Redis cannot be reached. */
export async function openSavedSearches(config: Config): Promise<SavedSearchStore> {
  return config.redisUrl ? openRedisSavedSearchStore(await connectRedis(config.redisUrl)) : openSavedSearchStore(config.dataDir);
}

/** The webhook outbox beside them. */
export async function openWebhookOutbox(config: Config): Promise<Outbox> {
  return config.redisUrl ? openRedisOutbox(await connectRedis(config.redisUrl)) : openOutbox(config.dataDir);
}

import type { RedisClient } from "bun";
import { defineScript, runScript } from "../redis.ts";
import { LOG_KEPT, type Delivery, type Outbox } from "./outbox.ts";

/**
 * The webhook outbox in Redis (with REDIS_URL, beside the keys and saved searches): each delivery as
 * JSON at `<prefix>delivery:<id>`, the pending ones in the sorted set `<prefix>outbox` by next attempt,
 * each saved search's log in `<prefix>deliveries:<saved id>` by creation, and the range start of each
 * at `<prefix>delivery-start:<saved id>:<since>`. Adding is one script (all of it or nothing).
 */
export function openRedisOutbox(redis: RedisClient, options: { prefix?: string; ownsClient?: boolean } = {}): Outbox {
  const { prefix = "jobsearch:", ownsClient = true } = options;
  const keyOf = (id: string) => `${prefix}delivery:${id}`;
  const logOf = (savedId: string) => `${prefix}deliveries:${savedId}`;
  const startOf = (savedId: string, since: number) => `${prefix}delivery-start:${savedId}:${since}`;
  const outbox = `${prefix}outbox`;
  const read = async (id: string): Promise<Delivery | undefined> => {
    const text = await redis.send("GET", [keyOf(id)]);
    return typeof text === "string" ? (JSON.parse(text) as Delivery) : undefined;
  };
  const readAll = async (ids: string[]) => (await Promise.all(ids.map(read))).filter((d): d is Delivery => d !== undefined);

  return {
    async add(d) {
      await runScript(redis, ADD, [keyOf(d.id), outbox, logOf(d.savedId), startOf(d.savedId, d.since)], [JSON.stringify(d), d.id, String(d.nextAt), String(d.createdAt)]);
    },
    async due(now, limit) {
      return readAll((await redis.send("ZRANGE", [outbox, "-inf", String(now), "BYSCORE", "LIMIT", "0", String(limit)])) as string[]);
    },
    async nextDue() {
      const first = (await redis.send("ZRANGE", [outbox, "0", "0", "WITHSCORES"])) as unknown[];
      const score = Array.isArray(first[0]) ? (first[0] as unknown[])[1] : first[1];
      return score === undefined ? undefined : Number(score);
    },
    async update(d) {
      await redis.send("SET", [keyOf(d.id), JSON.stringify(d)]);
      if (d.status === "pending") await redis.send("ZADD", [outbox, String(d.nextAt), d.id]);
      else {
        await redis.send("ZREM", [outbox, d.id]);
        await prune(d.savedId);
      }
    },
    async startingAt(savedId, since) {
      const id = await redis.send("GET", [startOf(savedId, since)]);
      return typeof id === "string" ? read(id) : undefined;
    },
    async log(savedId, limit) {
      return readAll((await redis.send("ZRANGE", [logOf(savedId), "+inf", "-inf", "BYSCORE", "REV", "LIMIT", "0", String(limit)])) as string[]);
    },
    async pendingCount() {
      return Number(await redis.send("ZCARD", [outbox]));
    },
    async forget(savedId) {
      const ids = (await redis.send("ZRANGE", [logOf(savedId), "0", "-1"])) as string[];
      for (const d of await readAll(ids)) await redis.send("DEL", [keyOf(d.id), startOf(savedId, d.since)]);
      if (ids.length > 0) await redis.send("ZREM", [outbox, ...ids]);
      await redis.send("DEL", [logOf(savedId)]);
    },
    close() {
      if (ownsClient) redis.close();
    },
  };

  /** Keeps the newest LOG_KEPT finished deliveries of a saved search (pending ones always stay). */
  async function prune(savedId: string): Promise<void> {
    const old = (await redis.send("ZRANGE", [logOf(savedId), "0", String(-LOG_KEPT - 1)])) as string[];
    for (const d of await readAll(old)) {
      if (d.status === "pending") continue;
      await redis.send("DEL", [keyOf(d.id), startOf(savedId, d.since)]);
      await redis.send("ZREM", [logOf(savedId), d.id]);
    }
  }
}

// KEYS: delivery, outbox, the saved search's log, its range start; ARGV: JSON, id, next attempt, created.
const ADD = defineScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then return 0 end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[4], ARGV[2])
redis.call('SET', KEYS[4], ARGV[2])
return 1
`);

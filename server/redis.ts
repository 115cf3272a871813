import { RedisClient } from "bun";
import { withTimeout as raceTimeout } from "./timeout.ts";

/*
 * Redis plumbing shared by the rate limiter and the shared auth stores: one way to open a client,
 * run a Lua script and bound a command's wait. Nothing here knows what the keys mean.
 */

/** A Lua script with its SHA-1, for EVALSHA. */
export interface RedisScript {
  source: string;
  sha: string;
}

export const CONNECT_TIMEOUT_MS = 1000;
export const COMMAND_TIMEOUT_MS = 500;
/**
 * How long a store's first connection may take. A process opens its stores while it loads the model and
 * the table on the same thread: on a busy machine that work held the event loop past 1 s and the
 * handshake, answered in time, was timed out unread ("Connection closed"), so the start failed.
 */
const OPEN_TIMEOUT_MS = 10_000;

/** A Lua script ready for `runScript`. */
export function defineScript(source: string): RedisScript {
  return { source, sha: new Bun.CryptoHasher("sha1").update(source).digest("hex") };
}

/**
 * A client that fails fast instead of queueing while disconnected. `autoReconnect` suits
 * long-lived stores; the rate limiter manages reconnects itself and turns it off.
 */
export function createRedisClient(url: string, options: { autoReconnect?: boolean; connectionTimeout?: number } = {}): RedisClient {
  return new RedisClient(url, {
    autoReconnect: options.autoReconnect ?? true,
    enableOfflineQueue: false,
    connectionTimeout: options.connectionTimeout ?? CONNECT_TIMEOUT_MS,
  });
}

/**
 * Opens a client for data that must be shared (keys, OAuth state) and checks it answers. Throws
 * with the URL (password masked) when Redis cannot be reached, so a start-up fails loudly.
 */
export async function connectRedis(url: string): Promise<RedisClient> {
  const client = createRedisClient(url, { connectionTimeout: OPEN_TIMEOUT_MS });
  try {
    await withTimeout(client.connect(), OPEN_TIMEOUT_MS * 2);
    return client;
  } catch (error) {
    client.close();
    throw new Error(`cannot reach Redis at ${maskPassword(url)}: ${error instanceof Error ? error.message : error}`, { cause: error });
  }
}

/** Runs a script by SHA and sends its source only when Redis does not know it yet (NOSCRIPT). */
export async function runScript(redis: RedisClient, script: RedisScript, keys: string[], args: string[]): Promise<unknown> {
  const params = [String(keys.length), ...keys, ...args];
  try {
    return await redis.send("EVALSHA", [script.sha, ...params]);
  } catch (error) {
    if (!String((error as Error).message).startsWith("NOSCRIPT")) throw error;
    return await redis.send("EVAL", [script.source, ...params]);
  }
}

/** Rejects when `promise` takes longer than `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms = COMMAND_TIMEOUT_MS): Promise<T> {
  return raceTimeout(promise, ms, () => new Error(`Redis did not answer within ${ms} ms`));
}

// --- internal ---

function maskPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.href;
  } catch {
    return "(unparsable REDIS_URL)";
  }
}

/** Exclusive work across processes: only the holder of the lease does it. */
export interface Lease {
  /** True when this process now holds the lease (it expires by itself after its TTL). */
  acquire(): Promise<boolean>;
  /** Pushes the expiry `ttlMs` ahead; false when this process no longer holds the lease. */
  renew(): Promise<boolean>;
  /** Gives it up, only if this process still holds it. */
  release(): Promise<void>;
  /** What the current holder stored with it (`info` of createRedisLease); undefined when free. */
  holder(): Promise<Record<string, unknown> | undefined>;
}

/**
 * A lease on `<name>` in Redis (SET NX PX of a random token and `info`; renewed and released by
 * compare-and-set scripts), so a process that died holding it blocks the others for `ttlMs` at most.
 */
export function createRedisLease(redis: RedisClient, name: string, ttlMs: number, info: Record<string, unknown> = {}): Lease {
  const value = JSON.stringify({ ...info, token: crypto.randomUUID() });
  return {
    async acquire() {
      return (await redis.send("SET", [name, value, "NX", "PX", String(ttlMs)])) === "OK";
    },
    async renew() {
      return Number(await runScript(redis, RENEW, [name], [value, String(ttlMs)])) === 1;
    },
    async release() {
      await runScript(redis, RELEASE, [name], [value]);
    },
    async holder() {
      const held = await redis.send("GET", [name]);
      if (typeof held !== "string") return undefined;
      try {
        return JSON.parse(held) as Record<string, unknown>;
      } catch {
        return {};
      }
    },
  };
}

const RENEW = defineScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);

const RELEASE = defineScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

import type { RedisClient } from "bun";
import { createLogger, type Logger } from "../log.ts";
import { createRedisClient, defineScript, runScript, withTimeout } from "../redis.ts";
import { checkLimit, decide, limitsUnavailable, periodOf, SLOT_LEASE_MS, toMicros, type RateLimiter } from "./rate-limit.ts";

/**
 * Limiter whose state lives in Redis, so every process sharing `url` enforces one combined limit.
 * Each hit is one atomic Lua script (EVALSHA, EVAL on NOSCRIPT); keys expire when their bucket is
 * full again. Without an injected `now` the script reads Redis' own clock, so process clocks may
 * differ.
 *
 * Redis failure policy: fail closed. When Redis cannot be reached, errors, or takes over 500 ms to
 * answer, the request is refused with {@link limitsUnavailable} (503), never decided by a count of
 * this process's own (with several processes or servers that would let a key exceed its limits); one
 * warning is logged per outage, and a reconnect is tried in the background at most once a second, so
 * requests are decided by Redis again as soon as it answers. Only the first connection attempt is
 * awaited. Slots in flight are entries with an expiry (`slotLeaseMs`), so a process that dies frees
 * its slots; a slot given back while Redis did not answer, or taken by a command whose answer did not
 * come in time, is given back before the next command Redis does answer.
 */
export function createRedisRateLimiter(
  url: string,
  options: { now?: () => number; random?: () => number; prefix?: string; log?: Logger; slotLeaseMs?: number } = {},
): RateLimiter {
  const { now, random = Math.random, prefix = "jobsearch:rate:", log = createLogger("info"), slotLeaseMs = SLOT_LEASE_MS } = options;
  let client: RedisClient | undefined;
  let connecting: Promise<void> | undefined;
  let first: Promise<void> | undefined;
  let retryAt = 0;
  let failing = false;
  let closed = false;
  /** Slots left while Redis did not answer: token → [key, when the lease ends anyway (ms)]. */
  const unreleased = new Map<string, [string, number]>();

  const fail = (error: unknown) => {
    client?.close();
    client = undefined;
    retryAt = performance.now() + RECONNECT_DELAY_MS;
    if (!failing) log.warn("rate limit: Redis unavailable, refusing requests until it is back", { error });
    failing = true;
  };

  const open = async (): Promise<void> => {
    const fresh = createRedisClient(url, { autoReconnect: false });
    try {
      await fresh.connect();
      if (closed) fresh.close();
      else client = fresh;
    } catch (error) {
      fresh.close();
      fail(error);
    }
  };
  const connect = (): Promise<void> => (connecting ??= open().finally(() => (connecting = undefined)));

  // Every hit waits for the first attempt only; later reconnects run in the background while requests are refused.
  const connection = async (): Promise<RedisClient | undefined> => {
    first ??= connect();
    await first;
    if (client?.connected) return client;
    if (client) fail(new Error("connection to Redis lost"));
    if (performance.now() >= retryAt) void connect();
    return undefined;
  };

  /** Gives back the slots Redis missed, before anything else asks it how many are taken. */
  const releaseMissed = async (redis: RedisClient): Promise<void> => {
    const missed = [...unreleased];
    const live = missed.filter(([, [, until]]) => until > Date.now());
    await Promise.all(live.map(([token, [key]]) => redis.send("ZREM", [key, token])));
    for (const [token] of missed) unreleased.delete(token);
  };

  /** `run` against Redis when it answers, else undefined (and the outage noted). */
  const attempt = async <T>(run: (redis: RedisClient) => Promise<T>): Promise<T | undefined> => {
    const redis = closed ? undefined : await connection();
    if (!redis) return undefined;
    try {
      if (unreleased.size > 0) await withTimeout(releaseMissed(redis));
      const result = await withTimeout(run(redis));
      if (failing) log.info("rate limit: Redis is back");
      failing = false;
      return result;
    } catch (error) {
      if (client === redis) fail(error);
      return undefined;
    }
  };

  return {
    async hit(principalId, limit, options = {}) {
      checkLimit(limit);
      const at = now ? String(toMicros(now())) : "";
      const args = [String(limit), at, String(periodOf(options)), options.peek ? "1" : ""];
      const reply = await attempt((redis) => runScript(redis, GCRA, [prefix + principalId], args));
      if (reply === undefined) throw limitsUnavailable();
      const [allowed, remaining, waitUs] = reply as [number, number, number];
      return decide({ allowed: allowed === 1, remaining, waitUs }, random);
    },
    async enter(principalId, limit) {
      checkLimit(limit);
      const key = `${prefix}inflight:${principalId}`;
      const token = crypto.randomUUID();
      const leaseEnds = Date.now() + slotLeaseMs;
      let sent = false;
      const reply = await attempt((redis) => {
        sent = true;
        return runScript(redis, ENTER, [key], [String(limit), token, String(slotLeaseMs)]);
      });
      if (reply === undefined) {
        // Redis may have taken the slot without its answer arriving: it is given back with the missed ones.
        if (sent && !closed) unreleased.set(token, [key, leaseEnds]);
        throw limitsUnavailable();
      }
      if (Number(reply) !== 1) return undefined;
      let left = false;
      return {
        leave() {
          if (left) return;
          left = true;
          void attempt((redis) => redis.send("ZREM", [key, token])).then((done) => {
            if (done === undefined && !closed) unreleased.set(token, [key, leaseEnds]);
          });
        },
      };
    },
    async close() {
      closed = true;
      client?.close();
      client = undefined;
      await connecting;
    },
  };
}

// --- internal ---

const RECONNECT_DELAY_MS = 1000;

// KEYS[1] principal key; ARGV[1] limit per period, ARGV[2] now in µs or "" for Redis' clock,
// ARGV[3] the period in µs, ARGV[4] "1" to peek (decide, store nothing).
// Returns {allowed 0|1, remaining, wait µs}. string.format('%d') keeps 16-digit µs exact.
const GCRA_LUA = `
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[2])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local interval = math.ceil(tonumber(ARGV[3]) / limit)
local tat = math.max(tonumber(redis.call('GET', KEYS[1])) or now, now) + interval
local allowAt = tat - interval * limit
if allowAt > now then return {0, 0, allowAt - now} end
if ARGV[4] == '1' then return {1, math.floor((now - allowAt) / interval), 0} end
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', string.format('%d', math.ceil((tat - now) / 1000)))
return {1, math.floor((now - allowAt) / interval), 0}
`;
const GCRA = defineScript(GCRA_LUA);

// KEYS[1] the principal's slots (a sorted set: token → expiry in ms); ARGV[1] limit, ARGV[2] token,
// ARGV[3] lease ms. Expired slots (their process died) are dropped first. Returns 1 when taken, 0 when full.
const ENTER = defineScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`);

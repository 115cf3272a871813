import type { RedisClient } from "bun";
import { AppError } from "../../shared/errors.ts";
import { createLogger, type Logger } from "../log.ts";
import { createRedisClient, defineScript, runScript, withTimeout } from "../redis.ts";
import type { Principal } from "./principal.ts";

/*
 * GCRA (the generic cell rate algorithm, a token bucket kept as one timestamp per principal).
 * A limit of N per minute emits one request every T = ceil(60 s / N) µs; the stored "theoretical
 * arrival time" (TAT) moves T ahead with each allowed request, and a request is allowed while
 * TAT + T - N·T <= now. A fresh principal therefore gets exactly N at once, then one every T:
 * smooth, no window edges to burst across. All arithmetic is in whole microseconds, exact in
 * doubles (and in Redis' Lua) until the year 2255; rounding T up keeps bursts at exactly N and
 * the sustained rate at most N per minute (at most N µs slower per minute).
 */

export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** whole seconds ≥ 1 until a request would be allowed, jitter included; 0 when allowed */
  retryAfter: number;
}

export interface HitOptions {
  /** The window `limit` counts over; default one minute. */
  periodMs?: number;
  /** Only ask: the decision the next hit would get, nothing counted (e.g. "is this IP locked out?"). */
  peek?: boolean;
}

export interface RateLimiter {
  /**
   * Counts one request of the principal when it is allowed; a refused request costs nothing.
   * `limit` requests per minute, or per `options.periodMs`.
   */
  hit(principalId: string, limit: number, options?: HitOptions): Promise<RateDecision>;
  /**
   * Takes one of the principal's `limit` slots for work in flight; undefined when all are taken.
   * `leave()` gives it back (a slot whose process died frees itself after {@link SLOT_LEASE_MS}).
   */
  enter(principalId: string, limit: number): Promise<Slot | undefined>;
  close(): Promise<void> | void;
}

export interface Slot {
  leave(): void;
}

/** Longest a slot stays taken without `leave()`: longer than any request may run (IDLE_TIMEOUT_S caps it). */
export const SLOT_LEASE_MS = 120_000;

/**
 * Per-process limiter. Memory stays bounded: a principal whose bucket is full again is
 * indistinguishable from a new one, so such entries are dropped once per minute of clock time.
 * `now` (ms) and `random` ([0, 1)) exist for tests.
 */
export function createMemoryRateLimiter(options: { now?: () => number; random?: () => number } = {}): RateLimiter {
  const { now = Date.now, random = Math.random } = options;
  const arrivals = new Map<string, number>();
  const inFlight = new Map<string, number>();
  let nextSweep = 0;
  return {
    async hit(principalId, limit, options = {}) {
      const at = toMicros(now());
      if (at >= nextSweep) {
        for (const [id, tat] of arrivals) if (tat <= at) arrivals.delete(id);
        nextSweep = at + MINUTE_US;
      }
      const step = gcra(arrivals.get(principalId), at, limit, periodOf(options));
      if (step.allowed && !options.peek) arrivals.set(principalId, step.tat);
      return decide(step, random);
    },
    async enter(principalId, limit) {
      checkLimit(limit);
      const taken = inFlight.get(principalId) ?? 0;
      if (taken >= limit) return undefined;
      inFlight.set(principalId, taken + 1);
      let left = false;
      return {
        leave() {
          if (left) return;
          left = true;
          const now = (inFlight.get(principalId) ?? 1) - 1;
          if (now > 0) inFlight.set(principalId, now);
          else inFlight.delete(principalId);
        },
      };
    },
    close() {
      arrivals.clear();
      inFlight.clear();
    },
  };
}

/**
 * Limiter whose state lives in Redis, so every process sharing `url` enforces one combined limit.
 * Each hit is one atomic Lua script (EVALSHA, EVAL on NOSCRIPT); keys expire when their bucket is
 * full again. Without an injected `now` the script reads Redis' own clock, so process clocks may
 * differ.
 *
 * Redis failure policy: fail over, never closed and never fully open. When Redis cannot be reached,
 * errors, or takes over 500 ms to answer, the hit is decided by an in-process limiter with the same
 * limit (so during an outage each process allows up to the limit on its own), one warning is logged
 * per outage, and a reconnect is tried in the background at most once a second; hits use Redis
 * again as soon as it answers. Only the first connection attempt is awaited.
 */
export function createRedisRateLimiter(
  url: string,
  options: { now?: () => number; random?: () => number; prefix?: string; log?: Logger } = {},
): RateLimiter {
  const { now, random = Math.random, prefix = "jobsearch:rate:", log = createLogger("info") } = options;
  const fallback = createMemoryRateLimiter({ now: now ?? Date.now, random });
  let client: RedisClient | undefined;
  let connecting: Promise<void> | undefined;
  let first: Promise<void> | undefined;
  let retryAt = 0;
  let failing = false;
  let closed = false;

  const fail = (error: unknown) => {
    client?.close();
    client = undefined;
    retryAt = performance.now() + RECONNECT_DELAY_MS;
    if (!failing) log.warn("rate limit: Redis unavailable, limiting per process until it is back", { error });
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

  // Every hit waits for the first attempt only; later reconnects run behind the fallback.
  const connection = async (): Promise<RedisClient | undefined> => {
    first ??= connect();
    await first;
    if (client?.connected) return client;
    if (client) fail(new Error("connection to Redis lost"));
    if (performance.now() >= retryAt) void connect();
    return undefined;
  };

  /** `run` against Redis when it answers, else undefined (and the outage noted). */
  const attempt = async <T>(run: (redis: RedisClient) => Promise<T>): Promise<T | undefined> => {
    const redis = closed ? undefined : await connection();
    if (!redis) return undefined;
    try {
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
      if (reply === undefined) return fallback.hit(principalId, limit, options);
      const [allowed, remaining, waitUs] = reply as [number, number, number];
      return decide({ allowed: allowed === 1, remaining, waitUs }, random);
    },
    async enter(principalId, limit) {
      checkLimit(limit);
      const key = `${prefix}inflight:${principalId}`;
      const token = crypto.randomUUID();
      const reply = await attempt((redis) => runScript(redis, ENTER, [key], [String(limit), token, String(SLOT_LEASE_MS)]));
      if (reply === undefined) return fallback.enter(principalId, limit);
      if (Number(reply) !== 1) return undefined;
      let left = false;
      return {
        leave() {
          if (left) return;
          left = true;
          // A slot Redis does not hear about frees itself after SLOT_LEASE_MS.
          void attempt((redis) => redis.send("ZREM", [key, token]));
        },
      };
    },
    async close() {
      closed = true;
      client?.close();
      client = undefined;
      await connecting;
      await fallback.close();
    },
  };
}

/** Redis when redisUrl is set, memory otherwise. */
export function createRateLimiter(settings: { redisUrl?: string }, log?: Logger): RateLimiter {
  return settings.redisUrl ? createRedisRateLimiter(settings.redisUrl, log ? { log } : {}) : createMemoryRateLimiter();
}

/**
 * Counts one request of `principal` against its own limit (principal.rateLimit ?? defaultPerMinute).
 * Throws AppError("RATE_LIMITED", "Rate limit exceeded", { retryAfter }) when it is over the limit.
 */
export async function enforceRateLimit(limiter: RateLimiter, principal: Principal, defaultPerMinute: number): Promise<void> {
  const decision = await limiter.hit(principal.id, principal.rateLimit ?? defaultPerMinute);
  if (!decision.allowed) throw new AppError("RATE_LIMITED", "Rate limit exceeded", { retryAfter: decision.retryAfter });
}

/**
 * Takes one of the principal's `limit` slots for a request in flight. Throws the same RATE_LIMITED
 * error (Retry-After 1 s) when they are all taken, so one key cannot occupy the server.
 */
export async function enterInFlight(limiter: RateLimiter, principal: Principal, limit: number): Promise<Slot> {
  const slot = await limiter.enter(principal.id, limit);
  if (!slot) throw new AppError("RATE_LIMITED", "Rate limit exceeded", { retryAfter: IN_FLIGHT_RETRY_S });
  return slot;
}

// --- internal ---

const MINUTE_US = 60_000_000;
/** Retry-After for a principal with all its slots in flight: a search takes milliseconds. */
const IN_FLIGHT_RETRY_S = 1;
const RECONNECT_DELAY_MS = 1000;

interface Step {
  allowed: boolean;
  remaining: number;
  /** µs until a request would be allowed; 0 when allowed */
  waitUs: number;
  /** the principal's new TAT, stored only when allowed */
  tat: number;
}

/** One GCRA step over a period of `periodUs`; `runScript` below is the same in Lua, keep them in step. */
function gcra(storedTat: number | undefined, now: number, limit: number, periodUs: number): Step {
  checkLimit(limit);
  const interval = Math.ceil(periodUs / limit);
  const tat = Math.max(storedTat ?? now, now) + interval;
  const allowAt = tat - interval * limit;
  if (allowAt > now) return { allowed: false, remaining: 0, waitUs: allowAt - now, tat };
  return { allowed: true, remaining: Math.floor((now - allowAt) / interval), waitUs: 0, tat };
}

/** Jitter: a uniform 0–1 s is added to the exact wait before rounding up, so
 * ceil(wait) <= retryAfter <= ceil(wait) + 1, never below the true wait. */
function decide(step: Omit<Step, "tat">, random: () => number): RateDecision {
  if (step.allowed) return { allowed: true, remaining: step.remaining, retryAfter: 0 };
  const jitterUs = Math.min(Math.max(random(), 0), 1) * 1_000_000;
  return { allowed: false, remaining: 0, retryAfter: Math.max(1, Math.ceil((step.waitUs + jitterUs) / 1_000_000)) };
}

function periodOf(options: HitOptions): number {
  const periodUs = options.periodMs === undefined ? MINUTE_US : toMicros(options.periodMs);
  if (!Number.isInteger(periodUs) || periodUs < 1) {
    throw new AppError("INTERNAL_ERROR", `rate limit period must be a positive number of ms, got ${options.periodMs}`);
  }
  return periodUs;
}

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new AppError("INTERNAL_ERROR", `rate limit must be a positive whole number per minute, got ${limit}`);
  }
}

function toMicros(ms: number): number {
  return Math.round(ms * 1000);
}

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

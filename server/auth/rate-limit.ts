import { AppError } from "../../shared/errors.ts";
import { IN_FLIGHT_CAUSE } from "../http/error-response.ts";
import type { Logger } from "../log.ts";
import { createRedisRateLimiter } from "./rate-limit-redis.ts";
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
   * `limit` requests per minute, or per `options.periodMs`. Throws {@link limitsUnavailable} when
   * the count cannot be reached (a shared limiter whose Redis or primary process does not answer).
   */
  hit(principalId: string, limit: number, options?: HitOptions): Promise<RateDecision>;
  /**
   * Takes one of the principal's `limit` slots for work in flight; undefined when all are taken.
   * `leave()` gives it back (in Redis, a slot whose process died frees itself when its lease ends).
   * Throws {@link limitsUnavailable} as `hit` does.
   */
  enter(principalId: string, limit: number): Promise<Slot | undefined>;
  close(): Promise<void> | void;
}

export interface Slot {
  leave(): void;
}

/** Default for how long a slot stays taken without `leave()`; config.ts sets it above the longest request. */
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

/** Redis when redisUrl is set, memory otherwise. */
export function createRateLimiter(settings: { redisUrl?: string; slotLeaseMs?: number }, log?: Logger): RateLimiter {
  if (!settings.redisUrl) return createMemoryRateLimiter();
  return createRedisRateLimiter(settings.redisUrl, {
    ...(log ? { log } : {}),
    ...(settings.slotLeaseMs ? { slotLeaseMs: settings.slotLeaseMs } : {}),
  });
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
 * The refusal when the limits cannot be decided (the primary process or Redis does not answer in
 * time): limits fail closed, never falling back to a count per process that would let a key exceed them.
 */
export function limitsUnavailable(): AppError {
  return new AppError("SERVICE_UNAVAILABLE", "Service unavailable: rate limits cannot be checked right now; try again shortly", { retryAfter: LIMITS_RETRY_S });
}

/**
 * Takes one of the principal's `limit` slots for a request in flight. Throws the same RATE_LIMITED
 * error (Retry-After 1 s) when they are all taken, so one key cannot occupy the server.
 */
export async function enterInFlight(limiter: RateLimiter, principal: Principal, limit: number): Promise<Slot> {
  const slot = await limiter.enter(principal.id, limit);
  if (!slot) throw new AppError("RATE_LIMITED", "Rate limit exceeded", { retryAfter: IN_FLIGHT_RETRY_S, cause: IN_FLIGHT_CAUSE });
  return slot;
}

// --- internal ---

const MINUTE_US = 60_000_000;
/** Retry-After for a principal with all its slots in flight: a search takes milliseconds. */
const IN_FLIGHT_RETRY_S = 1;
/** Retry-After when the limits cannot be checked: Redis is tried again every second, the primary answers in µs. */
const LIMITS_RETRY_S = 1;

interface Step {
  allowed: boolean;
  remaining: number;
  /** µs until a request would be allowed; 0 when allowed */
  waitUs: number;
  /** the principal's new TAT, stored only when allowed */
  tat: number;
}

/** One GCRA step over a period of `periodUs`; rate-limit-redis.ts runs the same in Lua, keep them in step. */
function gcra(storedTat: number | undefined, now: number, limit: number, periodUs: number): Step {
  checkLimit(limit);
  const interval = Math.ceil(periodUs / limit);
  const tat = Math.max(storedTat ?? now, now) + interval;
  const allowAt = tat - interval * limit;
  if (allowAt > now) return { allowed: false, remaining: 0, waitUs: allowAt - now, tat };
  return { allowed: true, remaining: Math.floor((now - allowAt) / interval), waitUs: 0, tat };
}

// Shared with rate-limit-redis.ts, which runs the same step in Lua.

/** Jitter: a uniform 0–1 s is added to the exact wait before rounding up, so
 * ceil(wait) <= retryAfter <= ceil(wait) + 1, never below the true wait. */
export function decide(step: Omit<Step, "tat">, random: () => number): RateDecision {
  if (step.allowed) return { allowed: true, remaining: step.remaining, retryAfter: 0 };
  const jitterUs = Math.min(Math.max(random(), 0), 1) * 1_000_000;
  return { allowed: false, remaining: 0, retryAfter: Math.max(1, Math.ceil((step.waitUs + jitterUs) / 1_000_000)) };
}

export function periodOf(options: HitOptions): number {
  const periodUs = options.periodMs === undefined ? MINUTE_US : toMicros(options.periodMs);
  if (!Number.isInteger(periodUs) || periodUs < 1) {
    throw new AppError("INTERNAL_ERROR", `rate limit period must be a positive number of ms, got ${options.periodMs}`);
  }
  return periodUs;
}

export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new AppError("INTERNAL_ERROR", `rate limit must be a positive whole number per minute, got ${limit}`);
  }
}

export function toMicros(ms: number): number {
  return Math.round(ms * 1000);
}

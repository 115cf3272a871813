import type { RateLimiter } from "./rate-limit.ts";

/** Failed sign-ins allowed per client address and per key id within SIGN_IN_WINDOW_MS… */
export const SIGN_IN_FAILURES = 10;
/** …after which one more is allowed every SIGN_IN_WINDOW_MS / SIGN_IN_FAILURES (90 s). */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;

export interface SignInLimit {
  /** Seconds to wait when the address or the key id typed in is locked out; undefined when sign-in may be tried. */
  lockedFor(ip: string, apiKey: string): Promise<number | undefined>;
  /** Counts one failed sign-in against the address and the key id typed in. */
  recordFailure(ip: string, apiKey: string): Promise<void>;
}

/**
 * Brute-force protection of the sign-in form, on the service's one limiter (memory or Redis, so
 * replicas share it): wrong API keys are counted per client address and per key id (the public
 * `jsk_<id>_` part), and either running out locks further attempts out, correct keys included.
 * Successful sign-ins cost nothing. Keys carry 256-bit secrets, so this bounds noise and guessing
 * load rather than making guessing infeasible; the price is that someone who knows a key id can
 * lock its sign-in (not its API use) for a while. Attempts racing between the check and the count
 * can exceed the limit by their concurrency.
 */
export function createSignInLimit(limiter: RateLimiter): SignInLimit {
  const options = { periodMs: SIGN_IN_WINDOW_MS };
  const buckets = (ip: string, apiKey: string) => {
    const keyId = KEY_ID.exec(apiKey.trim())?.[1];
    return keyId === undefined ? [`signin:ip:${ip}`] : [`signin:ip:${ip}`, `signin:key:${keyId}`];
  };
  return {
    async lockedFor(ip, apiKey) {
      const decisions = await Promise.all(
        buckets(ip, apiKey).map((bucket) => limiter.hit(bucket, SIGN_IN_FAILURES, { ...options, peek: true })),
      );
      const waits = decisions.filter((decision) => !decision.allowed).map((decision) => decision.retryAfter);
      return waits.length === 0 ? undefined : Math.max(...waits);
    },
    async recordFailure(ip, apiKey) {
      await Promise.all(buckets(ip, apiKey).map((bucket) => limiter.hit(bucket, SIGN_IN_FAILURES, options)));
    },
  };
}

// --- internal ---

/** The id part of `jsk_<id>_<secret>` (api-keys.ts), also from a key whose secret is wrong. */
const KEY_ID = /^jsk_([0-9a-f]{16})_/;

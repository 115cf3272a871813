/**
 * The rate limiters' shared tests: one behaviour suite that every implementation must pass, run with a
 * clock that moves only when told, and what the suites need around it (closing limiters, Redis keys).
 */
import { afterEach, expect, test } from "bun:test";
import { RedisClient } from "bun";
import type { RateLimiter } from "../../server/auth/rate-limit.ts";

/** A clock that only moves when told; whole microseconds inside so waits are exact. */
export function fakeClock() {
  let micros = 1_750_000_000_000_000;
  return {
    now: () => micros / 1000,
    advanceMicros: (us: number) => void (micros += us),
    advance: (ms: number) => void (micros += ms * 1000),
  };
}

export type MakeLimiter = (options: { now?: () => number; random?: () => number }) => RateLimiter;

/** Collects the limiters a file's tests open and closes them after each test; returns the collector. */
export function trackLimiters(): (limiter: RateLimiter) => RateLimiter {
  const open: RateLimiter[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((limiter) => limiter.close()));
  });
  return (limiter) => (open.push(limiter), limiter);
}

/** µs between two requests at `limit` per minute, as the limiter computes it. */
export const interval = (limit: number) => Math.ceil(60_000_000 / limit);

export async function hits(limiter: RateLimiter, id: string, limit: number, count: number) {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.hit(id, limit));
  return decisions;
}

export function behaviourSuite(make: MakeLimiter) {
  test.each([1, 7, 120, 600])("allows exactly %d at once, counting down remaining, then refuses", async (limit) => {
    const limiter = make({ now: fakeClock().now });
    const decisions = await hits(limiter, "key:a", limit, limit + 2);
    expect(decisions.slice(0, limit).map((d) => d.allowed)).toEqual(Array(limit).fill(true));
    expect(decisions.slice(0, limit).map((d) => d.remaining)).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
    expect(decisions.slice(0, limit).every((d) => d.retryAfter === 0)).toBe(true);
    for (const denied of decisions.slice(limit)) expect(denied).toMatchObject({ allowed: false, remaining: 0 });
  });

  test.each([1, 7, 120, 600])("at %d/min refills one request per interval, to the microsecond", async (limit) => {
    const clock = fakeClock();
    const limiter = make({ now: clock.now });
    await hits(limiter, "key:a", limit, limit);
    clock.advanceMicros(interval(limit) - 1);
    expect((await limiter.hit("key:a", limit)).allowed).toBe(false);
    clock.advanceMicros(1);
    expect(await limiter.hit("key:a", limit)).toEqual({ allowed: true, remaining: 0, retryAfter: 0 });
    expect((await limiter.hit("key:a", limit)).allowed).toBe(false);
  });

  test.each([1, 7, 120])("at %d/min sustains one request per interval and refills fully after idling", async (limit) => {
    const clock = fakeClock();
    const limiter = make({ now: clock.now });
    await hits(limiter, "key:a", limit, limit);
    for (let i = 0; i < 20; i++) {
      clock.advanceMicros(interval(limit));
      expect((await limiter.hit("key:a", limit)).allowed).toBe(true);
      expect((await limiter.hit("key:a", limit)).allowed).toBe(false);
    }
    clock.advance(61_000);
    const again = await hits(limiter, "key:a", limit, limit + 1);
    expect(again.filter((d) => d.allowed)).toHaveLength(limit);
  });

  test("keeps principals independent", async () => {
    const limiter = make({ now: fakeClock().now });
    expect((await hits(limiter, "key:a", 3, 4)).map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect((await hits(limiter, "key:b", 3, 4)).map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect((await limiter.hit("oauth:https://idp#alice", 3)).allowed).toBe(true);
  });

  test("applies each principal's own limit", async () => {
    const limiter = make({ now: fakeClock().now });
    const [a, b] = await Promise.all([hits(limiter, "key:a", 2, 10), hits(limiter, "key:b", 5, 10)]);
    expect(a.filter((d) => d.allowed)).toHaveLength(2);
    expect(b.filter((d) => d.allowed)).toHaveLength(5);
  });

  test.each([
    [1, 0],
    [1, 0.999999],
    [7, 0],
    [7, 0.5],
    [120, 0],
    [120, 0.4],
    [120, 0.6],
    [600, 0.999999],
  ])("at %d/min with jitter draw %d, retryAfter = ceil(wait + draw) and waiting it suffices", async (limit, draw) => {
    const clock = fakeClock();
    const limiter = make({ now: clock.now, random: () => draw });
    await hits(limiter, "key:a", limit, limit);
    const waitUs = interval(limit);
    const denied = await limiter.hit("key:a", limit);
    expect(denied.allowed).toBe(false);
    expect(Number.isInteger(denied.retryAfter)).toBe(true);
    expect(denied.retryAfter).toBeGreaterThanOrEqual(1);
    expect(denied.retryAfter * 1_000_000).toBeGreaterThanOrEqual(waitUs);
    expect(denied.retryAfter).toBe(Math.ceil((waitUs + draw * 1_000_000) / 1_000_000));
    clock.advance(denied.retryAfter * 1000);
    expect((await limiter.hit("key:a", limit)).allowed).toBe(true);
  });

  test("spreads retryAfter over the documented 0–1 s of jitter", async () => {
    const limiter = make({ now: fakeClock().now });
    await hits(limiter, "key:a", 120, 120);
    const seen = new Set((await hits(limiter, "key:a", 120, 200)).map((d) => d.retryAfter));
    // wait is 0.5 s: ceil(0.5 + [0, 1)) is 1 or 2, and 200 draws see both.
    expect([...seen].sort()).toEqual([1, 2]);
  });

  test("counts over another period: 10 per 15 minutes refills one every 90 s", async () => {
    const clock = fakeClock();
    const limiter = make({ now: clock.now });
    const window = { periodMs: 15 * 60_000 };
    const burst = [];
    for (let i = 0; i < 11; i++) burst.push(await limiter.hit("signin:ip:a", 10, window));
    expect(burst.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(burst[10]!.retryAfter).toBeGreaterThanOrEqual(90);
    expect(burst[10]!.retryAfter).toBeLessThanOrEqual(91);
    clock.advance(89_999);
    expect((await limiter.hit("signin:ip:a", 10, window)).allowed).toBe(false);
    clock.advance(1);
    expect((await limiter.hit("signin:ip:a", 10, window)).allowed).toBe(true);
  });

  test("peeking decides like a hit but counts nothing", async () => {
    const limiter = make({ now: fakeClock().now });
    for (let i = 0; i < 5; i++) expect(await limiter.hit("key:a", 2, { peek: true })).toMatchObject({ allowed: true, remaining: 1 });
    await hits(limiter, "key:a", 2, 2);
    const peeked = await limiter.hit("key:a", 2, { peek: true });
    expect(peeked.allowed).toBe(false);
    expect(peeked.retryAfter).toBeGreaterThanOrEqual(30);
  });

  test.each([0, -1, 1.5, Number.NaN])("rejects a limit of %d per minute", async (limit) => {
    const limiter = make({ now: fakeClock().now });
    await expect(limiter.hit("key:a", limit)).rejects.toMatchObject({ code: "INTERNAL_ERROR" });
  });
}

export function uniquePrefix(): string {
  return `test:${crypto.randomUUID()}:`;
}

export async function rawClient(url: string): Promise<RedisClient> {
  const client = new RedisClient(url);
  await client.connect();
  return client;
}

/** A loopback port with nothing listening: bound, then released. */
export async function closedPort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

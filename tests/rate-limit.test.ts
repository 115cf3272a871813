import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { RedisClient } from "bun";
import {
  createMemoryRateLimiter,
  createRateLimiter,
  enforceRateLimit,
  type RateLimiter,
} from "../server/auth/rate-limit.ts";
import { createRedisRateLimiter } from "../server/auth/rate-limit-redis.ts";
import type { Principal } from "../server/auth/principal.ts";
import { AppError } from "../shared/errors.ts";
import { startRedis, type TestRedis } from "./support/redis.ts";

/** A clock that only moves when told; whole microseconds inside so waits are exact. */
function fakeClock() {
  let micros = 1_750_000_000_000_000;
  return {
    now: () => micros / 1000,
    advanceMicros: (us: number) => void (micros += us),
    advance: (ms: number) => void (micros += ms * 1000),
  };
}

type MakeLimiter = (options: { now?: () => number; random?: () => number }) => RateLimiter;

let redis: TestRedis;
const open: RateLimiter[] = [];
const track = (limiter: RateLimiter) => (open.push(limiter), limiter);

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((limiter) => limiter.close()));
});
afterAll(async () => {
  await redis?.stop();
});

/** µs between two requests at `limit` per minute, as the limiter computes it. */
const interval = (limit: number) => Math.ceil(60_000_000 / limit);

async function hits(limiter: RateLimiter, id: string, limit: number, count: number) {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.hit(id, limit));
  return decisions;
}

function behaviourSuite(make: MakeLimiter) {
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

describe("memory limiter", () => {
  behaviourSuite((options) => track(createMemoryRateLimiter(options)));
});

describe("redis limiter", () => {
  behaviourSuite((options) => track(createRedisRateLimiter(redis.url, { ...options, prefix: uniquePrefix() })));

  test("two instances (two clients, like two processes) enforce one combined limit under concurrency", async () => {
    const clock = fakeClock();
    const prefix = uniquePrefix();
    const one = track(createRedisRateLimiter(redis.url, { now: clock.now, prefix }));
    const two = track(createRedisRateLimiter(redis.url, { now: clock.now, prefix }));
    const burst = (limiter: RateLimiter) => Array.from({ length: 100 }, () => limiter.hit("key:shared", 120));
    const decisions = await Promise.all([...burst(one), ...burst(two)]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    expect(new Set(decisions.filter((d) => d.allowed).map((d) => d.remaining)).size).toBe(120);
  });

  test("without an injected clock, uses Redis' clock and still shares one exact limit", async () => {
    const prefix = uniquePrefix();
    const one = track(createRedisRateLimiter(redis.url, { prefix }));
    const two = track(createRedisRateLimiter(redis.url, { prefix }));
    // 60/min refills once a second; 200 loopback round trips take far less.
    const burst = (limiter: RateLimiter) => Array.from({ length: 100 }, () => limiter.hit("key:shared", 60));
    const decisions = await Promise.all([...burst(one), ...burst(two)]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
  });

  test("stores one key per principal that expires when its bucket is full again", async () => {
    const prefix = uniquePrefix();
    const limiter = track(createRedisRateLimiter(redis.url, { prefix }));
    await hits(limiter, "key:a", 120, 10);
    const raw = await rawClient();
    const pttl = Number(await raw.send("PTTL", [`${prefix}key:a`]));
    expect(await raw.send("KEYS", [`${prefix}*`])).toEqual([`${prefix}key:a`]);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(10 * 500);
    raw.close();
  });

  test("keeps separate prefixes apart", async () => {
    const clock = fakeClock();
    const one = track(createRedisRateLimiter(redis.url, { now: clock.now, prefix: uniquePrefix() }));
    const two = track(createRedisRateLimiter(redis.url, { now: clock.now, prefix: uniquePrefix() }));
    expect((await hits(one, "key:a", 1, 2)).map((d) => d.allowed)).toEqual([true, false]);
    expect((await hits(two, "key:a", 1, 2)).map((d) => d.allowed)).toEqual([true, false]);
  });
});

describe("redis failure policy: fail over to a per-process limit", () => {
  test("with Redis unreachable, each hit is decided quickly by the local limit", async () => {
    const limiter = track(createRedisRateLimiter(`redis://127.0.0.1:${await closedPort()}`, { now: fakeClock().now }));
    const started = performance.now();
    const decisions = await hits(limiter, "key:a", 3, 5);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("when Redis stops answering, hits fall back within the timeout and return to Redis afterwards", async () => {
    const prefix = uniquePrefix();
    const limiter = track(createRedisRateLimiter(redis.url, { prefix }));
    expect((await limiter.hit("key:a", 100)).remaining).toBe(99);
    const raw = await rawClient();
    await raw.send("CLIENT", ["PAUSE", "1500", "ALL"]);
    const started = performance.now();
    const during = await limiter.hit("key:a", 100);
    expect(during.allowed).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    // The local limiter counted that hit, not Redis: its count starts fresh.
    expect(during.remaining).toBe(99);
    await Bun.sleep(1600);
    await limiter.hit("key:a", 100); // starts the reconnect in the background
    await Bun.sleep(200);
    await limiter.hit("key:b", 100);
    expect(await raw.send("EXISTS", [`${prefix}key:b`])).toBe(1);
    raw.close();
  });

  test("when the connection drops, hits keep being decided", async () => {
    const own = await startRedis();
    const limiter = track(createRedisRateLimiter(own.url, { now: fakeClock().now }));
    expect((await hits(limiter, "key:a", 2, 1))[0]?.allowed).toBe(true);
    await own.stop();
    const after = await hits(limiter, "key:a", 2, 3);
    expect(after.map((d) => d.allowed)).toEqual([true, true, false]);
  });
});

describe("enforceRateLimit", () => {
  const principal = (id: string, rateLimit: number | null): Principal => ({ id, name: id, rateLimit, via: "api_key" });

  test("throws AppError RATE_LIMITED (429) with an integer retryAfter once the key's own limit is spent", async () => {
    const limiter = track(createMemoryRateLimiter({ now: fakeClock().now }));
    const alice = principal("key:alice", 2);
    await enforceRateLimit(limiter, alice, 600);
    await enforceRateLimit(limiter, alice, 600);
    const error = await enforceRateLimit(limiter, alice, 600).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "RATE_LIMITED", status: 429, message: "Rate limit exceeded" });
    const { retryAfter } = error as AppError;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(30);
    expect(retryAfter).toBeLessThanOrEqual(31);
  });

  test("uses the default limit when the key sets none", async () => {
    const limiter = track(createMemoryRateLimiter({ now: fakeClock().now }));
    const bob = principal("key:bob", null);
    for (let i = 0; i < 3; i++) await enforceRateLimit(limiter, bob, 3);
    await expect(enforceRateLimit(limiter, bob, 3)).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  test("counts REST and MCP requests of one principal together", async () => {
    const limiter = track(createMemoryRateLimiter({ now: fakeClock().now }));
    const rest: Principal = { id: "key:carol", keyId: "carol", name: "carol", rateLimit: 2, via: "api_key" };
    const mcp: Principal = { ...rest, via: "oauth", clientId: "client-1" };
    await enforceRateLimit(limiter, rest, 600);
    await enforceRateLimit(limiter, mcp, 600);
    await expect(enforceRateLimit(limiter, rest, 600)).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });
});

describe("createRateLimiter", () => {
  test("keeps counts in Redis when redisUrl is set", async () => {
    const id = `key:${crypto.randomUUID()}`;
    const limiter = track(createRateLimiter({ redisUrl: redis.url }));
    await limiter.hit(id, 10);
    const raw = await rawClient();
    expect(await raw.send("EXISTS", [`jobsearch:rate:${id}`])).toBe(1);
    raw.close();
  });

  test("keeps counts in memory otherwise", async () => {
    const id = `key:${crypto.randomUUID()}`;
    const limiter = track(createRateLimiter({}));
    expect((await hits(limiter, id, 2, 3)).map((d) => d.allowed)).toEqual([true, true, false]);
    const raw = await rawClient();
    expect(await raw.send("EXISTS", [`jobsearch:rate:${id}`])).toBe(0);
    raw.close();
  });
});

// --- internal ---

function uniquePrefix(): string {
  return `test:${crypto.randomUUID()}:`;
}

async function rawClient(): Promise<RedisClient> {
  const client = new RedisClient(redis.url);
  await client.connect();
  return client;
}

/** A loopback port with nothing listening: bound, then released. */
async function closedPort(): Promise<number> {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

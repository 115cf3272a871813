/**
 * The Redis rate limiter: the behaviour suite every limiter passes, one limit shared by several clients,
 * its keys, the refusals while Redis is away (fail closed), and createRateLimiter's choice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createRateLimiter, type RateLimiter } from "../../../server/auth/rate-limit.ts";
import { createRedisRateLimiter } from "../../../server/auth/rate-limit-redis.ts";
import { startRedis, type TestRedis } from "../../support/redis.ts";
import { behaviourSuite, closedPort, fakeClock, hits, rawClient as connectRaw, trackLimiters, uniquePrefix } from "../../support/rate-limit.ts";

let redis: TestRedis;
const track = trackLimiters();
const rawClient = () => connectRaw(redis.url);
const UNAVAILABLE = { code: "SERVICE_UNAVAILABLE", status: 503, retryAfter: 1 };

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
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

describe("redis failure policy: fail closed", () => {
  test("with Redis unreachable, every hit and slot is refused with SERVICE_UNAVAILABLE, quickly", async () => {
    const limiter = track(createRedisRateLimiter(`redis://127.0.0.1:${await closedPort()}`, { now: fakeClock().now }));
    for (let i = 0; i < 5; i++) await expect(limiter.hit("key:a", 3)).rejects.toMatchObject(UNAVAILABLE);
    await expect(limiter.enter("key:a", 3)).rejects.toMatchObject(UNAVAILABLE);
  });

  test("when Redis stops answering, hits are refused, never counted per process, and Redis decides again once it answers", async () => {
    const prefix = uniquePrefix();
    const limiter = track(createRedisRateLimiter(redis.url, { prefix }));
    const hourly = { periodMs: 3_600_000 }; // 10 an hour: no refill during the test
    expect((await limiter.hit("key:a", 10, hourly)).remaining).toBe(9);
    const [raw, other] = [await rawClient(), await rawClient()];
    await raw.send("CLIENT", ["PAUSE", "1500", "ALL"]);
    await expect(limiter.hit("key:a", 10, hourly)).rejects.toMatchObject(UNAVAILABLE);
    await other.send("PING", []); // answered when the pause ends
    // Asked again (the event loop turning between tries) until the background reconnect is through.
    let after: Awaited<ReturnType<RateLimiter["hit"]>> | undefined;
    while (after === undefined) {
      after = await limiter.hit("key:a", 10, hourly).catch(() => undefined);
      if (after === undefined) await new Promise((resolve) => setImmediate(resolve));
    }
    // Redis' count went on (a count of this process's own would start again at 9).
    expect(after.remaining).toBeLessThan(9);
    raw.close();
    other.close();
  });

  test("when the connection drops, hits are refused until Redis is back", async () => {
    const own = await startRedis();
    const limiter = track(createRedisRateLimiter(own.url, { now: fakeClock().now }));
    expect((await hits(limiter, "key:a", 2, 1))[0]?.allowed).toBe(true);
    await own.stop();
    for (let i = 0; i < 3; i++) await expect(limiter.hit("key:a", 2)).rejects.toMatchObject(UNAVAILABLE);
    await expect(limiter.enter("key:a", 2)).rejects.toMatchObject(UNAVAILABLE);
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

/** The in-memory rate limiter (the behaviour suite every limiter passes) and enforceRateLimit's 429. */
import { describe, expect, test } from "bun:test";
import { createMemoryRateLimiter, enforceRateLimit } from "../../../server/auth/rate-limit.ts";
import type { Principal } from "../../../server/auth/principal.ts";
import { AppError } from "../../../shared/errors.ts";
import { behaviourSuite, fakeClock, trackLimiters } from "../../support/rate-limit.ts";

const track = trackLimiters();

describe("memory limiter", () => {
  behaviourSuite((options) => track(createMemoryRateLimiter(options)));
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

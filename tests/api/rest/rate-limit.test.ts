import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { spawnServer, startTestServer, tempDir, type TestServer } from "../../support/helpers.ts";
import { startRedis } from "../../support/redis.ts";
import { createApiKey, loadDataDir } from "../../support/stores.ts";

const search = (url: string, key: string) =>
  fetch(`${url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify({ q: "nurse", top_k: 1 }) });

const mcpCall = (url: string, headers: Record<string, string>) =>
  fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_cities", arguments: {} } }),
  });

async function expectLimited(response: Response) {
  expect(response.status).toBe(429);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "retry_after"]);
  expect(body.error).toBe("Rate limit exceeded");
  expect(Number.isInteger(body.retry_after)).toBe(true);
  expect(body.retry_after as number).toBeGreaterThanOrEqual(1);
  expect(response.headers.get("retry-after")).toBe(String(body.retry_after));
}

describe("in memory", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ records: fixturePostings().slice(0, 4), env: { RATE_LIMIT_PER_MINUTE: "4" } });
  });
  afterAll(() => t.stop());

  test("a key's own limit holds over REST, and MCP with the same key counts against it", async () => {
    const key = (await t.server.keys.create("limited", 3)).key;
    expect((await search(t.url, key)).status).toBe(200);
    expect((await mcpCall(t.url, { "x-api-key": key })).status).toBe(200);
    expect((await search(t.url, key)).status).toBe(200);
    await expectLimited(await search(t.url, key));
    await expectLimited(await mcpCall(t.url, { "x-api-key": key }));
  });

  test("keys without a limit get RATE_LIMIT_PER_MINUTE, each its own", async () => {
    const a = (await t.server.keys.create("a")).key;
    const b = (await t.server.keys.create("b")).key;
    for (let i = 0; i < 4; i++) expect((await search(t.url, a)).status).toBe(200);
    await expectLimited(await search(t.url, a));
    expect((await search(t.url, b)).status).toBe(200);
  });

  test("an invalid key is refused before it could use up anything", async () => {
    for (let i = 0; i < 6; i++) expect((await search(t.url, "bogus")).status).toBe(403);
  });
});

describe("through Redis, two server processes", () => {
  test("share one limit per key", async () => {
    const redis = await startRedis();
    const dataDir = tempDir();
    const env = { REDIS_URL: redis.url, DEMO_DATA: "false", MAX_IN_FLIGHT_PER_KEY: "100" };
    await loadDataDir(dataDir, fixturePostings().slice(0, 4));
    const key = await createApiKey(dataDir, "shared", env, 10);

    const one = await spawnServer(dataDir, env);
    const two = await spawnServer(dataDir, env);
    try {
      const statuses = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? search(one.ready.url, key) : mcpCall(two.ready.url, { "x-api-key": key })).then((r) => r.status)),
      );
      expect(statuses.filter((s) => s === 200)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    } finally {
      await one.stop();
      await two.stop();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

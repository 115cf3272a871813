import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { createRedisRateLimiter } from "../../server/auth/rate-limit-redis.ts";
import { loadConfig } from "../../server/config.ts";
import { connectRedis } from "../../server/redis.ts";
import { fixturePostings } from "../support/fixtures/postings.ts";
import { slowSearch, spawnServer, startTestServer, tempDir, until, type TestServer } from "../support/helpers.ts";
import { startRedis, type TestRedis } from "../support/redis.ts";
import { copyDataDir, createApiKey, loadDataDir, loadedSample } from "../support/stores.ts";

/**
 * What one request may cost: pages up to result 1000, a few requests in flight per key (others are
 * not starved), and each call of an MCP batch charged on its own.
 */
const WINDOW_MESSAGE = "offset + top_k must be at most 1000 (the deepest result a search pages to); narrow the query or filters instead";
const MCP_ACCEPT = "application/json, text/event-stream";

/** 3,690 real postings (every 8th): deep pages take long enough for requests to overlap. */
let postings: object[];
/**
 * A DATA_DIR holding them: each server of the file that needs them serves a copy. The run's sample,
 * loaded once for every file that asks for it (stores.ts).
 */
let loaded: string;
let redis: TestRedis;
beforeAll(async () => {
  ({ postings, dataDir: loaded } = await loadedSample(8));
  redis = await startRedis();
}, 120_000);
afterAll(async () => {
  await redis.stop();
  rmSync(loaded, { recursive: true, force: true });
});

const search = (url: string, key: string, body: object) =>
  fetch(`${url}/v1/search`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });

const mcpPost = (url: string, key: string, body: unknown) =>
  fetch(`${url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: MCP_ACCEPT, "x-api-key": key }, body: JSON.stringify(body) });

const searchCall = (id: number, query = "nurse") => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_jobs", arguments: { query, top_k: 5 } } });

/** Searches the server completed through MCP, from its /metrics. */
const mcpSearches = async (url: string) => {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(text.match(/^jobsearch_search_duration_seconds_count\{interface="mcp"\} (\d+)$/m)?.[1] ?? Number.NaN);
};

describe("one server", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ dataDir: copyDataDir(loaded), env: { SEARCH_CACHE_MB: "0", MAX_IN_FLIGHT_PER_KEY: "2", RATE_LIMIT_PER_MINUTE: "100000" } });
  }, 120_000);
  afterAll(() => t.stop());

  test("a page past result 1000 is refused on REST GET, REST POST and MCP, naming the limit; the last page is served", async () => {
    const got = await fetch(`${t.url}/v1/search?q=engineer&offset=901&top_k=100`, { headers: { "x-api-key": t.apiKey } });
    expect(got.status).toBe(400);
    expect(await got.json()).toMatchObject({ error: WINDOW_MESSAGE, error_code: "INVALID_PARAMETER" });
    const posted = await search(t.url, t.apiKey, { q: "engineer", offset: 990, top_k: 500 });
    expect(posted.status).toBe(400);
    expect(await posted.json()).toMatchObject({ error: WINDOW_MESSAGE, error_code: "INVALID_PARAMETER" });

    const client = new Client({ name: "bounds-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { "x-api-key": t.apiKey } } }));
    try {
      const refused = await client.callTool({ name: "search_jobs", arguments: { query: "engineer", offset: 950, top_k: 100 } });
      expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: WINDOW_MESSAGE }] });
      const last = await client.callTool({ name: "search_jobs", arguments: { query: "engineer", offset: 900, top_k: 100, collapse: false } });
      expect(last.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    const lastPage = await search(t.url, t.apiKey, { q: "engineer", offset: 900, top_k: 100, collapse: false });
    expect(lastPage.status).toBe(200);
  });

  test("one key with many requests at once gets 429 beyond its slots; another key's searches are all served meanwhile", async () => {
    const other = (await t.server.keys.create("bystander")).key;
    const burst = Promise.all(
      Array.from({ length: 12 }, (_, i) => search(t.url, t.apiKey, { q: `software engineer ${i}`, offset: 900, top_k: 100 })),
    );
    const bystander: number[] = [];
    for (let i = 0; i < 3; i++) bystander.push((await search(t.url, other, { q: "registered nurse", top_k: 10 })).status);
    const responses = await burst;
    const statuses = responses.map((r) => r.status);
    expect(bystander).toEqual([200, 200, 200]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(4);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    const limited = responses.find((r) => r.status === 429)!;
    expect(limited.headers.get("retry-after")).toBe("1");
    expect(await limited.json()).toEqual({ error: "Rate limit exceeded", retry_after: 1 });
    // The slots are free again once the burst is answered.
    expect((await search(t.url, t.apiKey, { q: "nurse" })).status).toBe(200);
  });

  test("a request refused for want of a slot costs no rate: a key limited to 3 a minute gets exactly 3 searches, however its requests overlap", async () => {
    const key = (await t.server.keys.create("three-a-minute", 3)).key;
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => search(t.url, key, { q: `data analyst ${i}`, offset: 900, top_k: 100 })));
    const served = burst.filter((r) => r.status === 200).length;
    expect(burst.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    const later: number[] = [];
    for (let i = 0; i < 4; i++) later.push((await search(t.url, key, { q: "data analyst" })).status);
    expect(served + later.filter((s) => s === 200).length).toBe(3);
    expect(later.at(-1)).toBe(429);
  });

  test("a batch larger than MCP_MAX_BATCH is refused whole; within it, calls beyond the key's slots get the error alone", async () => {
    const big = await mcpPost(t.url, t.apiKey, Array.from({ length: 11 }, (_, i) => searchCall(i + 1)));
    expect(big.status).toBe(400);
    expect(await big.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600, message: "Batch too large: at most 10 messages" }, id: null });

    const batch = await mcpPost(t.url, t.apiKey, Array.from({ length: 5 }, (_, i) => searchCall(i + 1)));
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Array<{ id: number; result?: { structuredContent: { total: number } }; error?: { code: number; message: string; data: object } }>;
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(answers.filter((a) => a.result?.structuredContent.total === 5)).toHaveLength(2);
    const refused = answers.filter((a) => a.error);
    expect(refused).toHaveLength(3);
    for (const { error } of refused) expect(error).toEqual({ code: -32000, message: "Rate limit exceeded", data: { error_code: "RATE_LIMITED", retry_after: 1 } });
  });
});

describe("an MCP batch is charged per call", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ records: postings.slice(0, 50), env: { MAX_IN_FLIGHT_PER_KEY: "10" } });
  }, 120_000);
  afterAll(() => t.stop());

  // One admitted call is the case the SDK answers with a lone object rather than an array.
  test.each([1, 3])("a key limited to %d a minute runs that many of 8 searches; the others get the rate-limit error", async (perMinute) => {
    const key = (await t.server.keys.create(`batch-${perMinute}`, perMinute)).key;
    const before = await mcpSearches(t.url);
    const response = await mcpPost(t.url, key, Array.from({ length: 8 }, (_, i) => searchCall(i + 1)));
    expect(response.status).toBe(200);
    type Answer = { id: number; result?: { isError?: boolean; structuredContent: { total: number } }; error?: { message: string; data: { error_code: string; retry_after: number } } };
    const answers = (await response.json()) as Answer[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const ran = answers.filter((a) => a.result !== undefined);
    expect(ran).toHaveLength(perMinute);
    for (const { result } of ran) expect(result!.isError).toBeUndefined();
    // Exactly that many searches ran on the server, not 8 with the other answers dropped.
    expect((await mcpSearches(t.url)) - before).toBe(perMinute);
    const refused = answers.filter((a) => a.error);
    expect(refused).toHaveLength(8 - perMinute);
    for (const { error } of refused) {
      expect(error!.message).toBe("Rate limit exceeded");
      expect(error!.data.error_code).toBe("RATE_LIMITED");
      expect(error!.data.retry_after).toBeGreaterThanOrEqual(1);
    }
    // The limit is spent: a single call now gets the HTTP 429 of job-search-service.md §5.
    expect((await mcpPost(t.url, key, searchCall(9))).status).toBe(429);
  });
});

test("slots in flight are shared through Redis: two limiters, one count; a slot is released only once and expires if never released", async () => {
  const a = createRedisRateLimiter(redis.url);
  const b = createRedisRateLimiter(redis.url);
  const inspect = await connectRedis(redis.url);
  try {
    const first = await a.enter("shared-key", 2);
    const second = await b.enter("shared-key", 2);
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(await a.enter("shared-key", 2)).toBeUndefined();
    expect(await b.enter("other-key", 2)).toBeDefined();
    first!.leave();
    first!.leave();
    // leave() gives the slot back in the background: wait until Redis holds the one left.
    await until(async () => Number(await inspect.send("ZCARD", ["jobsearch:rate:inflight:shared-key"])), (n) => n === 1, 10);
    const third = await b.enter("shared-key", 2);
    expect(third).toBeDefined();
    expect(await a.enter("shared-key", 2)).toBeUndefined();
    // Each slot carries its own expiry (a process that died never gives it back).
    const [, score] = ((await inspect.send("ZRANGE", ["jobsearch:rate:inflight:shared-key", "0", "0", "WITHSCORES"])) as unknown[]).flat();
    const [seconds] = (await inspect.send("TIME", [])) as [string, string];
    expect(Number(score) - Number(seconds) * 1000).toBeGreaterThan(100_000);
    expect(Number(score) - Number(seconds) * 1000).toBeLessThanOrEqual(121_000);
  } finally {
    inspect.close();
    await a.close();
    await b.close();
  }
});

test("a slot's lease in Redis outlasts the longest request: SEARCH_TIMEOUT_MS plus 2 minutes", async () => {
  expect(loadConfig({}).rateLimit.slotLeaseMs).toBe(130_000);
  const { slotLeaseMs } = loadConfig({ SEARCH_TIMEOUT_MS: "200000", IDLE_TIMEOUT_S: "255" }).rateLimit;
  expect(slotLeaseMs).toBe(320_000);
  const limiter = createRedisRateLimiter(redis.url, { prefix: "lease:", slotLeaseMs });
  const inspect = await connectRedis(redis.url);
  try {
    await limiter.enter("key", 1);
    const [, expires] = ((await inspect.send("ZRANGE", ["lease:inflight:key", "0", "0", "WITHSCORES"])) as unknown[]).flat();
    const [seconds] = (await inspect.send("TIME", [])) as [string, string];
    expect(Number(expires) - Number(seconds) * 1000).toBeGreaterThan(300_000);
  } finally {
    inspect.close();
    await limiter.close();
  }
});

test("a slot given back while Redis does not answer is given back once it answers again (no lockout until the lease ends)", async () => {
  const limiter = createRedisRateLimiter(redis.url, { prefix: "missed:" });
  const inspect = await connectRedis(redis.url);
  const taken = async () => Number(await inspect.send("ZCARD", ["missed:inflight:key"]));
  try {
    const slot = await limiter.enter("key", 1);
    expect(await taken()).toBe(1);
    await inspect.send("CLIENT", ["PAUSE", "1000", "ALL"]);
    slot!.leave(); // Redis holds the ZREM past the limiter's 500 ms, which gives up on it
    await Bun.sleep(1100);
    expect(await taken()).toBe(1);
    // The limiter reconnects in the background; its next command to Redis gives the slot back first.
    await until(async () => {
      await limiter.hit("someone-else", 1000).catch(() => undefined); // refused (503) until the reconnect is through
      return taken();
    }, (n) => n === 0);
    expect(await taken()).toBe(0);
    expect(await limiter.enter("key", 1)).toBeDefined();
    expect(await taken()).toBe(1);
  } finally {
    inspect.close();
    await limiter.close();
  }
});

test("two server processes sharing Redis hold one key to its slots together; another key is served meanwhile", async () => {
  // Requests whose bodies are held back keep their slots as long as the test wants (slowSearch): which are
  // admitted is then exact, however fast a search runs, so a few postings do (two servers over the 3,690
  // spent ~15 s of a busy machine reading them into memory, at start and until they stopped).
  const dataDir = tempDir();
  try {
    await loadDataDir(dataDir, fixturePostings());
    const env = { REDIS_URL: redis.url, DEMO_DATA: "false", MAX_IN_FLIGHT_PER_KEY: "2", RATE_LIMIT_PER_MINUTE: "100000", IDLE_TIMEOUT_S: "255" };
    const key = await createApiKey(dataDir, "burst", env);
    const other = await createApiKey(dataDir, "bystander", env);
    const [one, two] = await Promise.all([spawnServer(dataDir, env), spawnServer(dataDir, env)]);
    const urls = [one.ready.url, two.ready.url];
    try {
      const held = await Promise.all(Array.from({ length: 16 }, (_, i) => slowSearch(urls[i % 2]!, key, { q: `developer ${i}`, top_k: 10 })));
      // Two slots between both processes: 14 of the 16 are refused at once (each process alone would admit 2).
      let refused = 0;
      await new Promise<void>((resolve) => held.forEach((request) => request.closed.then(() => ++refused === 14 && resolve())));
      const admitted = held.filter((request) => !request.answered());
      expect(admitted).toHaveLength(2);
      const bystander: number[] = [];
      for (let i = 0; i < 4; i++) bystander.push((await search(urls[i % 2]!, other, { q: "registered nurse", top_k: 10 })).status);
      expect(bystander).toEqual([200, 200, 200, 200]);
      const statusOf = (requests: typeof held) => Promise.all(requests.map((request) => request.finish().then((answer) => answer.status)));
      expect(await statusOf(held.filter((request) => !admitted.includes(request)))).toEqual(Array(14).fill(429));
      // The two held are served once their bodies come.
      expect(await statusOf(admitted)).toEqual([200, 200]);
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 300_000);

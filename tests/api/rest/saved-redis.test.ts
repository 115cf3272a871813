import { afterAll, beforeAll, expect, test } from "bun:test";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { anotherJobLike, fixturePostings } from "../../support/fixtures/postings.ts";
import { spawnServer, startTestServer, type TestServer } from "../../support/helpers.ts";
import { startRedis, type TestRedis } from "../../support/redis.ts";

/**
 * Saved searches with REDIS_URL, where the keys then live: two servers (replicas: this process and
 * another) on one table and one Redis see the same saved searches, and checks at once on both return
 * each new posting once.
 */

let redis: TestRedis;
let a: TestServer;
let b: { url: string; stop(): Promise<unknown> };
beforeAll(async () => {
  redis = await startRedis();
  const env = { REDIS_URL: redis.url, MAX_IN_FLIGHT_PER_KEY: "16" };
  a = await startTestServer({ records: fixturePostings(), env });
  const other = await spawnServer(a.dataDir, { ...env, DEMO_DATA: "false", READ_CONSISTENCY_MS: "0", LOG_LEVEL: "info", LOG_FORMAT: "json" });
  b = { url: other.ready.url as string, stop: other.stop };
});
afterAll(async () => {
  await b.stop();
  await a.stop();
  await redis.stop();
});

const call = async (t: { url: string }, method: string, path: string, key: string, body?: unknown) => {
  const response = await fetch(`${t.url}${path}`, { method, headers: { "x-api-key": key, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: response.status, body: (await response.json()) as any };
};

test("a saved search made on one replica is the other's too; checks on both return each new posting once", async () => {
  const created = await call(a, "POST", "/v1/saved-searches", a.apiKey, { name: "nurses", q: "registered nurse", city: "London" });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await call(b, "GET", `/v1/saved-searches/${id}`, a.apiKey)).body.name).toBe("nurses");
  const other = (await a.server.keys.create("other")).key;
  expect((await call(b, "GET", `/v1/saved-searches/${id}`, other)).status).toBe(404);

  const nurse = fixturePostings().find((p) => p.job_title === "Registered Nurse" && p.city === "London")!;
  const loaded = Array.from({ length: 5 }, (_, i) => `redis-${i}`);
  await ingestRecords(a.server, loaded.map((id) => ({ ref: id, value: anotherJobLike(nurse, id) })));
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call(i % 2 === 0 ? a : b, "GET", `/v1/saved-searches/${id}/new`, a.apiKey)));
  expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
  const returned = answers.flatMap((answer) => answer.body.results.map((r: { id: string }) => r.id));
  expect(returned.sort()).toEqual(loaded);
});

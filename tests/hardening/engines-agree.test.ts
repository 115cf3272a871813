import { afterAll, beforeAll, expect, test } from "bun:test";
import { disagreements, engineRequests, startEnginePair, type EnginePair } from "../support/engine-diff.ts";
import { loadedSample } from "../support/stores.ts";

/*
 * The two engines on the input space: 708 seeded requests over every search parameter (hostile and
 * extreme values, every currency, every filter combination, deep pages, facets), each sent to a server
 * answering from the in-memory copy and to one over the same table above its HOT_PATH_MAX_POSTINGS,
 * answering from LanceDB. Every 8th posting of the shared data (~3,700). The longer run, with its
 * count of disagreements: bun bench/perf/engines-agree.ts.
 *
 * Seed 67's first 708 requests make every kind of input the generator makes: each literal value of each
 * parameter, values of the data and lists of them, each enumerated element, each parameter by GET and
 * POST, each pair of parameters together (bun bench/perf/engines-coverage.ts counts them). The seed sent
 * before needed 1,492 of its 1,500 for that, at twice the time (19 s of the suite).
 */
let pair: EnginePair;
let postings: Array<Record<string, any>>;

beforeAll(async () => {
  const loaded = await loadedSample(8);
  postings = loaded.postings;
  pair = await startEnginePair(postings, {}, loaded.dataDir);
}, 300_000);
afterAll(() => pair.stop());

test("the in-memory copy and LanceDB give the same status, error, ids in order, facets and totals for 708 seeded requests", async () => {
  const requests = engineRequests(67, 708, postings);
  const found = await disagreements(pair, requests);
  expect(found.slice(0, 3)).toEqual([]);
}, 600_000);

test("a salary bound whose conversion overflows answers 200 with nothing on both engines (it answered 500 from LanceDB)", async () => {
  const request = { via: "post" as const, body: { q: "engineer", salary_min: 1.7e308, salary_currency: "GBP" } };
  expect(await disagreements(pair, [request])).toEqual([]);
  const response = await fetch(`${pair.lance.url}/v1/search`, {
    method: "POST", headers: { "x-api-key": pair.lance.apiKey, "content-type": "application/json" }, body: JSON.stringify(request.body),
  });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { results: unknown[] }).results).toEqual([]);
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { createResultCache } from "../../../server/cache/result-cache.ts";
import { searchJobs } from "../../../server/search/search.ts";
import type { JobResult } from "../../../shared/job.ts";
import { parseSearchRequest } from "../../../shared/search.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

const request = (raw: Record<string, unknown>) => parseSearchRequest(raw, "post");

describe("result cache", () => {
  test("every parameter is part of the key", () => {
    const cache = createResultCache(1 << 20);
    const base = { q: "backend engineer" };
    const results: JobResult[] = [{ score: 0.9, id: "x1", publish_time: "2024-01-01 00:00:00", job_url: "https://x/1", job_tags: [], data_source: "indeed", cluster_id: "x1" }];
    cache.set(1, request(base), results);
    expect(cache.get(1, request(base))).toBe(results);
    expect(cache.get(2, request(base))).toBeUndefined();
    for (const change of [
      { q: "backend engineers" }, { city: "Berlin" }, { country: "DE" }, { source: "indeed" }, { since: "2024-01-01" },
      { until: "2024-01-01" }, { top_k: 5 }, { offset: 1 }, { detail: "full" }, { min_score: 0.5 }, { sort: "relevance" },
      { collapse: false }, { explain: true },
    ]) {
      expect(cache.get(1, request({ ...base, ...change }))).toBeUndefined();
    }
    expect(cache.stats).toMatchObject({ hits: 1, misses: 14 });
  });

  test("a page ranked with other term statistics is not served, though the table version is the same", () => {
    const cache = createResultCache(1 << 20);
    const results: JobResult[] = [{ score: 0.5, id: "x1", publish_time: "2024-01-01 00:00:00", job_url: "https://x/1", job_tags: [], data_source: "indeed", cluster_id: "x1" }];
    const before = { docs: 10, df: {} };
    const after = { docs: 11, df: {} };
    cache.set(7, request({ q: "nurse" }), results, before);
    expect(cache.get(7, request({ q: "nurse" }), before)).toBe(results);
    expect(cache.get(7, request({ q: "nurse" }), after)).toBeUndefined();
  });

  test("stays within its byte budget, dropping the least recently used page", () => {
    const page = (n: number): JobResult[] =>
      [{ score: 1, id: `x${n}`, publish_time: "2024-01-01 00:00:00", job_url: `https://x/${n}`, job_tags: [], data_source: "indeed", job_description: "x".repeat(2000), cluster_id: `x${n}` }];
    const cache = createResultCache(20_000);
    for (let i = 0; i < 20; i++) {
      cache.set(1, request({ q: `q${i}` }), page(i));
      cache.get(1, request({ q: "q0" })); // keeps q0 recent
    }
    expect(cache.stats.bytes).toBeLessThanOrEqual(20_000);
    expect(cache.get(1, request({ q: "q0" }))).toBeDefined();
    expect(cache.get(1, request({ q: "q1" }))).toBeUndefined();
    expect(cache.get(1, request({ q: "q19" }))).toBeDefined();
  });
});

describe("searches with the cache", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ records: fixturePostings() });
  });
  afterAll(() => t.stop());

  test("a repeated search answers the same page, and a load is seen at once", async () => {
    const cache = createResultCache(1 << 20);
    const deps = { store: t.server.store, embedder: t.server.embedder, cache };
    const search = async () => (await searchJobs(deps, request({ q: "lighthouse keeper", top_k: 5 }))).results;
    const first = await search();
    expect(await search()).toEqual(first);
    expect(cache.stats.hits).toBe(1);
    await ingestRecords(deps, [{
      ref: "new",
      value: {
        job_title: "Lighthouse Keeper", company_name: "Coastal Lights", city: "Berlin", publish_time: "2025-01-01 00:00:00",
        job_url: "https://example.com/lighthouse-keeper", data_source: "indeed", job_description: "Keep the lighthouse lamp burning.",
      },
    }]);
    const after = await search();
    expect(after.map((r) => r.job_url)).toContain("https://example.com/lighthouse-keeper");
    expect(after).not.toEqual(first);
  });

  test("the server's searches agree with and without the cache", async () => {
    const body = JSON.stringify({ q: "python developer", top_k: 10 });
    const post = async () =>
      (await (await fetch(`${t.url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": t.apiKey }, body })).json()) as { results: JobResult[] };
    const first = await post();
    const second = await post();
    const uncached = await searchJobs({ store: t.server.store, embedder: t.server.embedder }, request({ q: "python developer", top_k: 10 }));
    expect(second.results).toEqual(first.results);
    expect(first.results).toEqual(uncached.results);
  });
});

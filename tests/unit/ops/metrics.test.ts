/** /metrics: Prometheus text with the process, request, search and cache metrics; METRICS_TOKEN guards it. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { logWatch, mcpCall, postSearch, scrape, value } from "../../support/ops.ts";

const postings = fixturePostings();
let t: TestServer;
const watch = logWatch();

beforeAll(async () => {
  t = await startTestServer({ records: postings, log: watch.logger });
});
afterAll(() => t.stop());

describe("/metrics", () => {
  test("is Prometheus text with process metrics and the store's gauges", async () => {
    const { samples, types } = await scrape(t.url);
    expect(value(samples, "jobsearch_postings")).toBe(postings.length);
    expect(value(samples, "jobsearch_postings")).toBe(await t.server.store.count());
    expect(value(samples, "jobsearch_ready")).toBe(1);
    expect(value(samples, "jobsearch_vector_index")).toBe(0);
    expect(value(samples, "jobsearch_table_version")).toBeGreaterThan(0);
    // The full-text and scalar indexes cover every posting after the load.
    const indexed = samples.filter((s) => s.name === "jobsearch_index_rows" && s.labels.state === "indexed");
    expect(indexed.length).toBeGreaterThan(0);
    for (const s of indexed) expect(s.value).toBe(postings.length);
    expect(value(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(types.get("process_cpu_seconds_total")).toBe("counter");
    expect(types.get("nodejs_eventloop_lag_seconds")).toBe("gauge");
    expect(types.get("http_request_duration_seconds")).toBe("histogram");
    expect(types.get("jobsearch_search_duration_seconds")).toBe("histogram");
  });

  test("counts REST searches, MCP calls, 403s, 429s and unknown paths, by route template and status", async () => {
    const before = (await scrape(t.url)).samples;
    const limited = (await t.server.keys.create("limited", 1)).key;

    const sent: Response[] = [];
    const send = async (response: Promise<Response>) => (sent.push(await response), sent.at(-1)!.status);
    expect(await send(postSearch(t.url, t.apiKey))).toBe(200);
    expect(await send(fetch(`${t.url}/v1/search?q=accountant&top_k=1`, { headers: { "x-api-key": t.apiKey } }))).toBe(200);
    expect(await send(mcpCall(t.url, { "x-api-key": t.apiKey }))).toBe(200);
    expect(await send(postSearch(t.url, "jsk_not_a_key"))).toBe(403);
    expect(await send(postSearch(t.url, limited))).toBe(200);
    expect(await send(postSearch(t.url, limited))).toBe(429);
    expect(await send(fetch(`${t.url}/no/such/path/12345`))).toBe(404);
    // Request metrics are observed after each response went out, with its log line: wait for those.
    await Promise.all(sent.map(watch.request));

    const { samples } = await scrape(t.url);
    const delta = (name: string, labels: Record<string, string>) => value(samples, name, labels) - value(before, name, labels);
    expect(delta("http_requests_total", { method: "POST", route: "/v1/search", status: "200" })).toBe(2);
    expect(delta("http_requests_total", { method: "GET", route: "/v1/search", status: "200" })).toBe(1);
    expect(delta("http_requests_total", { method: "POST", route: "/mcp", status: "200" })).toBe(1);
    expect(delta("http_requests_total", { method: "POST", route: "/v1/search", status: "403" })).toBe(1);
    expect(delta("http_requests_total", { method: "POST", route: "/v1/search", status: "429" })).toBe(1);
    expect(delta("http_requests_total", { method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(delta("jobsearch_rate_limited_total", { route: "/v1/search" })).toBe(1);
    expect(delta("http_request_duration_seconds_count", { method: "POST", route: "/v1/search", status: "200" })).toBe(2);
    expect(delta("http_request_duration_seconds_bucket", { method: "POST", route: "/v1/search", status: "200", le: "+Inf" })).toBe(2);
    expect(delta("jobsearch_search_duration_seconds_count", { interface: "rest" })).toBe(3);
    expect(delta("jobsearch_search_duration_seconds_count", { interface: "mcp" })).toBe(1);
    expect(value(samples, "jobsearch_search_duration_seconds_sum", { interface: "rest" })).toBeGreaterThan(0);

    // Bounded labels: no raw path, and scrapes and probes are not counted.
    const routes = new Set(samples.filter((s) => s.name === "http_requests_total").map((s) => s.labels.route));
    expect(routes.has("/no/such/path/12345")).toBe(false);
    expect(routes.has("/metrics")).toBe(false);
    expect(routes.has("/healthz")).toBe(false);
  });

  test("counts result cache lookups: a repeated search is a hit, a new one a miss", async () => {
    const before = (await scrape(t.url)).samples;
    expect((await postSearch(t.url, t.apiKey, "cache counter welder")).status).toBe(200);
    expect((await postSearch(t.url, t.apiKey, "cache counter welder")).status).toBe(200);
    const { samples, types } = await scrape(t.url);
    const delta = (result: string) =>
      value(samples, "jobsearch_result_cache_lookups_total", { result }) - value(before, "jobsearch_result_cache_lookups_total", { result });
    expect(types.get("jobsearch_result_cache_lookups_total")).toBe("counter");
    expect(delta("miss")).toBe(1);
    expect(delta("hit")).toBe(1);
  });

  test("each app has its own registry: a second server starts from zero", async () => {
    const other = await startTestServer({ records: postings.slice(0, 3) });
    try {
      const { samples } = await scrape(other.url);
      expect(samples.filter((s) => s.name === "http_requests_total")).toHaveLength(0);
      expect(value(samples, "jobsearch_postings")).toBe(3);
      expect(value((await scrape(t.url)).samples, "jobsearch_postings")).toBe(postings.length);
    } finally {
      await other.stop();
    }
  });
});

describe("METRICS_TOKEN", () => {
  test("when set, /metrics needs it as a Bearer token; probes stay open", async () => {
    const token = "metrics-token-0123456789";
    const s = await startTestServer({ env: { METRICS_TOKEN: token } });
    try {
      expect((await fetch(`${s.url}/metrics`)).status).toBe(403);
      expect((await fetch(`${s.url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(403);
      expect((await fetch(`${s.url}/metrics`, { headers: { "x-api-key": s.apiKey } })).status).toBe(403);
      const { samples } = await scrape(s.url, { authorization: `Bearer ${token}` });
      expect(value(samples, "jobsearch_postings")).toBe(0);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});

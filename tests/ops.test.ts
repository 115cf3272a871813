import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { createLogger, defaultLogFormat } from "../server/log.ts";
import { fixturePostings } from "./support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "./support/helpers.ts";
import { memoryProvider, signIn } from "./support/sign-in.ts";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict reading of the Prometheus text format (0.0.4): every line is a HELP or TYPE comment or
 * a sample `name{label="value",…} number`; anything else fails the test.
 */
function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  const sampleLine = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
  const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/gy;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const help = new RegExp(`^# HELP (${NAME}) .*$`).exec(line);
    if (help) continue;
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const match = sampleLine.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    if (match[2]) {
      labelPair.lastIndex = 0;
      let consumed = 0;
      for (let pair = labelPair.exec(match[2]); pair; pair = labelPair.exec(match[2])) {
        labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
        consumed = labelPair.lastIndex;
      }
      if (consumed !== match[2].length) throw new Error(`bad labels: ${JSON.stringify(line)}`);
    }
    const raw = match[3]!;
    const value = raw === "+Inf" ? Infinity : raw === "-Inf" ? -Infinity : raw === "NaN" ? NaN : Number(raw);
    if (raw !== "NaN" && Number.isNaN(value)) throw new Error(`bad value: ${JSON.stringify(line)}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return { samples, types };
}

async function scrape(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toStartWith("text/plain");
  return parsePrometheus(await response.text());
}

/** The value of the one sample with this name whose labels include `labels`; 0 when there is none. */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

const postSearch = (url: string, key: string, q = "nurse night shift") =>
  fetch(`${url}/v1/search`, { method: "POST", headers: { "x-api-key": key }, body: JSON.stringify({ q, top_k: 2 }) });

const mcpCall = (url: string, headers: Record<string, string>, name = "search_jobs", args: object = { query: "swift developer", top_k: 2 }) =>
  fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });

const postings = fixturePostings();
const lines: string[] = [];
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ records: postings, log: createLogger("info", (line) => lines.push(line)) });
});
afterAll(() => t.stop());

/** The request line of the request that got this x-request-id (it is written after the response, so wait for it). */
async function requestLine(response: Response): Promise<Record<string, unknown>> {
  const id = response.headers.get("x-request-id")!;
  for (let i = 0; i < 50; i++) {
    const entry = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((e) => e.msg === "request" && e.request_id === id);
    if (entry) return entry;
    await Bun.sleep(10);
  }
  throw new Error(`no request line for ${id}`);
}

describe("probes", () => {
  test("/healthz answers 200 without an API key", async () => {
    const response = await fetch(`${t.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers.get("x-request-id")).toBeString();
  });

  test("/readyz answers 200 with the table and model checks when ready", async () => {
    const response = await fetch(`${t.url}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as any;
    expect(body.status).toBe("ready");
    expect(body.checks.table).toMatchObject({ ok: true, postings: postings.length });
    expect(body.checks.model).toMatchObject({ ok: true, id: t.server.embedder.modelId, dimension: t.server.embedder.dimension });
  });
});

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

    expect((await postSearch(t.url, t.apiKey)).status).toBe(200);
    expect((await fetch(`${t.url}/v1/search?q=accountant&top_k=1`, { headers: { "x-api-key": t.apiKey } })).status).toBe(200);
    expect((await mcpCall(t.url, { "x-api-key": t.apiKey })).status).toBe(200);
    expect((await postSearch(t.url, "jsk_not_a_key")).status).toBe(403);
    expect((await postSearch(t.url, limited)).status).toBe(200);
    expect((await postSearch(t.url, limited)).status).toBe(429);
    expect((await fetch(`${t.url}/no/such/path/12345`)).status).toBe(404);
    await Bun.sleep(50); // request metrics are observed after each response went out

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

describe("request logs", () => {
  test("one JSON line per request with request_id, route, status, duration and principal; never a key or the query", async () => {
    const limited = await t.server.keys.create("limited-log", 1);
    const ok = await postSearch(t.url, t.apiKey, "confidential query words");
    const forbidden = await postSearch(t.url, "jsk_0123456789abcdef_notavalidsecretnotavalidsecretnotavalidsecr");
    await postSearch(t.url, limited.key);
    const refused = await postSearch(t.url, limited.key);
    const get = await fetch(`${t.url}/v1/search?q=secretive+words&top_k=1`, { headers: { "x-api-key": t.apiKey } });
    const mcp = await mcpCall(t.url, { "x-api-key": t.apiKey }, "list_cities", {});
    const unknown = await fetch(`${t.url}/v1/nothing-here?token=abc`);
    expect([ok.status, forbidden.status, refused.status, get.status, mcp.status, unknown.status]).toEqual([200, 403, 429, 200, 200, 404]);

    const keyId = (await t.server.keys.verify(t.apiKey))!.id;
    const okLine = await requestLine(ok);
    expect(okLine).toMatchObject({ level: "info", method: "POST", route: "/v1/search", status: 200, principal: `key:${keyId}`, auth: "api_key" });
    expect(okLine.duration_ms).toBeNumber();
    expect(okLine.duration_ms as number).toBeGreaterThan(0);
    expect(okLine.time).toBeString();

    const forbiddenLine = await requestLine(forbidden);
    expect(forbiddenLine).toMatchObject({ route: "/v1/search", status: 403 });
    expect(forbiddenLine.principal).toBeUndefined();
    expect(await requestLine(refused)).toMatchObject({ route: "/v1/search", status: 429, principal: `key:${limited.id}` });
    expect(await requestLine(get)).toMatchObject({ method: "GET", route: "/v1/search", status: 200 });
    expect(await requestLine(mcp)).toMatchObject({ route: "/mcp", status: 200, principal: `key:${keyId}`, tool: "list_cities" });
    expect(await requestLine(unknown)).toMatchObject({ method: "GET", route: "unmatched", status: 404 });

    const log = lines.join("");
    for (const secret of [t.apiKey, limited.key, t.apiKey.slice("jsk_0123456789abcdef_".length), "notavalidsecret"]) expect(log).not.toContain(secret);
    for (const query of ["confidential", "secretive", "token=abc", "nothing-here"]) expect(log).not.toContain(query);
  });

  test("an OAuth bearer token and the API key typed into the sign-in form never reach the log", async () => {
    const created = await t.server.keys.create("oauth user");
    const { provider, saved } = memoryProvider("http://127.0.0.1:8976/callback", "Log Test");
    const transport = new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "log-test", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const approved = await signIn(saved.url!.href, created.key);
    await transport.finishAuth(new URL(approved.headers.get("location")!).searchParams.get("code")!);
    const token = saved.tokens!.access_token;

    const call = await mcpCall(t.url, { authorization: `Bearer ${token}` }, "list_cities", {});
    expect(call.status).toBe(200);
    expect(await requestLine(call)).toMatchObject({ route: "/mcp", status: 200, principal: `key:${created.id}`, auth: "oauth" });
    const bad = await mcpCall(t.url, { authorization: `Bearer ${token}garbled` }, "list_cities", {});
    expect(bad.status).toBe(401);
    expect((await requestLine(bad)).principal).toBeUndefined();
    expect(await requestLine(approved)).toMatchObject({ method: "POST", route: "/authorize", status: 302 });

    const log = lines.join("");
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.split(".")[2]!);
    expect(log).not.toContain(created.key);
    expect(log).not.toContain(saved.tokens!.refresh_token!);
  });

  test("probes and scrapes are logged at debug only; the search text too", async () => {
    const debugLines: string[] = [];
    const d = await startTestServer({ records: postings.slice(0, 3), log: createLogger("debug", (line) => debugLines.push(line)) });
    try {
      const health = await fetch(`${d.url}/healthz`);
      const search = await postSearch(d.url, d.apiKey, "debuggable words");
      await Bun.sleep(50);
      const entries = debugLines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.find((e) => e.request_id === health.headers.get("x-request-id"))).toMatchObject({ level: "debug", route: "/healthz", status: 200 });
      const searchId = search.headers.get("x-request-id");
      expect(entries.find((e) => e.request_id === searchId && e.msg === "request")).toMatchObject({ level: "info", status: 200 });
      expect(entries.find((e) => e.request_id === searchId && e.msg === "search query")).toMatchObject({ level: "debug", query: "debuggable words" });
    } finally {
      await d.stop();
    }
  });
});

describe("pretty logs", () => {
  test("a request is one short line for people; other events show their fields", () => {
    const out: string[] = [];
    const log = createLogger("info", (line) => out.push(line), { format: "pretty" });
    log.info("request", { request_id: "r1", method: "POST", route: "/v1/search", status: 200, duration_ms: 12.3, principal: "key:abc" });
    log.info("request", { request_id: "r2", method: "GET", route: "unmatched", status: 404, duration_ms: 0.4 });
    log.warn("ready", { url: "http://localhost:3000", postings: 12, note: "two words" });
    log.error("unexpected error", { error: new Error("boom") });
    expect(out[0]).toMatch(/^\d\d:\d\d:\d\d INFO  POST \/v1\/search 200 12\.3ms key:abc request_id=r1\n$/);
    expect(out[1]).toMatch(/^\d\d:\d\d:\d\d INFO  GET unmatched 404 0\.4ms - request_id=r2\n$/);
    expect(out[2]).toMatch(/^\d\d:\d\d:\d\d WARN  ready url=http:\/\/localhost:3000 postings=12 note="two words"\n$/);
    expect(out[3]).toStartWith(out[3]!.slice(0, 8) + ' ERROR unexpected error error="boom"\n    Error: boom');
  });

  test("LOG_FORMAT wins; unset, a terminal gets pretty and anything else JSON", () => {
    expect(defaultLogFormat(undefined, true)).toBe("pretty");
    expect(defaultLogFormat(undefined, false)).toBe("json");
    expect(defaultLogFormat("json", true)).toBe("json");
    expect(defaultLogFormat("pretty", false)).toBe("pretty");
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

describe("not ready", () => {
  test("with the table closed, /readyz answers 503 saying so, /healthz stays 200 and /metrics reports ready 0", async () => {
    const s = await startTestServer({ records: postings.slice(0, 2) });
    try {
      s.server.store.close();
      const response = await fetch(`${s.url}/readyz`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as any;
      expect(body.status).toBe("not_ready");
      expect(body.checks.table.ok).toBe(false);
      expect(body.checks.table.error).toContain("closed");
      expect(body.checks.model.ok).toBe(true);
      expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
      expect(value((await scrape(s.url)).samples, "jobsearch_ready")).toBe(0);
    } finally {
      await s.stop().catch(() => {});
    }
  });
});

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const postings = fixturePostings();
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ records: postings });
});
afterAll(() => t.stop());

function get(params: Record<string, string | number>, key: string | null = t.apiKey) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  return fetch(`${t.url}/v1/search?${query}`, { headers: key === null ? {} : { "x-api-key": key } });
}

function post(body: unknown, key: string | null = t.apiKey) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers["x-api-key"] = key;
  return fetch(`${t.url}/v1/search`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
}

async function ok(response: Response) {
  expect(response.status).toBe(200);
  return (await response.json()) as { request_id: string; total: number; search_time_ms: number; results: any[] };
}

async function expectError(response: Response, status: number, code: string, message?: string | RegExp) {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body.error_code).toBe(code);
  expect(body.request_id).toMatch(UUID);
  expect(response.headers.get("x-request-id")).toBe(body.request_id as string);
  if (typeof message === "string") expect(body.error).toBe(message);
  else if (message) expect(body.error).toMatch(message);
  return body;
}

const ids = (results: { job_url: string }[]) => results.map((r) => r.job_url);

describe("authentication", () => {
  test.each([
    ["GET without key", () => get({ q: "engineer" }, null)],
    ["POST without key", () => post({ q: "engineer" }, null)],
    ["GET with unknown key", () => get({ q: "engineer" }, "jsk_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")],
    ["POST with garbage key", () => post({ q: "engineer" }, "nope")],
    ["POST with empty key", () => post({ q: "engineer" }, "")],
  ])("returns 403 AUTH_INVALID_KEY: %s", async (_, call) => {
    await expectError(await call(), 403, "AUTH_INVALID_KEY", "Invalid API key");
  });

  test("a revoked key stops working", async () => {
    const created = await t.server.keys.create("to-revoke");
    await ok(await post({ q: "nurse" }, created.key));
    expect(await t.server.keys.revoke(created.id)).toBe(true);
    await expectError(await post({ q: "nurse" }, created.key), 403, "AUTH_INVALID_KEY", "Invalid API key");
  });

  test("checks the key before the parameters", async () => {
    await expectError(await post({}, null), 403, "AUTH_INVALID_KEY");
  });
});

describe("response shape", () => {
  test("has request_id, total, integer search_time_ms and spec-shaped results", async () => {
    const response = await post({ q: "backend engineer python" });
    const body = await ok(response);
    expect(body.request_id).toMatch(UUID);
    expect(response.headers.get("x-request-id")).toBe(body.request_id);
    expect(Number.isInteger(body.search_time_ms)).toBe(true);
    expect(body.total).toBe(20);
    expect(body.results).toHaveLength(20);
    for (const job of body.results) {
      expect(job.score).toBeGreaterThanOrEqual(0);
      expect(job.score).toBeLessThanOrEqual(1);
      expect(job.publish_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(Array.isArray(job.job_tags)).toBe(true);
      expect(job).not.toHaveProperty("job_description");
      expect(job.id).toMatch(/^fx-\d+$/);
      expect(job).not.toHaveProperty("vector");
      for (const value of Object.values(job)) expect(value).not.toBeNull();
    }
  });

  test("leaves unknown optional fields absent and keeps job_tags an array", async () => {
    const body = await ok(await post({ q: "accountant", top_k: 100 }));
    expect(body.total).toBe(postings.length);
    const byUrl = new Map(body.results.map((r) => [r.job_url, r]));
    for (const posting of postings) {
      const job = byUrl.get(posting.job_url)!;
      expect(job).toBeDefined();
      expect(job.job_tags).toEqual(posting.job_tags);
      for (const field of ["company_name", "city", "base_salary", "seniority_level", "employment_type"] as const) {
        if (posting[field] === null) expect(job).not.toHaveProperty(field);
        else expect(job[field]).toBe(posting[field]);
      }
    }
  });

  test("detail=full adds job_description", async () => {
    const body = await ok(await get({ q: "nurse", detail: "full", top_k: 3 }));
    for (const job of body.results) expect(typeof job.job_description).toBe("string");
    const posting = postings.find((p) => p.job_url === body.results[0].job_url)!;
    expect(body.results[0].job_description).toBe(posting.job_description);
  });

  test("the most relevant posting comes first by score", async () => {
    const body = await ok(await post({ q: "registered nurse hospital night shift", top_k: 7 }));
    const best = [...body.results].sort((a, b) => b.score - a.score)[0];
    expect(best.job_title).toBe("Registered Nurse");
  });
});

describe("parameters", () => {
  test.each([
    ["POST without q", () => post({ city: "Berlin" })],
    ["POST with empty q", () => post({ q: "" })],
    ["POST with blank q", () => post({ q: "   " })],
    ["POST with empty body", () => post("")],
    ["GET without q", () => get({ city: "Berlin" })],
    ["GET with empty q", () => get({ q: "" })],
  ])("returns 400 MISSING_QUERY: %s", async (_, call) => {
    await expectError(await call(), 400, "MISSING_QUERY", "q is required");
  });

  test("returns 400 with request_id for malformed JSON", async () => {
    await expectError(await post('{"q": "engineer",'), 400, "INVALID_JSON");
  });

  test.each([
    ["POST top_k 1.5", () => post({ q: "x", top_k: 1.5 }), "top_k"],
    ["POST top_k string", () => post({ q: "x", top_k: "ten" }), "top_k"],
    ["GET top_k abc", () => get({ q: "x", top_k: "abc" }), "top_k"],
    ["GET top_k 2.5", () => get({ q: "x", top_k: "2.5" }), "top_k"],
    ["GET offset -1", () => get({ q: "x", offset: -1 }), "offset"],
    ["GET offset x", () => get({ q: "x", offset: "x" }), "offset"],
    ["POST offset 0.5", () => post({ q: "x", offset: 0.5 }), "offset"],
    ["GET detail bad", () => get({ q: "x", detail: "everything" }), "detail"],
    ["POST detail bad", () => post({ q: "x", detail: "FULL" }), "detail"],
    ["GET country lower", () => get({ q: "x", country: "us" }), "country"],
    ["POST country long", () => post({ q: "x", country: "USA" }), "country"],
    ["GET since bad month", () => get({ q: "x", since: "2024-13-01" }), "since"],
    ["GET since ISO T", () => get({ q: "x", since: "2024-01-01T00:00:00" }), "since"],
    ["POST since Feb 30", () => post({ q: "x", since: "2023-02-30" }), "since"],
    ["GET until bad", () => get({ q: "x", until: "yesterday" }), "until"],
    ["POST city number", () => post({ q: "x", city: 5 }), "city"],
    ["POST q number", () => post({ q: 5 }), "q"],
    ["POST body array", () => post([{ q: "x" }]), "body"],
  ])("returns 400 INVALID_PARAMETER naming the parameter: %s", async (_, call, name) => {
    const body = await expectError(await call(), 400, "INVALID_PARAMETER");
    expect(String(body.error).startsWith(name)).toBe(true);
  });

  test("an unknown source is rejected with the allowed values", async () => {
    await expectError(await get({ q: "x", source: "monster" }), 400, "INVALID_PARAMETER", "source must be one of: indeed, linkedin");
    await expectError(await post({ q: "x", source: "Indeed" }), 400, "INVALID_PARAMETER", /indeed, linkedin/);
  });

  test.each([
    [500, 42], [101, 42], [0, 1], [-3, 1], [7, 7],
  ])("clamps top_k %p to give %p results", async (topK, expected) => {
    expect((await ok(await get({ q: "engineer", top_k: topK }))).total).toBe(expected);
    expect((await ok(await post({ q: "engineer", top_k: topK }))).total).toBe(expected);
  });
});

describe("filters", () => {
  const count = (predicate: (p: (typeof postings)[number]) => boolean) => postings.filter(predicate).length;

  test("city is exact and case-sensitive", async () => {
    const body = await ok(await post({ q: "engineer", city: "Berlin", top_k: 100 }));
    expect(body.total).toBe(count((p) => p.city === "Berlin"));
    expect(body.results.every((r) => r.city === "Berlin")).toBe(true);
    expect((await ok(await post({ q: "engineer", city: "berlin" }))).total).toBe(0);
    expect((await ok(await post({ q: "engineer", city: "Berlin " }))).total).toBe(0);
  });

  test("a filtered page is full: filters apply inside the vector query", async () => {
    const body = await ok(await get({ q: "registered nurse", city: "Zürich", top_k: 6 }));
    expect(body.total).toBe(6);
    expect(new Set(body.results.map((r) => r.city))).toEqual(new Set(["Zürich"]));
  });

  test("unicode city names match exactly", async () => {
    const body = await ok(await get({ q: "developer", city: "北京", top_k: 100 }));
    expect(body.total).toBe(count((p) => p.city === "北京"));
  });

  test("country, source, and their combination", async () => {
    const us = await ok(await post({ q: "engineer", country: "US", top_k: 100 }));
    expect(us.total).toBe(count((p) => p.country === "US"));
    const linkedin = await ok(await post({ q: "engineer", source: "linkedin", top_k: 100 }));
    expect(linkedin.total).toBe(count((p) => p.data_source === "linkedin"));
    expect(linkedin.results.every((r) => r.data_source === "linkedin")).toBe(true);
    const both = await ok(await get({ q: "engineer", country: "US", source: "indeed", top_k: 100 }));
    expect(both.total).toBe(count((p) => p.country === "US" && p.data_source === "indeed"));
  });

  test("since is strictly after, until strictly before, date-only means 00:00:00", async () => {
    const pivot = postings[9]!.publish_time; // fx-10
    const since = await ok(await post({ q: "engineer", since: pivot, top_k: 100 }));
    expect(since.total).toBe(count((p) => p.publish_time > pivot));
    expect(since.results.some((r) => r.publish_time === pivot)).toBe(false);
    const until = await ok(await get({ q: "engineer", until: pivot, top_k: 100 }));
    expect(until.total).toBe(count((p) => p.publish_time < pivot));
    const day = await ok(await get({ q: "engineer", since: "2026-03-02", top_k: 100 }));
    expect(day.total).toBe(count((p) => p.publish_time > "2026-03-02 00:00:00"));
    const window = await ok(await post({ q: "engineer", since: "2026-03-01 05:00:00", until: "2026-03-01 10:00:00", top_k: 100 }));
    expect(window.total).toBe(4);
  });

  test.each(["'", "\\", "%", "' OR 1=1 --", "Berlin' OR '1'='1", "Berlin\\' OR city != '", "_", "*", '"', "a\u0000b", "🙂", "\u202eBerlin"])(
    "treats the city %p literally",
    async (city) => {
      expect((await ok(await post({ q: "engineer", city }))).total).toBe(0);
      expect((await ok(await get({ q: "engineer", city, country: "US" }))).total).toBe(0);
    },
  );

  test("a city with a quote in its name matches exactly its postings", async () => {
    const body = await ok(await get({ q: "engineer", city: "O'Hare", top_k: 100 }));
    expect(body.total).toBe(count((p) => p.city === "O'Hare"));
  });

  test("a lone surrogate is rejected, not mangled into another value", async () => {
    await expectError(await post({ q: "engineer", city: "\ud800" }), 400, "INVALID_PARAMETER", /^city/);
  });
});

describe("order and paging", () => {
  test("a page is sorted by publish_time descending, then score descending", async () => {
    const body = await ok(await post({ q: "python", top_k: 30 }));
    for (let i = 1; i < body.results.length; i++) {
      const [a, b] = [body.results[i - 1], body.results[i]];
      expect(a.publish_time >= b.publish_time).toBe(true);
      if (a.publish_time === b.publish_time) expect(a.score).toBeGreaterThanOrEqual(b.score);
    }
  });

  test("consecutive pages are disjoint and together equal the larger page", async () => {
    const query = { q: "software developer building apps", country: "US" };
    const whole = await ok(await post({ ...query, top_k: 12 }));
    const first = await ok(await get({ ...query, top_k: 6, offset: 0 }));
    const second = await ok(await post({ ...query, top_k: 6, offset: 6 }));
    expect(first.total).toBe(6);
    expect(second.total).toBe(6);
    const pageIds = [...ids(first.results), ...ids(second.results)];
    expect(new Set(pageIds).size).toBe(12);
    expect(new Set(pageIds)).toEqual(new Set(ids(whole.results)));
    // Page 1 holds the better-scored half.
    expect(Math.min(...first.results.map((r) => r.score))).toBeGreaterThanOrEqual(Math.max(...second.results.map((r) => r.score)));
  });

  test("the same posting has the same score on every page", async () => {
    const whole = await ok(await post({ q: "data science", top_k: 10 }));
    const second = await ok(await post({ q: "data science", top_k: 5, offset: 5 }));
    const scores = new Map(whole.results.map((r) => [r.job_url, r.score]));
    for (const r of second.results) expect(r.score).toBe(scores.get(r.job_url)!);
  });

  test("an offset past the end gives an empty page", async () => {
    expect((await ok(await get({ q: "engineer", offset: 980 }))).total).toBe(0);
  });
});

test("an unknown route answers 404 NOT_FOUND with a request_id", async () => {
  await expectError(await fetch(`${t.url}/v2/search`), 404, "NOT_FOUND");
});

describe("GET /v1/cities", () => {
  test("lists every city with its posting count and country, most postings first", async () => {
    const response = await fetch(`${t.url}/v1/cities`, { headers: { "x-api-key": t.apiKey } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { request_id: string; total: number; cities: Array<{ city: string; country: string | null; postings: number }> };
    expect(body.request_id).toMatch(UUID);
    const expected = new Map<string, number>();
    for (const posting of postings) if (posting.city) expected.set(posting.city, (expected.get(posting.city) ?? 0) + 1);
    expect(body.total).toBe(expected.size);
    expect(new Map(body.cities.map((c) => [c.city, c.postings]))).toEqual(expected);
    const counts = body.cities.map((c) => c.postings);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const berlin = body.cities.find((c) => c.city === "Berlin");
    expect(berlin?.country).toBe("DE");
  });

  test("needs an API key", async () => {
    await expectError(await fetch(`${t.url}/v1/cities`), 403, "AUTH_INVALID_KEY", "Invalid API key");
  });
});

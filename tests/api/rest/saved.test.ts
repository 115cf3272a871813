import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { fixturePostings, type FixturePosting } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

/**
 * Saved searches over REST on a real server (fixture postings, real LanceDB): create, list, get,
 * delete; what is new after a load, once; another key's saved search is not found; the limits; and
 * two checks at once never return one posting twice.
 */

let t: TestServer;
let otherKey: string;
let serial = 0;
beforeAll(async () => {
  t = await startTestServer({ records: fixturePostings(), env: { SAVED_SEARCHES_MAX: "4", MAX_IN_FLIGHT_PER_KEY: "16" } });
  otherKey = (await t.server.keys.create("other")).key;
});
afterAll(() => t.stop());

async function call(method: string, path: string, body?: unknown, key = t.apiKey): Promise<{ status: number; body: any }> {
  const response = await fetch(`${t.url}${path}`, {
    method, headers: { "x-api-key": key, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}

/** Loads postings like the fixtures' (new ids), as a later load would. */
async function load(postings: Array<Partial<FixturePosting> & { job_title: string; city: string }>): Promise<string[]> {
  const records = postings.map((posting) => {
    const id = `new-${++serial}`;
    const value = { ...fixturePostings()[0]!, id, job_url: `https://jobs.example.com/new/${id}`, company_name: `New Co ${serial}`, ...posting };
    value.job_description = `${posting.job_description ?? "We build backend services in Python and PostgreSQL. You design APIs and distributed systems."} Based in ${posting.city}.`;
    return { ref: id, value };
  });
  await ingestRecords(t.server, records);
  return records.map((r) => r.ref);
}

describe("saved searches", () => {
  let id: string;
  test("POST creates one (201) with its parameters and an absolute feed URL", async () => {
    const { status, body } = await call("POST", "/v1/saved-searches", { name: "backend berlin", q: "backend engineer", city: "Berlin", bogus: 1 });
    expect(status).toBe(201);
    expect(body).toMatchObject({ name: "backend berlin", params: { q: "backend engineer", city: "Berlin" }, webhook_url: null });
    expect(body.params.bogus).toBeUndefined();
    expect(body.feed_url).toStartWith(`${t.url}/v1/feeds/`);
    expect(Date.parse(body.created_at)).toBeGreaterThan(0);
    id = body.id;
    expect((await call("GET", `/v1/saved-searches/${id}`)).body).toMatchObject({ id, name: "backend berlin", feed_url: body.feed_url });
    const list = (await call("GET", "/v1/saved-searches")).body;
    expect(list.saved_searches.map((s: { id: string }) => s.id)).toEqual([id]);
  });

  test("new: nothing loaded before it was saved; then the matching posting of a later load, once", async () => {
    const first = await call("GET", `/v1/saved-searches/${id}/new`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 0, results: [] });
    expect(first.body.query).toBeDefined();
    const [backend, nurse, london] = await load([
      { job_title: "Backend Engineer", city: "Berlin", country: "DE" },
      { job_title: "Registered Nurse", city: "Berlin", country: "DE", job_description: "Care for patients on the night shift in our hospital ward." },
      { job_title: "Backend Engineer", city: "London", country: "GB" },
    ]);
    const second = await call("GET", `/v1/saved-searches/${id}/new`);
    expect(second.body.results.map((r: { id: string }) => r.id)).toEqual([backend]);
    expect([nurse, london]).not.toContain(second.body.results[0].id);
    expect(Date.parse(second.body.cursor)).toBeGreaterThan(Date.parse(second.body.since));
    expect((await call("GET", `/v1/saved-searches/${id}/new`)).body.results).toEqual([]);
    // A client's own cursor: the same answer again, and the stored cursor stays.
    const again = await call("GET", `/v1/saved-searches/${id}/new?since=${encodeURIComponent(second.body.since)}`);
    expect(again.body.results.map((r: { id: string }) => r.id)).toEqual([backend]);
    expect((await call("GET", `/v1/saved-searches/${id}/new`)).body.results).toEqual([]);
    expect((await call("GET", `/v1/saved-searches/${id}/new?since=yesterday`)).body.error_code).toBe("INVALID_PARAMETER");

    // The same job again, on another source at another URL: a copy of what was announced is not news.
    const announced = second.body.results[0];
    const [copy] = await load([{ job_title: "Backend Engineer", city: "Berlin", country: "DE", company_name: announced.company_name, data_source: "glassdoor" }]);
    const detail = (await call("GET", `/v1/jobs/${copy}`)).body.job;
    expect(detail.cluster_id).toBe(announced.cluster_id);
    const afterCopy = await call("GET", `/v1/saved-searches/${id}/new`);
    expect(afterCopy.body.results).toEqual([]);
    expect(Date.parse(afterCopy.body.cursor)).toBeGreaterThan(Date.parse(afterCopy.body.since));
  });

  test("another key's saved search is NOT_FOUND, as one that does not exist", async () => {
    for (const [method, path] of [["GET", `/v1/saved-searches/${id}`], ["GET", `/v1/saved-searches/${id}/new`], ["DELETE", `/v1/saved-searches/${id}`], ["POST", `/v1/saved-searches/${id}/feed-token`]] as const) {
      const { status, body } = await call(method, path, undefined, otherKey);
      expect(status).toBe(404);
      expect(body).toEqual({ request_id: expect.any(String), error: "saved search not found", error_code: "NOT_FOUND" });
    }
    expect((await call("GET", "/v1/saved-searches", undefined, otherKey)).body.saved_searches).toEqual([]);
    expect((await call("GET", "/v1/saved-searches/nope")).status).toBe(404);
    expect((await call("GET", "/v1/saved-searches", undefined, "jsk_bad")).body.error_code).toBe("AUTH_INVALID_KEY");
  });

  test("parameters are validated as a search's; names are required, short and unique; the count is bounded", async () => {
    const missing = await call("POST", "/v1/saved-searches", { name: "x" });
    expect(missing).toMatchObject({ status: 400, body: { error: "q is required", error_code: "MISSING_QUERY" } });
    const search = await call("POST", "/v1/search", { q: "x", country: "Germany" });
    const saved = await call("POST", "/v1/saved-searches", { name: "x", q: "x", country: "Germany" });
    expect(saved.status).toBe(400);
    expect(saved.body.error).toBe(search.body.error);
    expect((await call("POST", "/v1/saved-searches", { q: "x" })).body.error).toStartWith("name is required");
    expect((await call("POST", "/v1/saved-searches", { name: "n".repeat(101), q: "x" })).body.error).toBe("name must be at most 100 characters");
    const taken = await call("POST", "/v1/saved-searches", { name: "backend berlin", q: "other" });
    expect(taken).toMatchObject({ status: 409, body: { error_code: "CONFLICT" } });
    expect((await call("POST", "/v1/saved-searches", { name: "w", q: "x", webhook_url: "ftp://example.com/" })).body.error).toBe("webhook_url must be an http(s) URL");
    const loopback = await call("POST", "/v1/saved-searches", { name: "w", q: "x", webhook_url: "http://127.0.0.1:9/hook" });
    expect(loopback.body.error).toContain("WEBHOOK_ALLOW_PRIVATE");
    for (const name of ["a", "b", "c"]) expect((await call("POST", "/v1/saved-searches", { name, q: "nurse" })).status).toBe(201);
    const over = await call("POST", "/v1/saved-searches", { name: "d", q: "nurse" });
    expect(over).toMatchObject({ status: 409, body: { error: "at most 4 saved searches per key; delete one first", error_code: "CONFLICT" } });
    // Another key has its own allowance and its own names.
    expect((await call("POST", "/v1/saved-searches", { name: "backend berlin", q: "x" }, otherKey)).status).toBe(201);
  });

  test("two checks at once never return the same posting", async () => {
    const list = (await call("GET", "/v1/saved-searches")).body.saved_searches as Array<{ id: string; name: string }>;
    const nurses = list.find((s) => s.name === "a")!.id;
    const loaded = await load(Array.from({ length: 6 }, () => ({ job_title: "Registered Nurse", city: "Berlin", country: "DE", job_description: "Care for patients on the night shift in our hospital ward. Nursing license required." })));
    const answers = await Promise.all(Array.from({ length: 6 }, () => call("GET", `/v1/saved-searches/${nurses}/new`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const returned = answers.flatMap((a) => a.body.results.map((r: { id: string }) => r.id));
    expect(new Set(returned).size).toBe(returned.length);
    expect(returned.sort()).toEqual([...loaded].sort());
  });

  test("DELETE removes it (204), then it is not found", async () => {
    expect((await call("DELETE", `/v1/saved-searches/${id}`)).status).toBe(204);
    expect((await call("GET", `/v1/saved-searches/${id}`)).status).toBe(404);
    expect((await call("DELETE", `/v1/saved-searches/${id}`)).status).toBe(404);
  });
});

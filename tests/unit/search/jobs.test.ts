import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { connectMcp, runCli, startTestServer, type TestServer } from "../../support/helpers.ts";

/**
 * Beyond a result list: ids on results, one posting, similar postings (REST, MCP, CLI), and the MCP
 * tools of our own (get_job, find_similar_jobs, list_filters, search, fetch) through the SDK's client.
 */
const base = fixturePostings();
/** The fixture, plus a repost of the first posting (same company and title, a later day) and a hostile id. */
const POSTINGS = [
  ...base,
  { ...base[0]!, id: "fx-repost", job_url: "https://jobs.example.com/repost", publish_time: "2026-04-01 00:00:00" },
  { ...base[1]!, id: "it's/odd %20 id", job_url: "https://jobs.example.com/odd" },
];

let t: TestServer;
let client: Client;
beforeAll(async () => {
  t = await startTestServer({ records: POSTINGS });
  client = await connectMcp(t.url, t.apiKey, "jobs");
});
afterAll(async () => {
  await client.close();
  await t.stop();
});

const get = async (path: string) => {
  const response = await fetch(`${t.url}${path}`, { headers: { "x-api-key": t.apiKey } });
  return { status: response.status, body: (await response.json()) as any };
};
const call = async (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

describe("REST", () => {
  test("every result carries the posting's id, and GET /v1/jobs/{id} returns the whole posting", async () => {
    const { body } = await get("/v1/search?q=registered%20nurse&top_k=3&sort=relevance");
    const first = body.results[0];
    expect(first.id).toMatch(/^fx-/);
    const job = await get(`/v1/jobs/${encodeURIComponent(first.id)}`);
    expect(job.status).toBe(200);
    const stored = POSTINGS.find((p) => p.id === first.id)!;
    expect(job.body.job).toMatchObject({ id: stored.id, job_title: stored.job_title, job_url: stored.job_url, job_description: stored.job_description, data_source: stored.data_source });
    expect(job.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("an id with quotes, slashes and percent signs is found as itself", async () => {
    const job = await get(`/v1/jobs/${encodeURIComponent("it's/odd %20 id")}`);
    expect(job.status).toBe(200);
    expect(job.body.job.id).toBe("it's/odd %20 id");
  });

  test("an unknown id is a 404 in the spec's error shape", async () => {
    const malformed = await fetch(`${t.url}/v1/jobs/%E0%A4%A`, { headers: { "x-api-key": t.apiKey } });
    expect(malformed.status).toBeLessThan(500);
    for (const id of ["nope", "x' OR '1'='1"]) {
      const job = await get(`/v1/jobs/${encodeURIComponent(id)}`);
      expect(job.status).toBe(404);
      expect(Object.keys(job.body).sort()).toEqual(["error", "error_code", "request_id"]);
      expect(job.body.error_code).toBe("NOT_FOUND");
      const similar = await get(`/v1/jobs/${encodeURIComponent(id)}/similar`);
      expect(similar.status).toBe(404);
    }
  });

  test("similar jobs: the same kind of job first, never the posting or its reposts, with filters and paging", async () => {
    const nurse = base.find((p) => p.job_title === "Registered Nurse")!;
    const { status, body } = await get(`/v1/jobs/${nurse.id}/similar?top_k=5`);
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["query", "request_id", "results", "search_time_ms", "total"]);
    expect(body.results.map((r: any) => r.job_title)).toEqual(Array(5).fill("Registered Nurse"));
    expect(body.results.map((r: any) => r.id)).not.toContain(nurse.id);
    const scores = body.results.map((r: any) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a)); // best first by default
    const reposted = await get(`/v1/jobs/${base[0]!.id}/similar?top_k=50`);
    expect(reposted.body.results.map((r: any) => r.id)).not.toContain("fx-repost");
    const berlin = await get(`/v1/jobs/${nurse.id}/similar?city=Berlin&top_k=50`);
    expect(berlin.body.results.length).toBeGreaterThan(0);
    expect(berlin.body.results.every((r: any) => r.city === "Berlin")).toBe(true);
    const page2 = await get(`/v1/jobs/${nurse.id}/similar?top_k=2&offset=2`);
    expect(page2.body.results.map((r: any) => r.id)).toEqual(body.results.slice(2, 4).map((r: any) => r.id));
  });
});

describe("MCP tools", () => {
  test("tools/list has the spec's two tools and ours, each with an output schema and annotations (read-only but saving and checking a saved search)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["search_jobs", "list_cities", "get_job", "find_similar_jobs", "list_filters", "search", "fetch", "match_profile", "explain_match", "save_search", "list_saved_searches", "check_new_jobs"]);
    for (const tool of tools) {
      expect(tool.outputSchema?.type).toBe("object");
      const writes = tool.name === "save_search" || tool.name === "check_new_jobs";
      expect(tool.annotations).toMatchObject({ readOnlyHint: !writes, idempotentHint: !writes, openWorldHint: false });
      expect(tool.description!.length).toBeGreaterThan(60);
    }
    const unknown = await call("delete_everything", {});
    expect(unknown.isError).toBe(true);
    expect((unknown.content as Array<{ text: string }>)[0]!.text).toBe("MCP error -32602: Tool delete_everything not found");
  });

  test("get_job and fetch return the posting; an unknown id is an error result", async () => {
    const job = (await call("get_job", { id: "fx-01" })).structuredContent as any;
    expect(job.job.id).toBe("fx-01");
    expect(job.job.job_description).toBe(base[0]!.job_description);
    const fetched = (await call("fetch", { id: "fx-01" })).structuredContent as any;
    expect(fetched).toMatchObject({ id: "fx-01", title: base[0]!.job_title, text: base[0]!.job_description, url: base[0]!.job_url });
    expect(fetched.metadata).toMatchObject({ city: base[0]!.city, data_source: base[0]!.data_source });
    for (const name of ["get_job", "fetch", "find_similar_jobs"]) {
      const missing = await call(name, { id: "nope" });
      expect(missing.isError).toBe(true);
      expect((missing.content as Array<{ text: string }>)[0]!.text).toContain("nope");
      const bad = await call(name, { id: 42 });
      expect(bad.isError).toBe(true);
    }
  });

  test("search returns {results: [{id, title, url}]} whose ids fetch opens", async () => {
    const out = (await call("search", { query: "registered nurse" })).structuredContent as any;
    expect(out.results.length).toBeGreaterThan(0);
    expect(Object.keys(out.results[0]).sort()).toEqual(["id", "title", "url"]);
    expect(out.results[0].title).toContain("Registered Nurse");
    const fetched = (await call("fetch", { id: out.results[0].id })).structuredContent as any;
    expect(fetched.url).toBe(out.results[0].url);
  });

  test("find_similar_jobs answers as REST's similar does", async () => {
    const nurse = base.find((p) => p.job_title === "Registered Nurse")!;
    const out = (await call("find_similar_jobs", { id: nurse.id, top_k: 5 })).structuredContent as any;
    const rest = await get(`/v1/jobs/${nurse.id}/similar?top_k=5`);
    expect(out.results.map((r: any) => r.id)).toEqual(rest.body.results.map((r: any) => r.id));
  });

  test("list_filters gives each filter's values with counts", async () => {
    const out = (await call("list_filters", {})).structuredContent as any;
    const berlin = POSTINGS.filter((p) => p.city === "Berlin").length;
    expect(out.city).toContainEqual({ value: "Berlin", count: berlin });
    expect(out.source.map((s: any) => s.value).sort()).toEqual(["indeed", "linkedin"]);
    expect(out.remote.reduce((n: number, r: any) => n + r.count, 0)).toBe(POSTINGS.length);
  });
});

describe("cities and filter values", () => {
  test("a city filter differing from a city only in case or accents matches nothing, and a hint names the city (REST and MCP)", async () => {
    for (const [typed, meant] of [["berlin", "Berlin"], ["zurich", "Zürich"]]) {
      const response = await fetch(`${t.url}/v1/search`, {
        method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ q: "nurse", city: typed }),
      });
      const body = (await response.json()) as any;
      expect(body.results).toEqual([]);
      expect(body.query.hints).toContain(`no city '${typed}'; did you mean '${meant}'?`);
      const out = (await call("search_jobs", { query: "nurse", city: typed })).structuredContent as any;
      expect(out.query.hints).toContain(`no city '${typed}'; did you mean '${meant}'?`);
    }
  });

  test("list_cities can ask small: prefix, limit and counts; without arguments it is the spec's answer", async () => {
    const all = (await call("list_cities", {})).structuredContent as any;
    expect(Object.keys(all).sort()).toEqual(["cities", "total"]);
    const some = (await call("list_cities", { prefix: "zu", limit: 1, with_counts: true })).structuredContent as any;
    expect(some).toEqual({ total: 1, cities: ["Zürich"], city_counts: [{ city: "Zürich", count: POSTINGS.filter((p) => p.city === "Zürich").length }] });
    const limited = (await call("list_cities", { limit: 2 })).structuredContent as any;
    expect(limited.total).toBe(all.total);
    expect(limited.cities).toEqual(all.cities.slice(0, 2));
    expect((await call("list_cities", { limit: 0 })).isError).toBe(true);
  });

  test("GET /v1/filters lists the sources the data holds, with counts", async () => {
    const { status, body } = await get("/v1/filters");
    expect(status).toBe(200);
    const indeed = POSTINGS.filter((p) => p.data_source === "indeed").length;
    expect(body.source).toContainEqual({ value: "indeed", count: indeed });
  });
});

describe("CLI", () => {
  test("job ID prints the posting; similar ID prints a table; an unknown id is an error", async () => {
    const args = ["--url", t.url, "--api-key", t.apiKey];
    const job = await runCli(["job", "fx-01", ...args]);
    expect(job.code).toBe(0);
    expect(job.stdout).toContain(base[0]!.job_title!);
    expect(job.stdout).toContain(base[0]!.job_description);
    const similar = await runCli(["similar", "fx-01", "--top-k", "3", ...args]);
    expect(similar.code).toBe(0);
    expect(similar.stdout).toContain("3 results");
    const faceted = await runCli(["search", "registered nurse", "--facets", "city,source", "--min-score", "0", "--top-k", "3", ...args]);
    expect(faceted.code).toBe(0);
    expect(faceted.stdout).toMatch(/city\s+postings/);
    expect(faceted.stdout).toMatch(/source\s+postings/);
    expect(faceted.stdout).toMatch(/3 results, best first .* close matches \(score ≥ 0\): \d+ in all, 3 shown/);
    const missing = await runCli(["job", "nope", ...args]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("[NOT_FOUND]");
  });
});

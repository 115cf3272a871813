import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "./fixtures/postings.ts";
import { runCli, startTestServer, type TestServer } from "./helpers.ts";

/**
 * The filters job seekers use most — remote, seniority, employment type, tags, company — on REST GET
 * and POST, MCP (the SDK's client) and the CLI, hostile values included.
 */
const base = fixturePostings()[0]!;
const POSTINGS = [
  { id: "f1", job_title: "Python Engineer", company_name: "Acme", seniority_level: "senior", employment_type: "FULL_TIME", job_tags: ["Python", "Django", "remote"] },
  { id: "f2", job_title: "Python Developer", company_name: "Acme", seniority_level: "junior", employment_type: "PART_TIME", job_tags: ["Python"] },
  { id: "f3", job_title: "Python Intern", company_name: "O'Brien & Co", seniority_level: "intern", employment_type: "INTERN", job_tags: ["python", "internship", "Remote"] },
  { id: "f4", job_title: "Python Lead", company_name: "Globex", seniority_level: "lead", employment_type: "CONTRACTOR", job_tags: ["Python", "Django"] },
  { id: "f5", job_title: "Python Engineer", company_name: "Initech", seniority_level: null, employment_type: null, job_tags: [] },
].map((p, i) => ({ ...base, ...p, job_url: `https://jobs.example.com/f${i}`, job_description: `${p.job_title} writing Python services.` }));

let t: TestServer;
let client: Client;
beforeAll(async () => {
  t = await startTestServer({ records: POSTINGS });
  client = new Client({ name: "job-filters", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { "x-api-key": t.apiKey } } }));
});
afterAll(async () => {
  await client.close();
  await t.stop();
});

type Page = { results: Array<{ job_url: string }> };
const ids = (page: Page) => page.results.map((r) => `f${Number(r.job_url.split("/f").pop()) + 1}`).sort();

const get = async (query: string) => {
  const response = await fetch(`${t.url}/v1/search?q=python&top_k=50&collapse=false&${query}`, { headers: { "x-api-key": t.apiKey } });
  return { status: response.status, body: (await response.json()) as Page & { error?: string; error_code?: string } };
};
const post = async (body: object) => {
  const response = await fetch(`${t.url}/v1/search`, {
    method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ q: "python", top_k: 50, collapse: false, ...body }),
  });
  return { status: response.status, body: (await response.json()) as Page & { error?: string; error_code?: string } };
};
const mcp = async (args: object) => {
  const result = await client.callTool({ name: "search_jobs", arguments: { query: "python", top_k: 50, collapse: false, ...args } });
  return result;
};
const cli = async (flags: string[]) => {
  const out = await runCli(["search", "python", "--top-k", "50", "--no-collapse", "--json", ...flags, "--url", t.url, "--api-key", t.apiKey]);
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as Page;
};

describe.each([
  ["remote=true", { remote: true }, ["--remote"], ["f1", "f3"]],
  ["remote=false", { remote: false }, ["--no-remote"], ["f2", "f4", "f5"]],
  ["seniority=senior,lead", { seniority: ["senior", "lead"] }, ["--seniority", "senior,lead"], ["f1", "f4"]],
  ["employment_type=PART_TIME,intern", { employment_type: ["PART_TIME", "intern"] }, ["--employment-type", "PART_TIME,intern"], ["f2", "f3"]],
  ["tags=python,django", { tags: ["python", "DJANGO"] }, ["--tags", "python,django"], ["f1", "f4"]],
  ["company=Acme", { company: "Acme" }, ["--company", "Acme"], ["f1", "f2"]],
  ["company=O'Brien %26 Co", { company: "O'Brien & Co" }, ["--company", "O'Brien & Co"], ["f3"]],
] as const)("%s", (query, body, flags, expected) => {
  test("REST GET and POST, MCP and the CLI agree", async () => {
    const got = await get(query);
    expect(got.status).toBe(200);
    expect(ids(got.body)).toEqual([...expected]);
    const posted = await post(body);
    expect(ids(posted.body)).toEqual([...expected]);
    expect(ids((await mcp(body)).structuredContent as Page)).toEqual([...expected]);
    expect(ids(await cli([...flags]))).toEqual([...expected]);
  });
});

test("filters combine: remote Python postings at Acme tagged django", async () => {
  expect(ids((await post({ remote: true, company: "Acme", tags: ["django"] })).body)).toEqual(["f1"]);
});

test("unknown values are refused with the valid ones; hostile values match nothing but themselves", async () => {
  const bad = await get("seniority=senior,wizard");
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({
    error: 'seniority must be one or more of: intern, junior, mid, senior, lead, director, executive (not "wizard")', error_code: "INVALID_PARAMETER",
  });
  const type = await post({ employment_type: ["gig"] });
  expect(type.body.error).toBe('employment_type must be one or more of: FULL_TIME, PART_TIME, CONTRACTOR, INTERN, TEMPORARY (not "GIG")');
  expect((await post({ tags: "python" })).body.error).toBe("tags must be an array of strings");
  expect((await post({ remote: "yes" })).body.error).toBe("remote must be true or false");
  expect((await post({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) })).body.error).toBe("tags takes at most 20 values");
  for (const hostile of ["' OR '1'='1", "Acme' --", "acme", "x\u0000"]) {
    expect(ids((await post({ company: hostile })).body)).toEqual([]);
    expect(ids((await post({ tags: [hostile] })).body)).toEqual([]);
  }
  const viaMcp = await mcp({ seniority: ["wizard"] });
  expect(viaMcp).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("seniority must be one or more of") }] });
});

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { annualSalary } from "../../../server/salary/salary.ts";
import { connectMcp, runCli, startTestServer, type TestServer } from "../../support/helpers.ts";

/**
 * The filters job seekers use most — remote, seniority, employment type, tags, company — on REST GET
 * and POST, MCP (the SDK's client) and the CLI, hostile values included.
 */
const base = fixturePostings()[0]!;
const POSTINGS = [
  { id: "f1", job_title: "Python Engineer", company_name: "Acme", seniority_level: "senior", employment_type: "FULL_TIME", job_tags: ["Python", "Django", "remote"], base_salary: "120000.00-150000.00 USD/YEAR" },
  { id: "f2", job_title: "Python Developer", company_name: "Acme", seniority_level: "junior", employment_type: "PART_TIME", job_tags: ["Python"], base_salary: "50.00-60.00 USD/HOUR" },
  { id: "f3", job_title: "Python Intern", company_name: "O'Brien & Co", seniority_level: "intern", employment_type: "INTERN", job_tags: ["python", "internship", "Remote"], base_salary: "3000.00-4000.00 EUR/MONTH" },
  { id: "f4", job_title: "Python Lead", company_name: "Globex", seniority_level: "lead", employment_type: "CONTRACTOR", job_tags: ["Python", "Django"], base_salary: "80000.00-90000.00 GBP/YEAR" },
  { id: "f5", job_title: "Python Engineer", company_name: "Initech", seniority_level: null, employment_type: null, job_tags: [], base_salary: null },
].map((p, i) => ({ ...base, ...p, job_url: `https://jobs.example.com/f${i}`, job_description: `${p.job_title} writing Python services.` }));

let t: TestServer;
let client: Client;
beforeAll(async () => {
  t = await startTestServer({ records: POSTINGS });
  client = await connectMcp(t.url, t.apiKey, "job-filters");
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
  // Annual USD: f1 120–150k, f2 104–124.8k (hourly × 2,080), f3 46.6–62.1k (EUR monthly × 12), f4 120.8–135.9k (GBP).
  ["salary_min=100000", { salary_min: 100000 }, ["--salary-min", "100000"], ["f1", "f2", "f4"]],
  ["salary_min=100000&include_unknown_salary=true", { salary_min: 100000, include_unknown_salary: true }, ["--salary-min", "100000", "--include-unknown-salary"], ["f1", "f2", "f4", "f5"]],
  ["salary_max=50000", { salary_max: 50000 }, ["--salary-max", "50000"], ["f3"]],
  ["salary_min=100000&salary_currency=EUR", { salary_min: 100000, salary_currency: "EUR" }, ["--salary-min", "100000", "--salary-currency", "EUR"], ["f1", "f4"]],
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
  const currency = await get("salary_min=1&salary_currency=XYZ");
  expect(currency.status).toBe(400);
  expect(currency.body.error).toStartWith("salary_currency must be one of: AUD, BRL, CAD, CHF, CNY, DKK, EUR, GBP");
  expect((await post({ salary_min: -5 })).body.error).toBe("salary_min must be a number >= 0");
  const viaMcp = await mcp({ seniority: ["wizard"] });
  expect(viaMcp).toMatchObject({ isError: true, content: [{ type: "text", text: expect.stringContaining("seniority must be one or more of") }] });
});

test.each([
  ["50.00-60.00 USD/HOUR", { salary_currency: "USD", salary_min: 104_000, salary_max: 124_800, salary_min_usd: 104_000, salary_max_usd: 124_800 }],
  ["200.00-300.00 USD/DAY", { salary_min: 52_000, salary_max: 78_000 }],
  ["1000.00-2000.00 USD/WEEK", { salary_min: 52_000, salary_max: 104_000 }],
  ["3000.00-4000.00 EUR/MONTH", { salary_currency: "EUR", salary_min: 36_000, salary_max: 48_000, salary_min_usd: 46_580, salary_max_usd: 62_107 }],
  ["30000.00-40000.00 ZZZ/YEAR", { salary_currency: "ZZZ", salary_min: 30_000, salary_max: 40_000, salary_min_usd: null, salary_max_usd: null }],
])("a salary of %s is stored per year, in its currency and in USD", (text, expected) => {
  expect(annualSalary(text)).toMatchObject(expected);
});

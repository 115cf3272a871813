import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { QueryEcho } from "../shared/search.ts";
import { understoodLine } from "../shared/understood.ts";
import { fixturePostings } from "./support/fixtures/postings.ts";
import { connectMcp, runCli, startTestServer, type TestServer } from "./support/helpers.ts";

/**
 * Query understanding over a real server: conditions in q become filters (REST GET and POST, MCP,
 * the CLI), misspellings are corrected from the postings' own words, explicit filters win, and the
 * response says what was understood.
 */
const base = fixturePostings()[0]!;
const CITIES = [["London", "GB"], ["Berlin", "DE"], ["San Francisco", "US"], ["杭州", "CN"]] as const;
const KINDS = [
  { title: "Python Developer", tags: ["Python", "remote"], seniority_level: null, employment_type: "FULL_TIME" },
  { title: "Senior Python Engineer", tags: ["Python"], seniority_level: "senior", employment_type: "FULL_TIME" },
  { title: "Python Engineer", tags: ["Python", "internship"], seniority_level: null, employment_type: null },
  { title: "Python Developer", tags: ["Python"], seniority_level: null, employment_type: "PART_TIME" },
  { title: "Backend Engineer", tags: ["Go"], seniority_level: null, employment_type: "FULL_TIME" },
] as const;
/** 60 postings: each kind in each city, in 2015, 2016 and 2017; one company is called Pythia. */
const POSTINGS = CITIES.flatMap(([city, country], c) =>
  KINDS.flatMap((kind, k) =>
    [2015, 2016, 2017].map((year, y) => {
      const n = c * 100 + k * 10 + y;
      return {
        ...base,
        id: `u${n}`,
        job_title: kind.title,
        company_name: n === 0 ? "Pythia" : `Company ${n}`,
        city,
        country,
        publish_time: `${year}-0${1 + k}-1${c} 10:00:00`,
        job_tags: [...kind.tags],
        seniority_level: kind.seniority_level,
        employment_type: kind.employment_type,
        job_url: `https://jobs.example.com/u${n}`,
        job_description: `${kind.title} at a growing team. You write Python and Go services and review code.${k === 1 ? " We offer visa sponsorship." : ""}`,
      };
    }),
  ),
);
const byUrl = new Map(POSTINGS.map((p) => [p.job_url, p]));

type Page = { results: Array<{ job_url: string; score: number }>; query: QueryEcho };
let t: TestServer;
let client: Client;
beforeAll(async () => {
  t = await startTestServer({ records: POSTINGS });
  client = await connectMcp(t.url, t.apiKey, "understanding");
});
afterAll(async () => {
  await client.close();
  await t.stop();
});

async function post(body: Record<string, unknown>): Promise<Page> {
  const response = await fetch(`${t.url}/v1/search`, {
    method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ top_k: 100, collapse: false, ...body }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Page;
}
const postings = (page: Page) => page.results.map((r) => byUrl.get(r.job_url)!);

describe("conditions in q become filters", () => {
  test("remote: only postings marked remote, and the words searched are the rest", async () => {
    const page = await post({ q: "remote python developer" });
    expect(page.query).toEqual({ text: "python developer", applied_filters: { remote: true }, corrected: null, hints: [] });
    expect(page.results.length).toBe(12);
    expect(postings(page).every((p) => p.job_tags.includes("remote"))).toBe(true);
  });

  test("a city, also by its English name when stored in Chinese, and a country", async () => {
    const london = await post({ q: "python developer in London" });
    expect(london.query.applied_filters).toEqual({ city: "London" });
    expect(new Set(postings(london).map((p) => p.city))).toEqual(new Set(["London"]));
    const hangzhou = await post({ q: "backend engineer in Hangzhou" });
    expect(hangzhou.query.applied_filters).toEqual({ city: "杭州" });
    expect(new Set(postings(hangzhou).map((p) => p.city))).toEqual(new Set(["杭州"]));
    const germany = await post({ q: "python jobs in Germany" });
    expect(germany.query.applied_filters).toEqual({ country: "DE" });
    expect(new Set(postings(germany).map((p) => p.country))).toEqual(new Set(["DE"]));
  });

  test("time: a year, and a period relative to the server's clock", async () => {
    const page = await post({ q: "python jobs posted in 2016" });
    expect(page.query.applied_filters).toEqual({ since: "2015-12-31 23:59:59", until: "2017-01-01" });
    expect(page.results.length).toBeGreaterThan(0);
    expect(postings(page).every((p) => p.publish_time.startsWith("2016"))).toBe(true);
    const recent = await post({ q: "python developer last month" });
    expect(Object.keys(recent.query.applied_filters)).toEqual(["since", "until"]);
    expect(recent.results).toEqual([]);
    expect(recent.query.hints.join(" ")).toContain("understand=false");
  });

  test("an internship is any field that says so: a tag here, employment type elsewhere", async () => {
    const page = await post({ q: "python internship" });
    expect(page.query.applied_filters).toEqual({ employment_type: ["INTERN"] });
    expect(page.results.length).toBe(12);
    expect(postings(page).every((p) => p.job_tags.includes("internship"))).toBe(true);
  });

  test("senior: the seniority field or the title", async () => {
    const page = await post({ q: "senior python engineer in Berlin" });
    expect(page.query.applied_filters).toEqual({ seniority: ["senior"], city: "Berlin" });
    expect(postings(page).map((p) => p.job_title)).toEqual(Array(3).fill("Senior Python Engineer"));
  });

  test("visa sponsorship: the tag or the words of the posting", async () => {
    const page = await post({ q: "python engineer with visa sponsorship" });
    expect(page.query.applied_filters).toEqual({ tags: ["visa-sponsorship"] });
    expect(page.results.length).toBe(12);
    expect(postings(page).every((p) => p.job_description.includes("visa sponsorship"))).toBe(true);
  });

  test("an explicit filter wins over one read from q, and a hint says so", async () => {
    const page = await post({ q: "python developer in London", city: "Berlin" });
    expect(page.query.applied_filters).toEqual({});
    expect(page.query.text).toBe("python developer");
    expect(page.query.hints).toEqual(['"in London" was not applied: the request sets city']);
    expect(new Set(postings(page).map((p) => p.city))).toEqual(new Set(["Berlin"]));
  });

  test("understand=false searches the words as typed (GET and POST)", async () => {
    const posted = await post({ q: "python developer in London", understand: false });
    expect(posted.query).toMatchObject({ text: "python developer in London", applied_filters: {}, corrected: null });
    expect(new Set(postings(posted).map((p) => p.city)).size).toBeGreaterThan(1);
    const response = await fetch(`${t.url}/v1/search?q=${encodeURIComponent("python developer in London")}&understand=false`, { headers: { "x-api-key": t.apiKey } });
    expect(((await response.json()) as Page).query.applied_filters).toEqual({});
  });

  test("words that name a job are not conditions", async () => {
    for (const q of ["smart contract developer", "contract manager", "remote sensing engineer"]) {
      expect((await post({ q })).query.applied_filters).toEqual({});
    }
  });

  test("hostile words stay words: quotes and SQL in q never break the predicate", async () => {
    const page = await post({ q: "senior O'Brien' OR 1=1 -- in Berlin; DROP TABLE jobs" });
    expect(page.query.applied_filters).toEqual({ seniority: ["senior"], city: "Berlin" });
    expect(postings(page).every((p) => p.city === "Berlin")).toBe(true);
  });
});

describe("typo tolerance", () => {
  test("a misspelled word is corrected from the postings' words, and the response says so", async () => {
    const page = await post({ q: "pyhton developer" });
    expect(page.query.corrected).toBe("python developer");
    expect(page.query.hints).toEqual(['searched for "python" instead of "pyhton"']);
    expect(page.results.length).toBeGreaterThan(0);
  });

  test("a rare word the data holds as a company name is never corrected", async () => {
    const page = await post({ q: "pythia" });
    expect(page.query.corrected).toBeNull();
    expect(page.results.map((r) => r.job_url)).toContain("https://jobs.example.com/u0");
  });
});

test("MCP structuredContent carries the same query as REST", async () => {
  const q = "remote python developer in London";
  const rest = await post({ q });
  const result = await client.callTool({ name: "search_jobs", arguments: { query: q, top_k: 100, collapse: false } });
  const content = result.structuredContent as Page;
  expect(content.query).toEqual(rest.query);
  expect(content.results.map((r) => r.job_url)).toEqual(rest.results.map((r) => r.job_url));
});

test("the CLI prints what was understood, and --no-understand searches the exact words", async () => {
  const out = await runCli(["search", "remote python developer in London", "--url", t.url, "--api-key", t.apiKey]);
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("Showing remote jobs in London for “python developer”");
  const exact = await runCli(["search", "remote python developer in London", "--no-understand", "--json", "--url", t.url, "--api-key", t.apiKey]);
  expect((JSON.parse(exact.stdout) as Page).query.applied_filters).toEqual({});
});

test("the understood line names every condition", () => {
  const line = understoodLine({
    text: "python",
    applied_filters: { remote: true, seniority: ["senior"], employment_type: ["PART_TIME"], country: "NL", tags: ["visa-sponsorship"], since: "2015-12-31 23:59:59", until: "2017-01-01" },
    corrected: null,
    hints: [],
  });
  expect(line).toBe("Showing remote senior part-time jobs in Netherlands with visa sponsorship, posted 2016-01-01 to 2016-12-31, for “python”");
  expect(understoodLine({ text: "python", applied_filters: {}, corrected: null, hints: [] })).toBeUndefined();
});

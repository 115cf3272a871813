/**
 * Query understanding's two test beds: its rules on a made-up data set (its places, its words, a fixed
 * clock), and a real server over 60 postings made for it, searched over REST.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, expect } from "bun:test";
import type { Facets } from "../../server/store/store.ts";
import type { TermStats } from "../../server/store/term-stats.ts";
import { understandQuery } from "../../server/understand/understand.ts";
import type { QueryEcho } from "../../shared/search.ts";
import { fixturePostings } from "./fixtures/postings.ts";
import { connectMcp, startTestServer, type TestServer } from "./helpers.ts";

/** The rules of query understanding, on a made-up data set: its places, its words, a fixed clock. */
export const FACETS: Facets = {
  cities: [],
  sources: ["hackernews"],
  cityCounts: [
    { city: "London", country: "GB", postings: 900 },
    { city: "Mobile", country: "US", postings: 12 },
    { city: "Reading", country: "GB", postings: 8 },
    { city: "Data Scientist", country: null, postings: 30 },
    { city: "New York", country: "US", postings: 500 },
    { city: "北京", country: "CN", postings: 300 },
  ],
  located: new Set(["London", "Mobile", "Reading", "北京"]),
  companies: [{ name: "Pythia", postings: 1 }, { name: "Acme", postings: 40 }],
};
export const STATS: TermStats = {
  docs: 10_000,
  df: { london: 1200, mobil: 4000, read: 3000, javascript: 3000, developer: 5000, engineer: 8000, kubernet: 600, elasticsearch: 400, acme: 900 },
  names: ["acmex"],
};
export const NOW = new Date("2026-11-25T12:00:00Z");
export const understand = (q: string, explicit = {}) => understandQuery(q, explicit, { facets: FACETS, stats: STATS, now: NOW });

// --- a real server ---

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
export const POSTINGS = CITIES.flatMap(([city, country], c) =>
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
export const byUrl = new Map(POSTINGS.map((p) => [p.job_url, p]));

export type Page = { results: Array<{ job_url: string; score: number }>; query: QueryEcho };
export const postings = (page: Page) => page.results.map((r) => byUrl.get(r.job_url)!);

export interface UnderstandingServer {
  readonly t: TestServer;
  /** An MCP client of the server, when asked for. */
  readonly client: Client;
  /** POST /v1/search with every result on one page (top_k 100, no collapsing); expects a 200. */
  post(body: Record<string, unknown>): Promise<Page>;
}

/** A server with POSTINGS for the file's tests: started before them, stopped after. */
export function understandingServer(options: { mcp?: boolean } = {}): UnderstandingServer {
  let t: TestServer;
  let client: Client | undefined;
  beforeAll(async () => {
    t = await startTestServer({ records: POSTINGS });
    if (options.mcp) client = await connectMcp(t.url, t.apiKey, "understanding");
  });
  afterAll(async () => {
    await client?.close();
    await t.stop();
  });

  async function post(body: Record<string, unknown>): Promise<Page> {
    const response = await fetch(`${t.url}/v1/search`, {
      method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ top_k: 100, collapse: false, ...body }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  }

  return {
    get t() {
      return t;
    },
    get client() {
      if (!client) throw new Error("understandingServer({ mcp: true }) connects a client");
      return client;
    },
    post,
  };
}

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings, type FixturePosting } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

const base = fixturePostings();
const template = base[0]!;
const extras: FixturePosting[] = [
  ...["2026-01-05 09:00:00", "2026-02-05 09:00:00", "2026-04-05 09:00:00"].map((time, i) => ({
    ...template, id: `repost-${i}`, job_title: "Kubernetes Platform Engineer", company_name: "Repost Corp",
    publish_time: time, job_url: `https://jobs.example.com/repost-${i}`,
    job_description: "Run our Kubernetes clusters, Terraform and Golang tooling for the platform team.",
  })),
  ...[0, 1, 2].map((i) => ({
    ...template, id: `glass-${i}`, job_title: "Glassblowing Artisan", company_name: `Studio ${i}`, job_url: `https://jobs.example.com/glass-${i}`,
    job_description: "Shape vessels at the furnace in our studio; an apprenticeship of two years or more.",
  })),
  {
    ...template, id: "cn-1", job_title: "前端开发工程师", company_name: "北京某科技", city: "北京", country: "CN",
    job_url: "https://jobs.example.com/cn-1", job_description: "负责公司前端页面开发，熟悉 React 和 TypeScript。",
  },
  {
    ...template, id: "cn-2", job_title: "Java后端开发", company_name: "上海某公司", city: "上海", country: "CN",
    job_url: "https://jobs.example.com/cn-2", job_description: "负责后端服务开发，熟悉 Java 和 MySQL。",
  },
];
let t: TestServer;

beforeAll(async () => {
  t = await startTestServer({ records: [...base, ...extras] });
});
afterAll(() => t.stop());

async function search(body: Record<string, unknown>) {
  const response = await fetch(`${t.url}/v1/search`, { method: "POST", headers: { "x-api-key": t.apiKey }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return (await response.json()) as { total: number; results: Array<Record<string, any>> };
}

describe("keyword path for Chinese", () => {
  test("前端工程师 finds the front-end posting written 前端开发工程师 first", async () => {
    const { results } = await search({ q: "前端工程师", sort: "relevance", top_k: 3 });
    expect(results[0]!.job_title).toBe("前端开发工程师");
  });

  test("后端开发 finds the back-end posting", async () => {
    const { results } = await search({ q: "后端开发", sort: "relevance", top_k: 3 });
    expect(results[0]!.job_title).toBe("Java后端开发");
  });
});

describe("collapsing reposts", () => {
  test("shows only the newest copy by default, every copy with collapse=false", async () => {
    const collapsed = await search({ q: "kubernetes platform engineer", top_k: 100 });
    const copies = collapsed.results.filter((r) => r.company_name === "Repost Corp");
    expect(copies).toHaveLength(1);
    expect(copies[0]!.publish_time).toBe("2026-04-05 09:00:00");
    const all = await search({ q: "kubernetes platform engineer", top_k: 100, collapse: false });
    expect(all.results.filter((r) => r.company_name === "Repost Corp")).toHaveLength(3);
    expect(all.total).toBe(collapsed.total + 2);
  });
});

describe("score, min_score, sort and explain", () => {
  test("sort=relevance shows a page best first; the default shows it newest first", async () => {
    const byRelevance = await search({ q: "ios developer swift iphone", sort: "relevance", top_k: 15 });
    const scores = byRelevance.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(byRelevance.results[0]!.job_title).toBe("iOS Developer");
    const byDate = await search({ q: "ios developer swift iphone", top_k: 15 });
    expect(new Set(byDate.results.map((r) => r.job_url))).toEqual(new Set(byRelevance.results.map((r) => r.job_url)));
    const times = byDate.results.map((r) => r.publish_time);
    expect(times).toEqual([...times].sort().reverse());
  });

  test("a strong keyword match scores high, an unrelated posting low", async () => {
    const { results } = await search({ q: "registered nurse", sort: "relevance", top_k: 100, collapse: false });
    const nurse = results.find((r) => r.job_title === "Registered Nurse")!;
    const accountant = results.find((r) => r.job_title === "Accountant")!;
    expect(nurse.score).toBeGreaterThan(0.8);
    expect(accountant.score).toBeLessThan(0.5);
  });

  test("a job named in two words the knowledge base does not know: its postings score high when the data holds it, nothing reaches 0.5 when not", async () => {
    const held = await search({ q: "glassblowing artisan", sort: "relevance", top_k: 3 });
    expect(held.results.map((r) => r.job_title)).toEqual(["Glassblowing Artisan", "Glassblowing Artisan", "Glassblowing Artisan"]);
    for (const r of held.results) expect(r.score).toBeGreaterThanOrEqual(0.5);
    // Each word is in other jobs' text or tags ("hospital" of the nurses, "tax" of the accountants, "Swift" of iOS): no title holds the job.
    for (const q of ["hospital porter", "tax collector", "swift courier"]) {
      const absent = await search({ q, sort: "relevance", top_k: 50 });
      expect(absent.results.length).toBeGreaterThan(0);
      expect({ q, above: absent.results.filter((r) => r.score >= 0.5).map((r) => r.job_title) }).toEqual({ q, above: [] });
    }
  });

  test("min_score drops weaker results before paging", async () => {
    const all = await search({ q: "registered nurse", sort: "relevance", top_k: 100 });
    const strong = await search({ q: "registered nurse", sort: "relevance", top_k: 100, min_score: 0.8 });
    expect(strong.total).toBeGreaterThan(0);
    expect(strong.total).toBeLessThan(all.total);
    expect(strong.results.every((r) => r.score >= 0.8)).toBe(true);
    expect(strong.total).toBe(all.results.filter((r) => r.score >= 0.8).length);
    const page2 = await search({ q: "registered nurse", sort: "relevance", top_k: 3, offset: 3, min_score: 0.8 });
    expect(page2.results.map((r) => r.job_url)).toEqual(strong.results.slice(3, 6).map((r) => r.job_url));
  });

  test("explain=true adds bm25_rank, vector_rank and fused_score; without it they are absent", async () => {
    const explained = await search({ q: "accountant tax", explain: true, sort: "relevance", top_k: 50 });
    for (const r of explained.results) {
      expect(r.bm25_rank === null || Number.isInteger(r.bm25_rank)).toBe(true);
      expect(r.vector_rank === null || Number.isInteger(r.vector_rank)).toBe(true);
      expect(r.bm25_rank !== null || r.vector_rank !== null).toBe(true);
      expect(typeof r.fused_score).toBe("number");
    }
    expect(explained.results[0]!.bm25_rank).toBeGreaterThanOrEqual(1);
    const fused = explained.results.map((r) => r.fused_score);
    expect(fused).toEqual([...fused].sort((a, b) => b - a));
    const plain = await search({ q: "accountant tax", top_k: 5 });
    for (const r of plain.results) expect(Object.keys(r)).not.toContain("fused_score");
    const viaGet = await fetch(`${t.url}/v1/search?q=accountant&explain=true&top_k=2`, { headers: { "x-api-key": t.apiKey } });
    expect(((await viaGet.json()) as any).results[0].fused_score).toBeNumber();
  });
});

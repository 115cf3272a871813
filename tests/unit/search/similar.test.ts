import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectMcp, startTestServer, type TestServer } from "../../support/helpers.ts";

/**
 * Similar jobs say they are similar: a Chinese posting's are Chinese postings of the same kind, an English
 * one's English ones, each scored as a plausible match (≥ 0.5) without a "no close match" hint; over REST
 * and the MCP SDK's client, on a real server and table.
 */
const ROLES = [
  { lang: "zh", kind: "前端", titles: ["前端开发工程师", "高级前端开发工程师", "Web前端工程师", "资深前端工程师"], text: "负责公司产品的前端开发，使用 React 和 Vue 构建页面，优化性能与用户体验。" },
  { lang: "zh", kind: "后端", titles: ["Java后端开发工程师", "后端开发工程师", "高级后端工程师", "Go后端研发工程师"], text: "负责服务端系统的设计与开发，熟悉 MySQL、Redis 与分布式系统，保障高并发服务稳定。" },
  { lang: "zh", kind: "数据分析", titles: ["数据分析师", "高级数据分析师", "商业数据分析师", "数据分析专家"], text: "负责业务数据分析与指标体系建设，使用 SQL 与 Python 输出分析报告，支持业务决策。" },
  { lang: "en", kind: "Frontend", titles: ["Frontend Developer", "Senior Frontend Engineer", "Frontend Engineer (React)", "Lead Frontend Developer"], text: "Build user interfaces in React and TypeScript for our web application. CSS, accessibility and design systems." },
  { lang: "en", kind: "Backend", titles: ["Backend Engineer", "Senior Backend Developer", "Backend Engineer (Go)", "Python Backend Engineer"], text: "Design APIs and services in Python and Go; PostgreSQL, queues and distributed systems at scale." },
  { lang: "en", kind: "Data Analyst", titles: ["Data Analyst", "Senior Data Analyst", "Business Data Analyst", "Marketing Data Analyst"], text: "Analyse business data with SQL and Python, build dashboards and reports that drive decisions." },
  // Other jobs with the same generic nouns, as in real data ("developer", "engineer" say little of the kind).
  { lang: "en", kind: "", titles: ["iOS Developer", "PHP Developer", "Android Developer", "DevOps Engineer", "QA Engineer", "Embedded Developer"], text: "Other software work: mobile apps, web servers, infrastructure, testing and firmware." },
] as const;

const POSTINGS = ROLES.flatMap((role, r) =>
  role.titles.map((title, i) => ({
    id: `sim-${r}-${i}`,
    job_title: title,
    company_name: `${role.lang === "zh" ? "公司" : "Company "}${r}${i}`,
    city: role.lang === "zh" ? "北京" : "Berlin",
    country: role.lang === "zh" ? "CN" : "DE",
    publish_time: `2026-03-0${i + 1} 10:00:00`,
    base_salary: null,
    job_url: `https://jobs.example.com/sim/${r}/${i}`,
    job_tags: [],
    data_source: role.lang === "zh" ? "ruanyf-weekly" : "hackernews",
    seniority_level: null,
    employment_type: null,
    job_description: `${role.text} ${i}`,
  })),
);

let t: TestServer;
let client: Client;
beforeAll(async () => {
  t = await startTestServer({ records: POSTINGS });
  client = await connectMcp(t.url, t.apiKey, "similar");
});
afterAll(async () => {
  await client.close();
  await t.stop();
});

const rest = async (id: string) => {
  const response = await fetch(`${t.url}/v1/jobs/${id}/similar?top_k=3`, { headers: { "x-api-key": t.apiKey } });
  expect(response.status).toBe(200);
  return (await response.json()) as { results: Array<{ id: string; job_title: string; score: number }>; query: { hints: string[] } };
};
const mcp = async (id: string) => (await client.callTool({ name: "find_similar_jobs", arguments: { id, top_k: 3 } })).structuredContent as Awaited<ReturnType<typeof rest>>;

describe.each([["REST", rest], ["MCP", mcp]] as const)("similar jobs over %s", (_, similar) => {
  test.each([
    ["a Chinese", 0],
    ["an English", 3],
  ])("%s posting's similar jobs are of its kind and language, scored as plausible", async (_, r) => {
    const role = ROLES[r]!;
    const body = await similar(`sim-${r}-0`);
    expect(body.results.map((result) => result.id).sort()).toEqual([`sim-${r}-1`, `sim-${r}-2`, `sim-${r}-3`]);
    for (const result of body.results) {
      expect(result.job_title).toContain(role.kind);
      expect(/[\u3400-\u9fff]/.test(result.job_title)).toBe(role.lang === "zh");
      expect(result.score).toBeGreaterThanOrEqual(0.5);
    }
    expect(body.query.hints.some((hint) => hint.startsWith("no close match"))).toBe(false);
  });
});

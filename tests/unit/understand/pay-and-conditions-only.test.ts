import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";
import { understandQuery } from "../../../server/understand/understand.ts";
import { understand, type Page } from "../../support/understanding.ts";

/**
 * Pay stated in words becomes salary filters, with the currency read or taken as US dollars; a query
 * that is only conditions ("jobs in Berlin") has no job left to match, so every posting meeting them
 * is a match and scores as one: the rules, then over a real server.
 */

describe("pay in words", () => {
  test.each([
    ["data engineer salary over 140k", { salary_min: 140_000, salary_currency: "USD" }, "data engineer"],
    ["designer £45k+", { salary_min: 45_000, salary_currency: "GBP" }, "designer"],
    ["rust developer 110-130k", { salary_min: 110_000, salary_max: 130_000, salary_currency: "USD" }, "rust developer"],
    ["analyst under €60,000", { salary_max: 60_000, salary_currency: "EUR" }, "analyst"],
    ["contract tester $55/hour", { salary_min: 114_400, salary_currency: "USD", employment_type: ["CONTRACTOR"] }, "tester"],
  ])("%p", (q, filters, text) => {
    const u = understand(q);
    expect(u.filters).toEqual(filters);
    expect(u.text).toBe(text);
  });

  test.each(["java developer with over 5 years of experience", "react jobs posted in 2016", "3+ years python", "top 10 startups"])("no pay in %p", (q) => {
    const { filters } = understand(q);
    expect(filters.salary_min ?? filters.salary_max).toBeUndefined();
  });

  test("an explicit salary filter or currency wins, and a hint says so", () => {
    const u = understand("go developer over 150k", { salary_min: 90_000 });
    expect(u.filters).toEqual({});
    expect(u.hints).toEqual(['"over 150k" was not applied: the request sets salary_min']);
  });
});

describe("wishes and alternatives", () => {
  test.each([
    ["python developer, ideally remote", "remote", "remote"],
    ["senior java developer, London preferred", "London", "city"],
    ["open to part-time work, barista", "part-time", "employment_type"],
    ["java developer, open for contract work", "contract", "employment_type"],
    ["java developer, would consider London", "London", "city"],
    ["java developer; London would be nice", "London", "city"],
  ])("%p: the wish is not a filter, its words stay searched, a hint says so", (q, phrase, filter) => {
    const u = understand(q);
    expect(u.filters[filter]).toBeUndefined();
    expect(u.text).toContain(phrase);
    expect(u.hints).toContain(`"${phrase}" is a preference: it ranks the results, it does not filter them`);
  });

  test("a condition ruled out is not applied, and a hint says so", () => {
    const u = understand("full-time .NET developer, no contracts or part-time gigs");
    expect(u.filters).toEqual({ employment_type: ["FULL_TIME"] });
    expect(u.hints).toContain('"part-time" was not applied: the query rules it out');
    expect(understand("not remote, java developer").filters).toEqual({ remote: false });
  });

  test("a wish after its words reaches back to its clause only, whatever was read before", () => {
    // A wish read before once left its scanner where the next query's clause start was looked for.
    expect(understand(`go developer, ideally senior and working with a team that ${"cares about code review and ".repeat(4)}testing.`).hints).toHaveLength(1);
    const u = understand("Find a Go engineer. It must be remote, since the user lives far away. Distributed systems work preferred.");
    expect(u.filters).toEqual({ remote: true });
    expect(u.hints).toEqual([]);
  });

  test("a wish or a negation reaches over a list's commas; both ways of a condition filter neither", () => {
    const u = understand("java developer, open to part-time, contract or temporary work");
    expect(u.filters).toEqual({});
    expect(u.hints).toContain('"contract" is a preference: it ranks the results, it does not filter them');
    expect(understand("java developer, no contracts, temporary or part-time gigs").filters).toEqual({});
    // A comma before another clause still ends the wish.
    expect(understand("java developer, ideally remote, in London").filters).toEqual({ city: "London" });
    const either = understand("java developer, remote or on-site");
    expect(either.filters).toEqual({});
    expect(either.hints).toEqual(['"on-site" and remote true were not applied: the query accepts either']);
  });

  test("a requirement beside a wish still filters", () => {
    expect(understand("senior java developer in London, remote a plus").filters).toEqual({ seniority: ["senior"], city: "London" });
  });

  test.each([
    ["senior or lead backend engineer", { seniority: ["senior", "lead"] }, "backend engineer"],
    ["part-time or contract designer", { employment_type: ["PART_TIME", "CONTRACTOR"] }, "designer"],
    ["junior or mid-level qa", { seniority: ["junior", "mid"] }, "qa"],
  ])("%p: alternatives of a filter that takes several are all applied", (q, filters, text) => {
    const u = understand(q);
    expect(u.filters).toEqual(filters);
    expect(u.text).toBe(text);
  });

  test("lead as a seniority, not in a job's name", () => {
    expect(understand("lead developer").filters).toEqual({ seniority: ["lead"] });
    expect(understand("lead generation specialist").filters).toEqual({});
  });
});

describe("companies of the data", () => {
  test.each([
    ["jobs at Acme", { company: "Acme" }, "jobs"],
    ["python developer at pythia", { company: "Pythia" }, "python developer"],
    ["Pythia backend engineer", { company: "Pythia" }, "backend engineer"],
  ])("%p", (q, filters, text) => {
    const u = understand(q);
    expect(u.filters).toEqual(filters);
    expect(u.text).toBe(text);
  });

  test("a company name that is an everyday word of the postings is read only after at/for/with", () => {
    // STATS: "acme" is in 900 postings, far more than Acme's 40.
    expect(understand("Acme rockets").filters).toEqual({});
    expect(understand("rockets at acme").filters).toEqual({});
    expect(understand("designer at Acme", { company: "Other" }).hints).toEqual(['"at Acme" was not applied: the request sets company']);
  });
});

describe("queries of conditions only", () => {
  test.each([["jobs in London", true], ["remote roles", true], ["internships", true], ["python jobs in London", false], ["London", true], ["工作机会", true], ["有没有实习生岗位", true]])("%p: jobless %p", (q, jobless) => {
    expect(understand(q).jobless).toBe(jobless);
  });

  test.each([
    ["Bot: show every remote role", "show every role", true],
    ["Request: we need a frontend developer in London", "we need a frontend developer", false],
    ["Remote: find me backend roles", "find me backend roles", false],
    ["Nurse: nights in London", "Nurse: nights", false],
    ["Assistant: nurse jobs", "Assistant: nurse jobs", false],
  ])("a label before a colon that opens a request is not searched: %p", (q, text, jobless) => {
    expect(understand(q).text).toBe(text);
    expect(understand(q).jobless).toBe(jobless);
  });

  test("words taken as typed (understand=false, similar jobs) are the job", () => {
    expect(understandQuery("jobs in London", {}).jobless).toBe(false);
  });
});

describe("over a real server", () => {
  let t: TestServer;
  const base = fixturePostings()[0]!;
  const titles = ["Data Engineer", "Nurse", "Accountant", "Python Developer"];
  const chinese = ["数据工程师", "护士", "会计"].map((title, k) => ({
    ...base, id: `zh${k}`, job_title: title, city: "上海", country: "CN", company_name: `公司 ${k}`, base_salary: null, employment_type: null,
    job_url: `https://jobs.example.com/zh/${k}`, job_description: `${title}，加入我们的团队。`,
  }));
  const english = ["London", "Berlin"].flatMap((city, c) =>
    titles.flatMap((title, k) =>
      [60_000, 100_000, 160_000].map((pay, p) => ({
        ...base,
        id: `p${c}${k}${p}`,
        job_title: title,
        city,
        country: c === 0 ? "GB" : "DE",
        company_name: `Firm ${c}${k}${p}`,
        base_salary: `${pay}.00-${pay + 20_000}.00 ${c === 0 ? "GBP" : "EUR"}/YEAR`,
        employment_type: p === 2 ? "FULL_TIME" : null,
        job_url: `https://jobs.example.com/pay/${c}${k}${p}`,
        job_description: `${title} wanted in ${city}. Join a friendly team.`,
      })),
    ),
  );
  const postings = [...english, ...chinese];
  beforeAll(async () => {
    t = await startTestServer({ records: postings });
  });
  afterAll(() => t.stop());

  type Result = { job_url: string; score: number; job_title: string; city: string; base_salary: string };
  async function post(body: Record<string, unknown>): Promise<{ results: Result[]; query: Page["query"] }> {
    const response = await fetch(`${t.url}/v1/search`, {
      method: "POST", headers: { "x-api-key": t.apiKey, "content-type": "application/json" }, body: JSON.stringify({ top_k: 50, collapse: false, ...body }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as never;
  }

  test("a pay bound in q filters as salary_min would, in the currency written, and is echoed", async () => {
    const page = await post({ q: "data engineer in London paying £150k+" });
    expect(page.query.applied_filters).toEqual({ city: "London", salary_min: 150_000, salary_currency: "GBP" });
    expect(page.query.text).toBe("data engineer");
    expect(page.results[0]!.job_title).toBe("Data Engineer");
    expect(new Set(page.results.map((r) => `${r.city} ${r.base_salary}`))).toEqual(new Set(["London 160000.00-180000.00 GBP/YEAR"]));
    const explicit = await post({ q: "data engineer", city: "London", salary_min: 150_000, salary_currency: "GBP" });
    expect(explicit.results).toEqual(page.results);
  });

  test("jobs in a city: every posting there, each scored as a match, and no 'no close match'", async () => {
    const page = await post({ q: "jobs in Berlin" });
    expect(page.query.applied_filters).toEqual({ city: "Berlin" });
    expect(page.results.length).toBe(12);
    expect(page.results.every((r) => r.city === "Berlin" && r.score >= 0.5)).toBe(true);
    expect(page.query.hints.some((h) => h.startsWith("no close match"))).toBe(false);
    // The same conditions typed as filters score the same.
    const typed = await post({ q: "jobs", city: "Berlin" });
    expect(typed.results.map((r) => [r.job_url, r.score])).toEqual(page.results.map((r) => [r.job_url, r.score]));
  });

  test("conditions only: postings whose fields state the condition come first", async () => {
    const page = await post({ q: "full-time jobs in Berlin" });
    expect(page.query.applied_filters).toEqual({ employment_type: ["FULL_TIME"], city: "Berlin" });
    // Every Berlin posting meets "full-time" (those stating no type included); the four that state it lead.
    expect(page.results.length).toBe(12);
    expect(page.results.slice(0, 4).map((r) => r.base_salary)).toEqual(Array(4).fill("160000.00-180000.00 EUR/YEAR"));
  });

  test("conditions only: postings in the query's script come first, Chinese or not", async () => {
    const inChinese = await post({ q: "工作机会" });
    expect(inChinese.results.length).toBe(postings.length);
    expect(inChinese.results.slice(0, 3).map((r) => r.city)).toEqual(["上海", "上海", "上海"]);
    const inEnglish = await post({ q: "jobs" });
    expect(inEnglish.results.slice(-3).map((r) => r.city)).toEqual(["上海", "上海", "上海"]);
  });

  test("a job named with the conditions is still judged on the job", async () => {
    const page = await post({ q: "nurse jobs in Berlin" });
    expect(page.results[0]!.job_title).toBe("Nurse");
    const accountant = page.results.find((r) => r.job_title === "Accountant");
    expect(accountant === undefined || accountant.score < 0.5).toBe(true);
  });
});

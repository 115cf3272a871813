import { afterAll, beforeAll, expect, test } from "bun:test";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { cleanCity } from "../../../server/ingest/city.ts";
import { annualSalary } from "../../../server/salary/salary.ts";
import { FACET_VALUES, salaryBucket } from "../../../server/search/facets.ts";
import { FACET_DEPTH, FACET_NAMES } from "../../../shared/search.ts";
import { postSearch, startTestServer, type TestServer } from "../../support/helpers.ts";
import { sharedRecords } from "../../support/stores.ts";

/**
 * Facet counts equal a brute-force count made straight from the data file's records (not through
 * LanceDB or the predicate writer), for filter combinations that leave fewer postings than the
 * facets' candidate depth, with min_score 0; and they are the same on every page.
 */
type Record_ = Record<string, any>;
let t: TestServer;
let sample: Record_[];

beforeAll(async () => {
  const all = await sharedRecords();
  const picked = all.filter((_, i) => i % 40 === 0);
  sample = picked.map((record) => record.value as Record_);
  t = await startTestServer();
  await ingestRecords(t.server, picked);
}, 120_000);
afterAll(() => t.stop());

type FacetPage = { results: Array<{ score: number }>; facets: Record<string, Array<{ value: string; count: number }>>; total_matches: number };

async function search(body: Record<string, unknown>) {
  const defaults = { q: "software engineer", understand: false, collapse: false, min_score: 0, facets: [...FACET_NAMES], top_k: 20 };
  const { status, body: page } = await postSearch<FacetPage>(t, { ...defaults, ...body });
  expect(status).toBe(200);
  return page;
}

const tags = (r: Record_) => (r.job_tags ?? []).map((tag: string) => tag.toLowerCase());
/** Each combination: the request's filters, and the same condition written over a raw record. */
const COMBINATIONS: Array<[Record<string, unknown>, (r: Record_) => boolean]> = [
  [{ city: "London" }, (r) => r.city === "London"],
  [{ city: "Berlin" }, (r) => r.city === "Berlin"],
  [{ city: "北京" }, (r) => r.city === "北京"],
  [{ country: "DE" }, (r) => r.country === "DE"],
  [{ country: "CA" }, (r) => r.country === "CA"],
  [{ source: "ruanyf-weekly" }, (r) => r.data_source === "ruanyf-weekly"],
  [{ remote: true }, (r) => tags(r).includes("remote")],
  [{ remote: true, country: "US" }, (r) => tags(r).includes("remote") && r.country === "US"],
  [{ remote: false, city: "New York" }, (r) => !tags(r).includes("remote") && r.city === "New York"],
  [{ seniority: ["senior"] }, (r) => r.seniority_level === "senior"],
  [{ seniority: ["lead", "director"] }, (r) => ["lead", "director"].includes(r.seniority_level)],
  [{ employment_type: ["INTERN"] }, (r) => r.employment_type === "INTERN"],
  [{ employment_type: ["PART_TIME", "CONTRACTOR"] }, (r) => ["PART_TIME", "CONTRACTOR"].includes(r.employment_type)],
  [{ tags: ["python"] }, (r) => tags(r).includes("python")],
  [{ tags: ["python", "django"] }, (r) => tags(r).includes("python") && tags(r).includes("django")],
  [{ since: "2017-01-01", until: "2017-07-01" }, (r) => r.publish_time > "2017-01-01 00:00:00" && r.publish_time < "2017-07-01 00:00:00"],
  [{ until: "2014-01-01" }, (r) => r.publish_time < "2014-01-01 00:00:00"],
  [{ city: "San Francisco", since: "2016-01-01", until: "2017-01-01" }, (r) => r.city === "San Francisco" && r.publish_time > "2016-01-01 00:00:00" && r.publish_time < "2017-01-01 00:00:00"],
  [{ company: "字节跳动" }, (r) => r.company_name === "字节跳动"],
  [{ company: "GoCardless" }, (r) => r.company_name === "GoCardless"],
  [{ country: "GB", remote: false }, (r) => r.country === "GB" && !tags(r).includes("remote")],
  [{ source: "hackernews", seniority: ["senior"], remote: true }, (r) => r.data_source === "hackernews" && r.seniority_level === "senior" && tags(r).includes("remote")],
];

test.each(COMBINATIONS.map(([filters, keep]) => [JSON.stringify(filters), filters, keep] as const))(
  "facets for %s equal a count made from the records",
  async (_, filters, keep) => {
    const matching = sample.filter(keep);
    expect(matching.length).toBeGreaterThan(0);
    expect(matching.length).toBeLessThan(FACET_DEPTH);
    const body = await search(filters);
    expect(body.total_matches).toBe(matching.length);
    expect(body.facets).toEqual(bruteForce(matching));
  },
);

test("counts and total_matches are the same on every page", async () => {
  const first = await search({ country: "US", top_k: 10 });
  const third = await search({ country: "US", top_k: 10, offset: 20 });
  expect(third.total_matches).toBe(first.total_matches);
  expect(third.facets).toEqual(first.facets);
});

test("without min_score the facets count plausible matches only (score >= 0.5)", async () => {
  const all = await search({ city: "London" });
  const { body: plausible } = await postSearch<FacetPage>(t, { q: "software engineer", understand: false, city: "London", facets: ["city"], top_k: 100, sort: "relevance" });
  expect(plausible.total_matches).toBeLessThan(all.total_matches);
  expect(plausible.total_matches).toBe(plausible.results.filter((r) => r.score >= 0.5).length);
});

test("an unknown facet is a 400 listing the valid ones", async () => {
  const response = await fetch(`${t.url}/v1/search?q=x&facets=city,colour`, { headers: { "x-api-key": t.apiKey } });
  expect(response.status).toBe(400);
  expect(((await response.json()) as { error: string }).error).toContain(FACET_NAMES.join(", "));
});

/** The facets as the service defines them, counted over raw records. */
function bruteForce(records: Record_[]): Record<string, Array<{ value: string; count: number }>> {
  const count = (values: (r: Record_) => string[]) => {
    const counts = new Map<string, number>();
    for (const record of records) for (const value of values(record)) counts.set(value, (counts.get(value) ?? 0) + 1);
    return [...counts].map(([value, n]) => ({ value, count: n }));
  };
  const top = (list: Array<{ value: string; count: number }>) =>
    list.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, FACET_VALUES);
  const present = (value: unknown) => (value ? [String(value)] : []);
  const salaryKey = (value: string) => (value.endsWith("+") ? Number.MAX_SAFE_INTEGER : Number.parseInt(value, 10));
  return {
    // Stored cities are cleaned at load (street addresses out, postal codes cut: server/ingest/city.ts).
    city: top(count((r) => present(cleanCity(r.city).city))),
    country: top(count((r) => present(r.country))),
    source: top(count((r) => [r.data_source])),
    seniority: top(count((r) => present(r.seniority_level))),
    employment_type: top(count((r) => present(r.employment_type))),
    remote: top(count((r) => [String(tags(r).includes("remote"))])),
    tags: top(count((r) => [...new Set<string>(tags(r))])),
    month: count((r) => [String(r.publish_time).slice(0, 7)]).sort((a, b) => (a.value < b.value ? -1 : 1)),
    salary: count((r) => {
      const { salary_min_usd: min, salary_max_usd: max } = annualSalary(r.base_salary);
      return min === null || max === null ? [] : [salaryBucket((min + max) / 2)];
    }).sort((a, b) => salaryKey(a.value) - salaryKey(b.value)),
  };
}

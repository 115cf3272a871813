import { describe, expect, test } from "bun:test";
import type { Facets } from "../server/store/store.ts";
import type { TermStats } from "../server/store/term-stats.ts";
import { filterKeys } from "../server/ingest/filter-keys.ts";
import { understandQuery } from "../server/understand/understand.ts";

/** The rules of query understanding, on a made-up data set: its places, its words, a fixed clock. */
const FACETS: Facets = {
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
};
const STATS: TermStats = {
  docs: 10_000,
  df: { london: 1200, mobil: 4000, read: 3000, javascript: 3000, developer: 5000, engineer: 8000, kubernet: 600, elasticsearch: 400, acme: 900 },
  names: ["acmex"],
};
const NOW = new Date("2026-11-25T12:00:00Z");
const understand = (q: string, explicit = {}) => understandQuery(q, explicit, { facets: FACETS, stats: STATS, now: NOW });

describe("places", () => {
  test.each([
    ["python developer in London", { city: "London" }, "python developer"],
    ["ios developer nyc", { city: "New York" }, "ios developer"],
    ["backend engineer in Beijing", { city: "北京" }, "backend engineer"],
    ["software engineer in the Netherlands", { country: "NL" }, "software engineer"],
    ["go developer in the US", { country: "US" }, "go developer"],
    ["mobile developer", {}, "mobile developer"],
    ["data scientist", {}, "data scientist"],
    ["help us build the future", {}, "help us build the future"],
  ])("%p", (q, filters, text) => {
    const u = understand(q);
    expect(u.filters).toEqual(filters);
    expect(u.text).toBe(text);
  });

  test("a place word alone that the postings use as a common word is not a place", () => {
    expect(understand("reading specialist").filters).toEqual({});
    expect(understand("jobs in Reading").filters).toEqual({ city: "Reading" });
  });
});

describe("time, from the clock", () => {
  test.each([
    ["rust jobs posted in 2016", { since: "2015-12-31 23:59:59", until: "2017-01-01" }],
    ["java jobs from 2014", { since: "2013-12-31 23:59:59", until: "2015-01-01" }],
    ["nurse from March 2016", { since: "2016-02-29 23:59:59", until: "2016-04-01" }],
    ["nurse since March 2016", { since: "2016-02-29 23:59:59" }],
    ["go developer 2017", { since: "2016-12-31 23:59:59", until: "2018-01-01" }],
    ["jobs before 2017", { until: "2017-01-01" }],
    ["jobs after 2016", { since: "2016-12-31 23:59:59" }],
    ["jobs between 2014 and 2016", { since: "2013-12-31 23:59:59", until: "2017-01-01" }],
    ["data jobs last month", { since: "2026-09-30 23:59:59", until: "2026-11-01" }],
    ["data jobs in the past 2 weeks", { since: "2026-11-10 23:59:59" }],
    ["data jobs this year", { since: "2025-12-31 23:59:59" }],
    ["windows 1995 admin", {}],
  ])("%p", (q, filters) => {
    expect(understand(q).filters).toEqual(filters);
  });
});

describe("conditions of the job", () => {
  test.each([
    ["remote vue.js developer", { remote: true }],
    ["on-site java developer", { remote: false }],
    ["junior developer", { seniority: ["junior"] }],
    ["sr. engineer", { seniority: ["senior"] }],
    ["data analyst internship", { employment_type: ["INTERN"] }],
    ["part time barista", { employment_type: ["PART_TIME"] }],
    ["freelance designer", { employment_type: ["CONTRACTOR"] }],
    ["python visa sponsorship", { tags: ["visa-sponsorship"] }],
    ["smart contract developer", {}],
    ["contract manager", {}],
    ["senior care aide", {}],
    ["remote sensing analyst", {}],
    ["graduate research assistant", {}],
  ])("%p", (q, filters) => {
    expect(understand(q).filters).toEqual(filters);
  });

  test("explicit filters win, location and time as families", () => {
    const u = understand("senior python developer in London posted in 2016", { country: "DE", until: 1 });
    expect(u.filters).toEqual({ seniority: ["senior"] });
    expect(u.text).toBe("python developer");
    expect(u.hints).toEqual([
      '"in London" was not applied: the request sets country',
      '"posted in 2016" was not applied: the request sets until',
    ]);
  });

  test("CJK queries are searched as typed", () => {
    expect(understand("北京 后端工程师")).toMatchObject({ text: "北京 后端工程师", corrected: null, filters: {}, hints: [] });
  });
});

describe("spelling", () => {
  test.each([
    ["javasript develoer", "javascript developer"],
    ["elasticsaerch engineers", "elasticsearch engineers"],
    ["kuberneets", "kubernetes"],
  ])("%p → %p", (q, corrected) => {
    expect(understand(q).corrected).toBe(corrected);
  });

  test("never a company or tag name of the data, a word of the knowledge base, or a short word with postings", () => {
    expect(understand("acmex").corrected).toBeNull();
    expect(understand("acmey").corrected).toBe("acme");
    expect(understand("sre").corrected).toBeNull();
  });
});

test("a description offering sponsorship adds the visa-sponsorship key; one denying it does not", () => {
  expect(filterKeys(["Python"], "We sponsor H-1B visas for the right people.")).toEqual(["python", "visa-sponsorship"]);
  expect(filterKeys([], "Visa sponsorship available.")).toEqual(["visa-sponsorship"]);
  expect(filterKeys([], "Sorry, we are unable to offer visa sponsorship.")).toEqual([]);
  expect(filterKeys([], "No visa sponsorship.")).toEqual([]);
});

import { beforeAll, describe, expect, test } from "bun:test";
import { filterKeys } from "../../../server/ingest/filter-keys.ts";
import type { TestServer } from "../../support/helpers.ts";
import { postings, understand, understandingServer, type Page } from "../../support/understanding.ts";

/**
 * Conditions of the job in the query (remote, seniority, employment type, visa sponsorship) become
 * filters: the rules on a made-up data set, then over a real server; explicit filters win.
 */
const server = understandingServer();
const { post } = server;
let t: TestServer;
beforeAll(() => {
  t = server.t;
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
    ["前端 远程", { remote: true }],
    ["前端实习生", { employment_type: ["INTERN"] }],
    ["兼职设计师", { employment_type: ["PART_TIME"] }],
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

  test("CJK queries are not corrected, but the places they name are read", () => {
    expect(understand("北京 后端工程师")).toMatchObject({ text: "后端工程师", corrected: null, filters: { city: "北京" }, hints: [] });
    expect(understand("后端工程师")).toMatchObject({ text: "后端工程师", corrected: null, filters: {}, hints: [] });
  });
});

test("a description offering sponsorship adds the visa-sponsorship key; one denying it does not", () => {
  expect(filterKeys(["Python"], "We sponsor H-1B visas for the right people.")).toEqual(["python", "visa-sponsorship"]);
  expect(filterKeys([], "Visa sponsorship available.")).toEqual(["visa-sponsorship"]);
  expect(filterKeys([], "Sorry, we are unable to offer visa sponsorship.")).toEqual([]);
  expect(filterKeys([], "No visa sponsorship.")).toEqual([]);
});

describe("conditions in q become filters", () => {
  test("remote: only postings marked remote, and the words searched are the rest", async () => {
    const page = await post({ q: "remote python developer" });
    expect(page.query).toEqual({ text: "python developer", applied_filters: { remote: true }, corrected: null, hints: [] });
    expect(page.results.length).toBe(12);
    expect(postings(page).every((p) => p.job_tags.includes("remote"))).toBe(true);
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

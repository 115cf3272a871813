import { describe, expect, test } from "bun:test";
import { postings, understand, understandingServer } from "../../support/understanding.ts";

/** Time in the query ("posted in 2016", "last month") becomes since/until: by the rules on a fixed clock, then over a real server. */
const { post } = understandingServer();

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

describe("conditions in q become filters", () => {
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
});

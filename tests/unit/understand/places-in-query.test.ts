import { describe, expect, test } from "bun:test";
import { postings, understand, understandingServer } from "../../support/understanding.ts";

/** A place in the query ("in London", "nyc", "in the Netherlands") becomes a city or country filter; words that only look like places stay words. */
const { post } = understandingServer();

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

describe("conditions in q become filters", () => {
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
});

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, test } from "bun:test";
import type { Facets } from "../../../server/store/store.ts";
import { understandQuery } from "../../../server/understand/understand.ts";
import { understoodLine } from "../../../shared/understood.ts";
import { NOW, STATS, postings, understandingServer, type Page } from "../../support/understanding.ts";

/**
 * Places named together in q are alternatives (one list filter); regions and metro areas are the data's
 * countries or cities in them (places.json REGIONS, the gazetteer); Chinese city names are read inside
 * CJK text; "worldwide" is no place. First the rules on a made-up data set, then over a real server.
 */
const city = (name: string, country: string, postings = 50) => ({ city: name, country, postings });
const FACETS: Facets = {
  cities: [],
  sources: ["hackernews"],
  companies: [],
  cityCounts: [
    city("San Francisco", "US", 900), city("Oakland", "US"), city("San Jose", "US"), city("Palo Alto", "US"), city("Sacramento", "US"),
    city("Seattle", "US", 300), city("Portland", "US", 120), city("Chicago", "US", 200), city("Detroit", "US"), city("Austin", "US"),
    city("Berlin", "DE", 400), city("Munich", "DE"), city("Hamburg", "DE"), city("Vienna", "AT"), city("London", "GB", 900), city("Dublin", "IE"),
    city("Toronto", "CA"), city("北京", "CN", 300), city("上海", "CN", 200), city("深圳", "CN"), city("Hong Kong", "HK"),
  ],
  located: new Set<string>(),
};
for (const { city } of FACETS.cityCounts) FACETS.located.add(city);
const understand = (q: string, explicit = {}) => understandQuery(q, explicit, { facets: FACETS, stats: STATS, now: NOW });

describe("alternatives, regions and Chinese places", () => {
  test.each([
    ["python developer in Seattle or Portland", { city: ["Seattle", "Portland"] }, "python developer"],
    ["data engineer Berlin, Munich or Hamburg", { city: ["Berlin", "Munich", "Hamburg"] }, "data engineer"],
    ["devops in the UK or Ireland", { country: ["GB", "IE"] }, "devops"],
    ["designer in London or Ireland", { country: ["GB", "IE"] }, "designer"],
    ["go developer in Berlin, Germany", { city: "Berlin", country: "DE" }, "go developer"],
    ["go developer in Portland, Oregon", { city: "Portland" }, "go developer"],
    ["python developer Austin TX", { city: "Austin" }, "python developer"],
    ["python developer in Portland, OR", { city: "Portland" }, "python developer"],
    ["ml engineer in the Bay Area", { city: ["San Francisco", "Oakland", "San Jose", "Palo Alto"] }, "ml engineer"],
    ["ml engineer in Silicon Valley", { city: ["San Jose", "Palo Alto"] }, "ml engineer"],
    ["backend jobs in the Midwest", { city: ["Chicago", "Detroit"] }, "backend"],
    ["frontend developer in Texas", { city: "Austin" }, "frontend developer"],
    ["devops anywhere in Europe", { country: ["AT", "DE", "GB", "IE"] }, "devops"],
    ["java developer DACH", { country: ["DE", "AT"] }, "java developer"],
    ["sre in the Bay Area or Seattle", { city: ["San Francisco", "Oakland", "San Jose", "Palo Alto", "Seattle"] }, "sre"],
    ["产品经理 深圳", { city: "深圳" }, "产品经理"],
    ["上海的Java开发", { city: "上海" }, "Java开发"],
    ["香港 前端", { city: "Hong Kong" }, "前端"],
    ["北京、上海的前端", { city: ["北京", "上海"] }, "前端"],
    ["Java开发 北京或深圳", { city: ["北京", "深圳"] }, "Java开发"],
    ["java developer worldwide", {}, "java developer"],
    ["location independent designer", { remote: true }, "designer"],
  ])("%p", (q, filters, text) => {
    const u = understand(q);
    expect(u.filters).toEqual(filters);
    expect(u.text).toBe(text);
  });

  test("a region where the data has no city is not applied and says so; its words stay searched", () => {
    const u = understand("python developer in Alaska");
    expect(u.filters).toEqual({});
    expect(u.text).toBe("python developer in Alaska");
    expect(u.hints).toEqual(['"in Alaska" was not applied: the data has no city in in Alaska']);
  });

  test("an explicit place filter wins over a list read from q, with the hint", () => {
    const u = understand("python developer in Seattle or Portland", { city: "Chicago" });
    expect(u.filters).toEqual({});
    expect(u.hints).toEqual(['"in Seattle or Portland" was not applied: the request sets city']);
  });

  test("worldwide is said to be no place limit", () => {
    expect(understand("java developer worldwide").hints).toEqual(['"worldwide" was read as no place limit: postings anywhere are searched']);
  });

  test("region names are never corrected as misspellings", () => {
    expect(understand("DACH backend")).toMatchObject({ corrected: null, filters: { country: ["DE", "AT"] } });
  });

  test("the understood line names a list's places, a long one by its first few", () => {
    const line = (applied_filters: Record<string, unknown>) => understoodLine({ text: "python", applied_filters, corrected: null, hints: [] });
    expect(line({ city: ["Seattle", "Portland"] })).toBe("Showing jobs in Seattle or Portland for “python”");
    expect(line({ country: ["GB", "IE"] })).toBe("Showing jobs in United Kingdom or Ireland for “python”");
    expect(line({ city: ["A", "B", "C", "D", "E", "F", "G"] })).toBe("Showing jobs in A, B, C, D, E or 2 other cities for “python”");
  });
});

const server = understandingServer({ mcp: true });
let client: Client;
beforeAll(() => {
  ({ client } = server);
});

describe("over a real server", () => {
  test("alternatives in q search any of them and echo the list", async () => {
    const page = await server.post({ q: "python developer in London or Berlin" });
    expect(page.query).toMatchObject({ text: "python developer", applied_filters: { city: ["London", "Berlin"] }, hints: [] });
    expect(new Set(postings(page).map((p) => p.city))).toEqual(new Set(["London", "Berlin"]));
  });

  test("a region is its countries that have postings; a metro area its cities", async () => {
    const europe = await server.post({ q: "python engineer anywhere in Europe" });
    expect(europe.query.applied_filters).toEqual({ country: ["DE", "GB"] });
    expect(new Set(postings(europe).map((p) => p.country))).toEqual(new Set(["DE", "GB"]));
    const bay = await server.post({ q: "backend engineer in the Bay Area" });
    expect(bay.query.applied_filters).toEqual({ city: "San Francisco" });
    expect(new Set(postings(bay).map((p) => p.city))).toEqual(new Set(["San Francisco"]));
  });

  test("a Chinese city in a Chinese query is a city filter; MCP echoes what REST does", async () => {
    const rest = await server.post({ q: "杭州 Python 工程师" });
    expect(rest.query).toMatchObject({ text: "Python 工程师", applied_filters: { city: "杭州" } });
    expect(new Set(postings(rest).map((p) => p.city))).toEqual(new Set(["杭州"]));
    const result = await client.callTool({ name: "search_jobs", arguments: { query: "杭州 Python 工程师", top_k: 100, collapse: false } });
    expect((result.structuredContent as Page).query).toEqual(rest.query);
  });

  test("an explicit city list wins over places in q, with the hint", async () => {
    const page = await server.post({ q: "python developer in London", city: ["Berlin", "杭州"] });
    expect(page.query.applied_filters).toEqual({});
    expect(page.query.hints).toContain('"in London" was not applied: the request sets city');
    expect(new Set(postings(page).map((p) => p.city))).toEqual(new Set(["Berlin", "杭州"]));
  });
});

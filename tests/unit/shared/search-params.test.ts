import { describe, expect, test } from "bun:test";
import { AppError } from "../../../shared/errors.ts";
import { parseSearchRequest } from "../../../shared/search.ts";
import { parseDateTime } from "../../../shared/time.ts";

const rest = "post" as const;
const query = "get" as const;
const mcp = "mcp" as const;

function failure(raw: Record<string, unknown>, options: Parameters<typeof parseSearchRequest>[1] = rest): AppError {
  try {
    parseSearchRequest(raw, options);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("parseSearchRequest", () => {
  test("applies the defaults", () => {
    expect(parseSearchRequest({ q: " nurse " }, rest)).toEqual({
      query: "nurse", filters: {}, topK: 20, offset: 0, detail: "summary", minScore: 0, sort: "date", collapse: true, explain: false, understand: true, facets: [], facetMinScore: 0.5,
    });
  });

  test.each([
    [500, 100], [100, 100], [1, 1], [0, 1], [-7, 1], [1e20, 100],
  ])("clamps top_k %p to %p", (topK, expected) => {
    expect(parseSearchRequest({ q: "x", top_k: topK }, rest).topK).toBe(expected);
  });

  test("pages up to the result window of 1000: the last page is allowed, a clamped top_k counts as clamped", () => {
    expect(parseSearchRequest({ q: "x", offset: 900, top_k: 100 }, rest)).toMatchObject({ offset: 900, topK: 100 });
    expect(parseSearchRequest({ q: "x", offset: 900, top_k: 500 }, rest)).toMatchObject({ offset: 900, topK: 100 });
    expect(parseSearchRequest({ query: "x", offset: 980 }, mcp)).toMatchObject({ offset: 980, topK: 20 });
  });

  test("reads city and country as one value or a list: a list of one is that value, repeats count once, empty values drop", () => {
    expect(parseSearchRequest({ q: "x", city: "Berlin", country: "DE" }, rest).filters).toEqual({ city: "Berlin", country: "DE" });
    expect(parseSearchRequest({ q: "x", city: ["Berlin", "Munich", "Berlin", ""], country: ["DE", "AT"] }, rest).filters).toEqual({ city: ["Berlin", "Munich"], country: ["DE", "AT"] });
    expect(parseSearchRequest({ query: "x", city: ["Berlin"], country: [] }, mcp).filters).toEqual({ city: "Berlin" });
    expect(parseSearchRequest({ q: "x", city: ["Berlin", "Munich"] }, query).filters).toEqual({ city: ["Berlin", "Munich"] });
    // A single value stays exact: no comma splits it.
    expect(parseSearchRequest({ q: "x", city: "Berlin,Munich" }, query).filters).toEqual({ city: "Berlin,Munich" });
  });

  test("reads integers from a query string but not from JSON", () => {
    expect(parseSearchRequest({ q: "x", top_k: "5", offset: "10" }, query)).toMatchObject({ topK: 5, offset: 10 });
    expect(failure({ q: "x", top_k: "5" }).message).toBe("top_k must be an integer");
  });

  test("names the query field of each interface", () => {
    expect(failure({}).message).toBe("q is required");
    expect(failure({ q: "x" }, mcp).message).toBe("query is required");
    expect(failure({}, mcp).code).toBe("MISSING_QUERY");
  });

  test.each([
    ["offset must be an integer >= 0", { q: "x", offset: -1 }],
    ["offset + top_k must be at most 1000 (the deepest result a search pages to); narrow the query or filters instead", { q: "x", offset: 981 }],
    ["offset + top_k must be at most 1000 (the deepest result a search pages to); narrow the query or filters instead", { q: "x", offset: 901, top_k: 500 }],
    ["offset + top_k must be at most 1000 (the deepest result a search pages to); narrow the query or filters instead", { q: "x", offset: 10_000, top_k: 100 }],
    ["detail must be one of: summary, full", { q: "x", detail: "all" }],
    ["country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US", { q: "x", country: "de" }],
    ["since must be a valid date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS", { q: "x", since: "2024-02-30" }],
    ["until must be a valid date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS", { q: "x", until: "2024-01-01 24:00:00" }],
    ["city must be a string", { q: "x", city: 7 }],
    ["city must be a string or an array of strings", { q: "x", city: ["a", 7] }],
    ["country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US", { q: "x", country: ["DE", "at"] }],
    ["city takes at most 300 values", { q: "x", city: Array.from({ length: 301 }, (_, i) => `c${i}`) }],
    ["q must be at most 1000 characters", { q: "x".repeat(1001) }],
    ["city must be at most 256 characters", { q: "x", city: "c".repeat(257) }],
    ["q must be valid Unicode text", { q: "\udc00" }],
    ["min_score must be a number from 0 to 1", { q: "x", min_score: 1.5 }],
    ["min_score must be a number", { q: "x", min_score: "high" }],
    ["sort must be one of: date, relevance", { q: "x", sort: "score" }],
    ["collapse must be true or false", { q: "x", collapse: "yes" }],
    ["explain must be true or false", { q: "x", explain: 1 }],
  ])("rejects with %p", (message, raw) => {
    const error = failure(raw);
    expect(error.code).toBe("INVALID_PARAMETER");
    expect(error.message).toBe(message);
  });

  test("completes a date-only time to midnight UTC", () => {
    const request = parseSearchRequest({ q: "x", since: "2024-03-01", until: "2024-03-02 12:30:00" }, rest);
    expect(request.filters).toEqual({ since: Date.UTC(2024, 2, 1) / 1000, until: Date.UTC(2024, 2, 2, 12, 30) / 1000 });
  });

  test("reads min_score, sort, collapse and explain, from JSON and from a query string", () => {
    expect(parseSearchRequest({ q: "x", min_score: 0.7, sort: "relevance", collapse: false, explain: true }, rest)).toMatchObject({
      minScore: 0.7, sort: "relevance", collapse: false, explain: true,
    });
    expect(parseSearchRequest({ q: "x", min_score: "0.25", collapse: "false", explain: "true" }, query)).toMatchObject({
      minScore: 0.25, collapse: false, explain: true,
    });
  });

  test("explain is a REST parameter; MCP ignores it", () => {
    expect(parseSearchRequest({ query: "x", explain: true }, mcp).explain).toBe(false);
  });

  test("treats empty optional filters as absent", () => {
    expect(parseSearchRequest({ q: "x", city: "", source: "" }, query).filters).toEqual({});
  });
});

test.each([
  ["2024-02-29", Date.UTC(2024, 1, 29) / 1000],
  ["2023-02-29", undefined],
  ["2024-1-01", undefined],
  ["2024-01-01 23:59:59", Date.UTC(2024, 0, 1, 23, 59, 59) / 1000],
  ["2024-01-01 23:60:00", undefined],
  [" 2024-01-01", undefined],
])("parseDateTime(%p) = %p", (text, expected) => {
  expect(parseDateTime(text)).toBe(expected);
});

import { z } from "zod";
import { AppError, invalidParameter } from "./errors.ts";
import { COUNTRY_PATTERN, JobResultSchema } from "./job.ts";
import { parseDateTime } from "./time.ts";

export const TOP_K_DEFAULT = 20;
export const TOP_K_MAX = 100;
export const QUERY_MAX_LENGTH = 1000;
export const FILTER_MAX_LENGTH = 256;
/**
 * Longest job_description a result carries (UTF-16 code units); longer ones are cut and flagged
 * `job_description_truncated`. Every posting of the shared data fits (its longest: 21,434), and a full
 * page of 100 stays within ~3.2 M characters.
 */
export const DESCRIPTION_MAX_CHARS = 32_000;
/**
 * Deepest result a page may reach (offset + top_k), as search engines cap their result window: the
 * retrievers bring 2 × (offset + top_k) candidates each, all ranked, so the window bounds a request's work.
 */
export const RESULT_WINDOW_MAX = 1_000;

export type Detail = "summary" | "full";

/** Filters as a typed object; `search/filter.ts` is the only place that turns them into a predicate. */
export interface SearchFilters {
  city?: string;
  country?: string;
  /** Epoch seconds; only postings published strictly after it. */
  since?: number;
  /** Epoch seconds; only postings published strictly before it. */
  until?: number;
  source?: string;
}

/** Which retrievers rank a search: both (the default), or one alone (for evaluation and comparison). */
export type Retrieval = "hybrid" | "bm25" | "vector";

export type SortOrder = "date" | "relevance";

export interface SearchRequest {
  query: string;
  filters: SearchFilters;
  topK: number;
  offset: number;
  detail: Detail;
  /** Results scoring below it are left out (before paging). */
  minScore: number;
  /** How a page is displayed: newest first (the spec's order) or by relevance. */
  sort: SortOrder;
  /** Show only the newest of postings with the same company and title (reposts). */
  collapse: boolean;
  /** REST only: add bm25_rank, vector_rank and fused_score to each result. */
  explain: boolean;
  /** Internal: the evaluation compares retrievers; callers always get "hybrid". */
  retrieval?: Retrieval;
}

/**
 * Turns raw parameters from any interface (a JSON body, a query string, MCP arguments) into a
 * SearchRequest. `queryField` names the query parameter in messages (`q` for REST, `query` for MCP);
 * `fromQueryString` accepts integers written as strings. Throws AppError MISSING_QUERY or
 * INVALID_PARAMETER naming the parameter; top_k is clamped to 1..100, never rejected for its size.
 */
export function parseSearchRequest(
  raw: Record<string, unknown>,
  options: { queryField: "q" | "query"; fromQueryString: boolean },
): SearchRequest {
  const { queryField, fromQueryString } = options;
  const query = raw[queryField];
  if (query === undefined || query === null || (typeof query === "string" && query.trim() === "")) {
    throw new AppError("MISSING_QUERY", `${queryField} is required`);
  }
  if (typeof query !== "string") throw invalidParameter(`${queryField} must be a string`);
  if (!query.isWellFormed()) throw invalidParameter(`${queryField} must be valid Unicode text`);
  if (query.length > QUERY_MAX_LENGTH) {
    throw invalidParameter(`${queryField} must be at most ${QUERY_MAX_LENGTH} characters`);
  }

  const filters: SearchFilters = {};
  const city = readText(raw, "city");
  if (city !== undefined) filters.city = city;
  const country = readText(raw, "country");
  if (country !== undefined) {
    if (!COUNTRY_PATTERN.test(country)) {
      throw invalidParameter("country must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US");
    }
    filters.country = country;
  }
  const since = readTime(raw, "since");
  if (since !== undefined) filters.since = since;
  const until = readTime(raw, "until");
  if (until !== undefined) filters.until = until;
  const source = readText(raw, "source");
  if (source !== undefined) filters.source = source;

  const topK = Math.min(TOP_K_MAX, Math.max(1, readInteger(raw, "top_k", fromQueryString) ?? TOP_K_DEFAULT));
  const offset = readInteger(raw, "offset", fromQueryString) ?? 0;
  if (offset < 0) throw invalidParameter("offset must be an integer >= 0");
  if (offset + topK > RESULT_WINDOW_MAX) {
    throw invalidParameter(`offset + top_k must be at most ${RESULT_WINDOW_MAX} (the deepest result a search pages to); narrow the query or filters instead`);
  }

  const detail = readChoice(raw, "detail", ["summary", "full"]) ?? "summary";
  const sort = readChoice(raw, "sort", ["date", "relevance"]) ?? "date";
  const minScore = readNumber(raw, "min_score", fromQueryString) ?? 0;
  if (minScore < 0 || minScore > 1) throw invalidParameter("min_score must be a number from 0 to 1");

  return {
    query: query.trim(),
    filters,
    topK,
    offset,
    detail,
    minScore,
    sort,
    collapse: readBoolean(raw, "collapse", fromQueryString) ?? true,
    explain: queryField === "q" ? (readBoolean(raw, "explain", fromQueryString) ?? false) : false,
  };
}

// --- internal ---

/** Optional string parameter; empty means absent (as HTML forms send it). */
function readText(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalidParameter(`${name} must be a string`);
  if (!value.isWellFormed()) throw invalidParameter(`${name} must be valid Unicode text`);
  if (value.length > FILTER_MAX_LENGTH) {
    throw invalidParameter(`${name} must be at most ${FILTER_MAX_LENGTH} characters`);
  }
  return value;
}

function readTime(raw: Record<string, unknown>, name: string): number | undefined {
  const value = readText(raw, name);
  if (value === undefined) return undefined;
  const seconds = parseDateTime(value);
  if (seconds === undefined) {
    throw invalidParameter(`${name} must be a valid date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS`);
  }
  return seconds;
}

function readChoice<T extends string>(raw: Record<string, unknown>, name: string, choices: readonly T[]): T | undefined {
  const value = readText(raw, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw invalidParameter(`${name} must be one of: ${choices.join(", ")}`);
  return value as T;
}

function readBoolean(raw: Record<string, unknown>, name: string, fromQueryString: boolean): boolean | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  if (fromQueryString && (value === "true" || value === "false")) return value === "true";
  throw invalidParameter(`${name} must be true or false`);
}

function readNumber(raw: Record<string, unknown>, name: string, fromQueryString: boolean): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed =
    typeof value === "number" ? value
    : fromQueryString && typeof value === "string" && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(value.trim()) ? Number(value)
    : Number.NaN;
  if (!Number.isFinite(parsed)) throw invalidParameter(`${name} must be a number`);
  return parsed;
}

function readInteger(raw: Record<string, unknown>, name: string, fromQueryString: boolean): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed =
    typeof value === "number" ? value
    : fromQueryString && typeof value === "string" && /^[+-]?\d+$/.test(value.trim()) ? Number(value)
    : Number.NaN;
  if (!Number.isInteger(parsed)) throw invalidParameter(`${name} must be an integer`);
  return parsed;
}

/** Arguments of the MCP tool `search_jobs`: the REST parameters with `query` for `q`. */
export const SearchArgumentsSchema = z.object({
  query: z.string().describe("What the person is looking for, in keywords or full sentences, e.g. \"remote backend engineer, Python\". Required."),
  city: z.string().optional().describe("Exact city name, case-sensitive (e.g. \"San Francisco\"); call list_cities for the valid values."),
  country: z.string().optional().describe("Two-letter uppercase ISO 3166-1 country code, e.g. US, DE, GB."),
  since: z.string().optional().describe("Only postings published after this time: YYYY-MM-DD (= 00:00:00) or YYYY-MM-DD HH:MM:SS, UTC."),
  until: z.string().optional().describe("Only postings published before this time, same format as since."),
  source: z.string().optional().describe("Only postings from this data source; an unknown value is an error that lists the valid ones."),
  top_k: z.number().int().optional().describe(`Results per page, 1-${TOP_K_MAX} (default ${TOP_K_DEFAULT}); values outside are clamped.`),
  offset: z.number().int().optional().describe(`Index of the first result for paging (default 0; offset + top_k at most ${RESULT_WINDOW_MAX}): offset 0 with top_k N is page 1, offset N is page 2.`),
  detail: z.enum(["summary", "full"]).optional().describe("summary (default) or full, which adds job_description to each result."),
  min_score: z.number().min(0).max(1).optional().describe("Leave out results scoring below this (0-1); about 0.5 keeps plausible matches, 0.8 only strong ones."),
  sort: z.enum(["date", "relevance"]).optional().describe("How a page is shown: date (default, newest first) or relevance (best first)."),
  collapse: z.boolean().optional().describe("true (default): show only the newest of reposts of the same job (same company and title)."),
});

/**
 * REST search parameters (POST body, GET query string; spec §4.1, §4.2): the MCP arguments with `q`
 * for `query`, plus `explain`. `parseSearchRequest` checks them by hand (so top_k is clamped and the
 * messages are the spec's); this schema describes them for the OpenAPI document.
 */
export const SearchParametersSchema = z.object({
  q: SearchArgumentsSchema.shape.query.describe("What the person is looking for, in keywords or full sentences (1-1000 characters). Required: missing gives 400 MISSING_QUERY \"q is required\"."),
  ...SearchArgumentsSchema.omit({ query: true }).shape,
  city: z.string().optional().describe("Exact city name, case-sensitive (e.g. \"San Francisco\"); GET /v1/cities lists the valid values."),
  explain: z.boolean().optional().describe("true: each result gains bm25_rank, vector_rank and fused_score."),
});

/** REST search response (spec §2.2). */
export const SearchResponseSchema = z.object({
  request_id: z.string().describe("Identifier of the request, equal to the x-request-id response header"),
  total: z.number().int().describe("Number of results in this page"),
  search_time_ms: z.number().int().describe("Search duration in milliseconds"),
  results: z.array(JobResultSchema).describe("The page: relevance ranks [offset, offset+top_k), shown newest first, then by score"),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

/** What `search_jobs` returns as structuredContent. */
export const SearchResultsSchema = z.object({
  total: z.number().int().describe("Number of results in this page"),
  results: z.array(JobResultSchema).describe("The page: relevance ranks [offset, offset+top_k), shown newest first, then by score"),
});
export type SearchResults = z.infer<typeof SearchResultsSchema>;

/** What `list_cities` returns as structuredContent (spec §2.3). */
export const CityListSchema = z.object({
  total: z.number().int().describe("Number of cities"),
  cities: z.array(z.string()).describe("Every city that has postings, sorted"),
});
export type CityList = z.infer<typeof CityListSchema>;

/** GET /v1/cities (REST only, not in the spec): cities with their posting counts, most postings first. */
export const CityCountsSchema = z.object({
  request_id: z.string(),
  total: z.number().int().describe("Number of cities"),
  cities: z.array(
    z.object({
      city: z.string().describe("Exact value for the city filter"),
      country: z.string().nullable().describe("ISO 3166-1 alpha-2 code most of the city's postings name"),
      postings: z.number().int().describe("Postings in this city"),
    }),
  ),
});
export type CityCounts = z.infer<typeof CityCountsSchema>;

import { z } from "zod";
import { invalidParameter } from "./errors.ts";
import { JobDetailSchema, JobResultSchema } from "./job.ts";
import {
  RESULT_WINDOW_MAX, SEARCH_PARAMS, TOP_K_DEFAULT, wireName,
  type FacetName, type Interface, type ParamSpec, type SearchFilters, type SearchParamName,
} from "./search-params.ts";

/** From this score on, a result is a plausible match (server/relevance/ranking.ts calibratedScore). */
export const PLAUSIBLE_SCORE = 0.5;

export { FACET_DEPTH, FACET_NAMES, type FacetName, FILTER_MAX_LENGTH, QUERY_MAX_LENGTH, RESULT_WINDOW_MAX, TOP_K_DEFAULT, TOP_K_MAX, type Interface, type SearchFilters } from "./search-params.ts";

/**
 * Longest job_description a result carries (UTF-16 code units); longer ones are cut and flagged
 * `job_description_truncated`. Every posting of the shared data fits (its longest: 21,434), and a full
 * page of 100 stays within ~3.2 M characters.
 */
export const DESCRIPTION_MAX_CHARS = 32_000;

export type Detail = "summary" | "full";

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
  /** Read conditions in the query's words as filters and correct misspellings (server/understand/). */
  understand: boolean;
  /** Counts to return beside the page; empty = none. */
  facets: FacetName[];
  /** The score a match needs to be counted in facets and total_matches: min_score when given, else 0.5 (a plausible match). */
  facetMinScore: number;
  /** Internal: similar jobs to this posting (its vector is the query's; it and its reposts are left out; its title, and `cjk`: it is written in a CJK script). */
  similarTo?: { id: string; vector?: Float32Array; clusterId?: string; title?: string; cjk?: boolean };
  /** Internal: only these postings are searched (a saved search's new ones, server/saved/). */
  onlyIds?: string[];
  /** Filters read from the query's words (set by the search, never by a caller); they mean more fields than the explicit ones (store/filter.ts). */
  inferred?: SearchFilters;
  /** Internal: the evaluation compares retrievers; callers always get "hybrid". */
  retrieval?: Retrieval;
}

/**
 * Turns raw parameters from an interface (a JSON body, a query string, MCP arguments) into a
 * SearchRequest, each read by its declaration in SEARCH_PARAMS, in their order. Throws AppError
 * MISSING_QUERY or INVALID_PARAMETER naming the parameter as the interface names it; top_k is
 * clamped to 1..100, never rejected for its size; offset + top_k is at most RESULT_WINDOW_MAX.
 * Parameters an interface does not offer (explain on MCP) are ignored, as unknown ones are.
 */
export function parseSearchRequest(raw: Record<string, unknown>, via: Interface): SearchRequest {
  const values: Partial<Record<SearchParamName, unknown>> = {};
  const filters: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[SearchParamName, ParamSpec<unknown>]>) {
    if (spec.restOnly && via === "mcp") continue;
    const value = spec.read(raw, wireName(name, via), via);
    if (value === undefined) continue;
    if (spec.filter) filters[name] = value;
    else values[name] = value;
  }
  const topK = (values.top_k as number | undefined) ?? TOP_K_DEFAULT;
  const offset = (values.offset as number | undefined) ?? 0;
  if (offset + topK > RESULT_WINDOW_MAX) {
    throw invalidParameter(`offset + top_k must be at most ${RESULT_WINDOW_MAX} (the deepest result a search pages to); narrow the query or filters instead`);
  }
  return {
    query: values.q as string,
    filters: filters as SearchFilters,
    topK,
    offset,
    detail: (values.detail as Detail | undefined) ?? "summary",
    minScore: (values.min_score as number | undefined) ?? 0,
    sort: (values.sort as SortOrder | undefined) ?? "date",
    collapse: (values.collapse as boolean | undefined) ?? true,
    explain: (values.explain as boolean | undefined) ?? false,
    understand: (values.understand as boolean | undefined) ?? true,
    facets: (values.facets as FacetName[] | undefined) ?? [],
    facetMinScore: (values.min_score as number | undefined) ?? PLAUSIBLE_SCORE,
  };
}

/** Filter values as a POST body gives them (`{city: "Berlin", seniority: ["senior"]}`), read and typed as the request's are. */
export function readFilters(raw: Record<string, unknown>): SearchFilters {
  const filters: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[SearchParamName, ParamSpec<unknown>]>) {
    if (!spec.filter || raw[name] === undefined) continue;
    filters[name] = spec.read(raw, name, "post");
  }
  return filters as SearchFilters;
}

/** The parameters an interface offers as one zod object, named as it names them (`query` on MCP). */
function parametersSchema(via: Interface) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[SearchParamName, ParamSpec<unknown>]>) {
    if (spec.restOnly && via === "mcp") continue;
    shape[wireName(name, via)] = spec.schema;
  }
  return z.object(shape);
}

/** Arguments of the MCP tool `search_jobs`: the REST parameters with `query` for `q`, without `explain`. */
export const SearchArgumentsSchema = parametersSchema("mcp");

/** REST search parameters (POST body, GET query string; job-search-service.md §4.1, §4.2), for the OpenAPI document. */
export const SearchParametersSchema = parametersSchema("post");

/** What the search understood of q (ours, beside the spec's fields; see README "Query understanding"). */
export const QueryEchoSchema = z.object({
  text: z.string().describe("The words searched: q, corrected, without the conditions applied as filters"),
  applied_filters: z.record(z.string(), z.unknown()).describe("Filters read from q and applied, named and shaped as the request's filters (e.g. {\"city\": \"Berlin\", \"remote\": true}); explicit filters are not repeated here"),
  corrected: z.string().nullable().describe("q with its misspellings corrected, or null when nothing was corrected"),
  hints: z.array(z.string()).describe("What a person may want to know: corrections made, conditions not applied, an inferred filter that left nothing"),
});
export type QueryEcho = z.infer<typeof QueryEchoSchema>;

/** Counts by value of each facet asked for. */
export const FacetCountsSchema = z.record(z.string(), z.array(z.object({ value: z.string(), count: z.number().int() })))
  .describe("With facets: each facet's values and how many matches have each, most first (month and salary in order)");
export type FacetCounts = z.infer<typeof FacetCountsSchema>;
const TotalMatchesSchema = z.number().int().describe("With facets: how many postings match (what the facets count), the same on every page");

/** REST search response (job-search-service.md §2.2), with what was understood of q. */
export const SearchResponseSchema = z.object({
  request_id: z.string().describe("Identifier of the request, equal to the x-request-id response header"),
  total: z.number().int().describe("Number of results in this page"),
  search_time_ms: z.number().int().describe("Search duration in milliseconds"),
  results: z.array(JobResultSchema).describe("The page: relevance ranks [offset, offset+top_k), shown newest first, then by score"),
  query: QueryEchoSchema,
  facets: FacetCountsSchema.optional(),
  total_matches: TotalMatchesSchema.optional(),
});
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

/** What `search_jobs` returns as structuredContent. */
export const SearchResultsSchema = z.object({
  total: z.number().int().describe("Number of results in this page"),
  results: z.array(JobResultSchema).describe("The page: relevance ranks [offset, offset+top_k), shown newest first, then by score"),
  query: QueryEchoSchema,
  facets: FacetCountsSchema.optional(),
  total_matches: TotalMatchesSchema.optional(),
});
export type SearchResults = z.infer<typeof SearchResultsSchema>;

/** What `list_cities` returns as structuredContent (job-search-service.md §2.3). */
export const CityListSchema = z.object({
  total: z.number().int().describe("Number of cities (that start with prefix, when given), however many limit returns"),
  cities: z.array(z.string()).describe("Every city that has postings, sorted (those starting with prefix; the first limit)"),
  city_counts: z.array(z.object({ city: z.string(), count: z.number().int() })).optional()
    .describe("with_counts: the same cities with their postings"),
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

/** GET /v1/jobs/{id}: one whole posting. */
export const JobResponseSchema = z.object({
  request_id: z.string(),
  job: JobDetailSchema,
});
export type JobResponse = z.infer<typeof JobResponseSchema>;

const ValueCountsSchema = z.array(z.object({ value: z.string(), count: z.number().int() }));
/** Each filter's values with their postings, most first (GET /v1/filters, MCP list_filters). */
export const FilterValuesSchema = z.object({
  city: ValueCountsSchema.describe("Exact values of the city filter"),
  country: ValueCountsSchema.describe("Two-letter codes for the country filter"),
  source: ValueCountsSchema.describe("Values of the source filter"),
  seniority: ValueCountsSchema.describe("Values of the seniority filter"),
  employment_type: ValueCountsSchema.describe("Values of the employment_type filter"),
  remote: ValueCountsSchema.describe("\"true\" and \"false\": postings marked remote and not"),
  tags: ValueCountsSchema.describe("The 100 most used tags, lowercased, for the tags filter"),
});
export type FilterValues = z.infer<typeof FilterValuesSchema>;

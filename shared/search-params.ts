import { z } from "zod";
import { invalidParameter } from "./errors.ts";
import {
  FILTER_MAX_LENGTH, LIST_MAX_ITEMS, NEAR_RADIUS_KM_DEFAULT, PLACE_LIST_MAX_ITEMS, QUERY_MAX_LENGTH, type Interface, type NearBound, type SalaryBound, readNear,
  readBoolean, readChoice, readChoices, readCountry, readCurrency, readInteger, readList, readNumber, readOneOrMore, readQuery, readSalary, readText, readTime,
} from "./param-readers.ts";

export { FILTER_MAX_LENGTH, LIST_MAX_ITEMS, PLACE_LIST_MAX_ITEMS, QUERY_MAX_LENGTH, type Interface, type NearBound, type SalaryBound };

/*
 * Every search parameter, declared once. From these declarations come the validation and its exact
 * messages (parseSearchRequest), the REST and MCP schemas (OpenAPI parameters and body, the MCP
 * inputSchema), the CLI's flags, the typed filters and, server-side, the LanceDB predicate of each
 * filter (store/filter.ts reads `filter`). Adding a filter is one entry in SEARCH_PARAMS below.
 */

export const TOP_K_DEFAULT = 20;
export const TOP_K_MAX = 100;
/**
 * Deepest result a page may reach (offset + top_k), as search engines cap their result window: the
 * retrievers bring 2 × (offset + top_k) candidates each, all ranked, so the window bounds a request's work.
 */
export const RESULT_WINDOW_MAX = 1_000;

/**
 * How a filter narrows the postings: its column equal to the value (or to one of a list of them), after or before the value, one of a list
 * (`in`), a list column holding every value (`all`), or holding a fixed `tag` (`flag`: true) or not (false).
 */
export type FilterPredicate =
  | { column: string; op: "eq" | "gt" | "lt" | "in" | "all" }
  | { column: string; op: "flag"; tag: string }
  /** A salary bound (SalaryBound): the column, in USD, at least (`salary_at_least`) or at most the amount converted to USD. */
  | { column: string; op: "salary_at_least" | "salary_at_most" }
  /** Within `radiusKm` of a named place (NearBound), the column naming the latitude; its longitude is `lon`. */
  | { column: string; op: "near" };

/** The seniority levels of the data (shared data README; JobSpy's job levels map onto them). */
export const SENIORITY_LEVELS = ["intern", "junior", "mid", "senior", "lead", "director", "executive"] as const;
/** The counts a search can return beside its page (`facets`). */
export const FACET_NAMES = ["city", "country", "source", "seniority", "employment_type", "remote", "tags", "month", "salary"] as const;
export type FacetName = (typeof FACET_NAMES)[number];
/**
 * Facets count the matches among this many candidates of each retriever (up to twice as many
 * postings), whatever the page, so counts and total_matches stay the same from page to page. A search
 * matching fewer postings counts them all; a broader one counts its best. Measured: at 200 a search
 * with every facet costs about twice a plain one; at 1,000, seven times (bench/perf/facets-similar.ts).
 */
export const FACET_DEPTH = 200;

/** The employment types of the data. */
export const EMPLOYMENT_TYPES = ["FULL_TIME", "PART_TIME", "CONTRACTOR", "INTERN", "TEMPORARY"] as const;

export interface ParamSpec<T> {
  /** The schema that documents the parameter (OpenAPI, the MCP inputSchema); validation is `read`'s. */
  schema: z.ZodType;
  /** Reads the raw value (absent → undefined); throws INVALID_PARAMETER with the message the spec gives. */
  read(raw: Record<string, unknown>, name: string, via: Interface): T | undefined;
  /** Set for a filter: the value lands in `request.filters` and becomes this predicate. */
  filter?: FilterPredicate;
  /** GET may give it several times (`?city=Berlin&city=Munich`), read as a list; any other parameter given twice is a 400. */
  repeatable?: boolean;
  /** Accepted on REST only (MCP and the CLI do not offer it). */
  restOnly?: boolean;
  /** The CLI's help for its flag, when it differs from the schema's description. */
  cliHelp?: string;
}

/** A value or a list of them (city, country): the list is our extension of the spec. */
const oneOrMore = <T extends z.ZodType>(item: T) => z.union([item, z.array(item)]);

/** A declaration, its own type kept (which parameters are filters, what each reads to). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const param = <S extends ParamSpec<any>>(spec: S): S => spec;

/** Every search parameter in the order they are checked (the first error is the one reported). */
export const SEARCH_PARAMS = {
  q: param({
    schema: z.string().describe("What the person is looking for, in keywords or full sentences, e.g. \"remote backend engineer, Python\". Required."),
    read: readQuery,
  }),
  city: param({
    schema: oneOrMore(z.string()).optional().describe(`Exact city name, case-sensitive (e.g. "San Francisco"); call list_cities (REST: GET /v1/cities) for the valid values. A list (at most ${PLACE_LIST_MAX_ITEMS}) means any of them: POST ["Berlin", "Munich"], GET city=Berlin&city=Munich.`),
    read: (raw, name) => readOneOrMore(raw, name, PLACE_LIST_MAX_ITEMS, readText),
    filter: { column: "city", op: "eq" },
    repeatable: true,
    cliHelp: "Exact city name (case-sensitive; see `cities`); repeat the flag for any of several",
  }),
  country: param({
    schema: oneOrMore(z.string()).optional().describe(`Two-letter uppercase ISO 3166-1 country code, e.g. US, DE, GB. A list means any of them: POST ["DE", "AT"], GET country=DE&country=AT.`),
    read: (raw, name) => readOneOrMore(raw, name, PLACE_LIST_MAX_ITEMS, readCountry),
    filter: { column: "country", op: "eq" },
    repeatable: true,
    cliHelp: "Two-letter country code (e.g. DE); repeat the flag for any of several",
  }),
  since: param({
    schema: z.string().optional().describe("Only postings published after this time: YYYY-MM-DD (= 00:00:00) or YYYY-MM-DD HH:MM:SS, UTC."),
    read: readTime,
    filter: { column: "publish_ts", op: "gt" },
  }),
  until: param({
    schema: z.string().optional().describe("Only postings published before this time, same format as since."),
    read: readTime,
    filter: { column: "publish_ts", op: "lt" },
  }),
  source: param({
    schema: z.string().optional().describe("Only postings from this data source; an unknown value is an error that lists the valid ones."),
    read: readText,
    filter: { column: "data_source", op: "eq" },
  }),
  remote: param({
    schema: z.boolean().optional().describe("true: only postings marked remote (their tags hold \"remote\"); false: only those not marked remote."),
    read: readBoolean,
    filter: { column: "tag_keys", op: "flag", tag: "remote" },
    cliHelp: "Only remote postings; --no-remote only the others",
  }),
  seniority: param({
    schema: z.array(z.enum(SENIORITY_LEVELS)).optional().describe(`Only these seniority levels (any of them): ${SENIORITY_LEVELS.join(", ")}. GET: comma-separated, e.g. senior,lead.`),
    read: (raw, name, via) => readChoices(raw, name, via, SENIORITY_LEVELS, (value) => value.toLowerCase()),
    filter: { column: "seniority_level", op: "in" },
    cliHelp: `Seniority levels, comma-separated (${SENIORITY_LEVELS.join(", ")})`,
  }),
  employment_type: param({
    schema: z.array(z.enum(EMPLOYMENT_TYPES)).optional().describe(`Only these employment types (any of them): ${EMPLOYMENT_TYPES.join(", ")}. GET: comma-separated.`),
    read: (raw, name, via) => readChoices(raw, name, via, EMPLOYMENT_TYPES, (value) => value.toUpperCase().replaceAll("-", "_")),
    filter: { column: "employment_type", op: "in" },
    cliHelp: `Employment types, comma-separated (${EMPLOYMENT_TYPES.join(", ")})`,
  }),
  tags: param({
    schema: z.array(z.string()).optional().describe("Only postings tagged with all of these skills (job_tags, case-insensitive), e.g. [\"python\", \"django\"]. GET: comma-separated."),
    read: (raw, name, via) => readList(raw, name, via)?.map((tag) => tag.toLowerCase()),
    filter: { column: "tag_keys", op: "all" },
    cliHelp: "Skills the posting is tagged with, all of them, comma-separated (e.g. python,django)",
  }),
  company: param({
    schema: z.string().optional().describe("Exact company name, case-sensitive (as company_name in the results)."),
    read: readText,
    filter: { column: "company_name", op: "eq" },
  }),
  near: param({
    schema: z.string().optional().describe(`Only postings in cities within radius_km of this place: "Lyon", "Mountain View, CA" (US state), "Cambridge, GB" (country code). An unknown place is a 400.`),
    read: readNear,
    filter: { column: "lat", op: "near" },
    cliHelp: "A place; only postings within --radius-km of it (e.g. \"Mountain View, CA\")",
  }),
  radius_km: param({
    schema: z.number().optional().describe(`The radius of near, in km (default ${NEAR_RADIUS_KM_DEFAULT}).`),
    read: (raw, name, via) => readNumber(raw, name, via),
  }),
  salary_min: param({
    schema: z.number().min(0).optional().describe("Only postings whose annual salary reaches this (their maximum ≥ it), per year in salary_currency. Postings without a salary are left out unless include_unknown_salary."),
    read: (raw, name, via) => readSalary(raw, name, via),
    filter: { column: "salary_max_usd", op: "salary_at_least" },
  }),
  salary_max: param({
    schema: z.number().min(0).optional().describe("Only postings whose annual salary starts at or below this (their minimum ≤ it), per year in salary_currency."),
    read: (raw, name, via) => readSalary(raw, name, via),
    filter: { column: "salary_min_usd", op: "salary_at_most" },
  }),
  salary_currency: param({
    schema: z.string().optional().describe("The currency of salary_min and salary_max (ISO 4217, default USD); salaries in other currencies are compared after conversion."),
    read: readCurrency,
  }),
  include_unknown_salary: param({
    schema: z.boolean().optional().describe("true: a salary filter keeps postings that state no salary."),
    read: readBoolean,
  }),
  top_k: param({
    schema: z.number().int().optional().describe(`Results per page, 1-${TOP_K_MAX} (default ${TOP_K_DEFAULT}); values outside are clamped.`),
    read: (raw, name, via) => {
      const value = readInteger(raw, name, via);
      return value === undefined ? undefined : Math.min(TOP_K_MAX, Math.max(1, value));
    },
  }),
  offset: param({
    schema: z.number().int().optional().describe(`Index of the first result for paging (default 0; offset + top_k at most ${RESULT_WINDOW_MAX}): offset 0 with top_k N is page 1, offset N is page 2.`),
    read: (raw, name, via) => {
      const value = readInteger(raw, name, via);
      if (value !== undefined && value < 0) throw invalidParameter("offset must be an integer >= 0");
      return value;
    },
  }),
  detail: param({
    schema: z.enum(["summary", "full"]).optional().describe("summary (default) or full, which adds job_description to each result."),
    read: (raw, name) => readChoice(raw, name, ["summary", "full"] as const),
  }),
  sort: param({
    schema: z.enum(["date", "relevance"]).optional().describe("How a page is shown: date (default, newest first) or relevance (best first)."),
    read: (raw, name) => readChoice(raw, name, ["date", "relevance"] as const),
    cliHelp: "Order of the rows: relevance (the CLI's default, best first) or date (newest first, the API's default)",
  }),
  min_score: param({
    schema: z.number().min(0).max(1).optional().describe("Leave out results scoring below this (0-1); about 0.5 keeps plausible matches, 0.8 only strong ones."),
    read: (raw, name, via) => {
      const value = readNumber(raw, name, via);
      if (value !== undefined && (value < 0 || value > 1)) throw invalidParameter("min_score must be a number from 0 to 1");
      return value;
    },
  }),
  collapse: param({
    schema: z.boolean().optional().describe("true (default): show only the newest of reposts of the same job (same company and title)."),
    read: readBoolean,
    cliHelp: "Show reposts (same company and title) once; --no-collapse shows every copy",
  }),
  facets: param({
    schema: z.array(z.enum(FACET_NAMES)).optional().describe(`Counts to return beside the page, over every posting the search matches (its filters, a score of at least min_score or else 0.5, reposts collapsed, among the best ${FACET_DEPTH} candidates of each retriever): any of ${FACET_NAMES.join(", ")} (month of publication; salary: annual USD buckets of 25,000). The response gains facets and total_matches. GET: comma-separated.`),
    read: (raw, name, via) => readChoices(raw, name, via, FACET_NAMES, (value) => value.toLowerCase()),
    cliHelp: `Counts to print beside the results, comma-separated (${FACET_NAMES.join(", ")})`,
  }),
  understand: param({
    schema: z.boolean().optional().describe("true (default): read conditions stated in q as filters (places, remote, visa sponsorship, seniority, employment type, publication time) and correct misspellings, then search the remaining words; the response's query says what was understood. false: search q's words as typed."),
    read: readBoolean,
    cliHelp: "Read places, remote, seniority, type and time in the query as filters and correct typos (default); --no-understand searches the words as typed",
  }),
  explain: param({
    schema: z.boolean().optional().describe("true: each result gains bm25_rank, vector_rank and fused_score."),
    read: readBoolean,
    restOnly: true,
  }),
};

/** Whether GET (and the CLI) may give this parameter several times for a list (city, country). */
export function isRepeatable(name: string): boolean {
  return (SEARCH_PARAMS as Record<string, ParamSpec<unknown>>)[name]?.repeatable === true;
}

export type SearchParamName = keyof typeof SEARCH_PARAMS;
type Value<K extends SearchParamName> = NonNullable<ReturnType<(typeof SEARCH_PARAMS)[K]["read"]>>;
type FilterName = { [K in SearchParamName]: (typeof SEARCH_PARAMS)[K] extends { filter: FilterPredicate } ? K : never }[SearchParamName];

/** Filters as a typed object, one property per filter parameter; `store/filter.ts` turns them into a predicate. */
export type SearchFilters = { [K in FilterName]?: Value<K> };

/** The name a parameter has on an interface: the query is `q` on REST and `query` on MCP. */
export function wireName(name: SearchParamName, via: Interface): string {
  return name === "q" && via === "mcp" ? "query" : name;
}

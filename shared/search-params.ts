import { z } from "zod";
import { AppError, invalidParameter } from "./errors.ts";
import { COUNTRY_PATTERN } from "./job.ts";
import { parseDateTime } from "./time.ts";

/*
 * Every search parameter, declared once. From these declarations come the validation and its exact
 * messages (parseSearchRequest), the REST and MCP schemas (OpenAPI parameters and body, the MCP
 * inputSchema), the CLI's flags, the typed filters and, server-side, the LanceDB predicate of each
 * filter (store/filter.ts reads `filter`). Adding a filter is one entry in SEARCH_PARAMS below.
 */

export const TOP_K_DEFAULT = 20;
export const TOP_K_MAX = 100;
export const QUERY_MAX_LENGTH = 1000;
export const FILTER_MAX_LENGTH = 256;
/**
 * Deepest result a page may reach (offset + top_k), as search engines cap their result window: the
 * retrievers bring 2 × (offset + top_k) candidates each, all ranked, so the window bounds a request's work.
 */
export const RESULT_WINDOW_MAX = 1_000;

/** Where a request comes in: REST GET (a query string: numbers and booleans as text), REST POST, or MCP. */
export type Interface = "get" | "post" | "mcp";

/**
 * How a filter narrows the postings: its column equal to, after or before the value, one of a list
 * (`in`), a list column holding every value (`all`), or holding a fixed `tag` (`flag`: true) or not (false).
 */
export type FilterPredicate =
  | { column: string; op: "eq" | "gt" | "lt" | "in" | "all" }
  | { column: string; op: "flag"; tag: string };

/** The seniority levels of the data (shared data README; JobSpy's job levels map onto them). */
export const SENIORITY_LEVELS = ["intern", "junior", "mid", "senior", "lead", "director", "executive"] as const;
/** The employment types of the data. */
export const EMPLOYMENT_TYPES = ["FULL_TIME", "PART_TIME", "CONTRACTOR", "INTERN", "TEMPORARY"] as const;
/** Most values one list filter takes. */
export const LIST_MAX_ITEMS = 20;

export interface ParamSpec<T> {
  /** The schema that documents the parameter (OpenAPI, the MCP inputSchema); validation is `read`'s. */
  schema: z.ZodType;
  /** Reads the raw value (absent → undefined); throws INVALID_PARAMETER with the message the spec gives. */
  read(raw: Record<string, unknown>, name: string, via: Interface): T | undefined;
  /** Set for a filter: the value lands in `request.filters` and becomes this predicate. */
  filter?: FilterPredicate;
  /** Accepted on REST only (MCP and the CLI do not offer it). */
  restOnly?: boolean;
  /** The CLI's help for its flag, when it differs from the schema's description. */
  cliHelp?: string;
}

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
    schema: z.string().optional().describe("Exact city name, case-sensitive (e.g. \"San Francisco\"); call list_cities (REST: GET /v1/cities) for the valid values."),
    read: readText,
    filter: { column: "city", op: "eq" },
    cliHelp: "Exact city name (case-sensitive; see `cities`)",
  }),
  country: param({
    schema: z.string().optional().describe("Two-letter uppercase ISO 3166-1 country code, e.g. US, DE, GB."),
    read: readCountry,
    filter: { column: "country", op: "eq" },
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
  explain: param({
    schema: z.boolean().optional().describe("true: each result gains bm25_rank, vector_rank and fused_score."),
    read: readBoolean,
    restOnly: true,
  }),
};

export type SearchParamName = keyof typeof SEARCH_PARAMS;
type Value<K extends SearchParamName> = NonNullable<ReturnType<(typeof SEARCH_PARAMS)[K]["read"]>>;
type FilterName = { [K in SearchParamName]: (typeof SEARCH_PARAMS)[K] extends { filter: FilterPredicate } ? K : never }[SearchParamName];

/** Filters as a typed object, one property per filter parameter; `store/filter.ts` turns them into a predicate. */
export type SearchFilters = { [K in FilterName]?: Value<K> };

/** The name a parameter has on an interface: the query is `q` on REST and `query` on MCP. */
export function wireName(name: SearchParamName, via: Interface): string {
  return name === "q" && via === "mcp" ? "query" : name;
}

// --- internal ---

function readQuery(raw: Record<string, unknown>, name: string): string {
  const query = raw[name];
  if (query === undefined || query === null || (typeof query === "string" && query.trim() === "")) {
    throw new AppError("MISSING_QUERY", `${name} is required`);
  }
  if (typeof query !== "string") throw invalidParameter(`${name} must be a string`);
  if (!query.isWellFormed()) throw invalidParameter(`${name} must be valid Unicode text`);
  if (query.length > QUERY_MAX_LENGTH) throw invalidParameter(`${name} must be at most ${QUERY_MAX_LENGTH} characters`);
  return query.trim();
}

/** Optional string parameter; empty means absent (as HTML forms send it). */
function readText(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalidParameter(`${name} must be a string`);
  if (!value.isWellFormed()) throw invalidParameter(`${name} must be valid Unicode text`);
  if (value.length > FILTER_MAX_LENGTH) throw invalidParameter(`${name} must be at most ${FILTER_MAX_LENGTH} characters`);
  return value;
}

function readCountry(raw: Record<string, unknown>, name: string): string | undefined {
  const value = readText(raw, name);
  if (value !== undefined && !COUNTRY_PATTERN.test(value)) {
    throw invalidParameter(`${name} must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US`);
  }
  return value;
}

function readTime(raw: Record<string, unknown>, name: string): number | undefined {
  const value = readText(raw, name);
  if (value === undefined) return undefined;
  const seconds = parseDateTime(value);
  if (seconds === undefined) throw invalidParameter(`${name} must be a valid date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS`);
  return seconds;
}

/** A list: an array of strings (POST, MCP) or a comma-separated string (GET); empty means absent. */
function readList(raw: Record<string, unknown>, name: string, via: Interface): string[] | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const items = via === "get" && typeof value === "string" ? value.split(",").map((item) => item.trim()).filter((item) => item !== "") : value;
  if (!Array.isArray(items) || items.some((item) => typeof item !== "string")) {
    throw invalidParameter(`${name} must be ${via === "get" ? "a comma-separated list" : "an array of strings"}`);
  }
  if (items.length > LIST_MAX_ITEMS) throw invalidParameter(`${name} takes at most ${LIST_MAX_ITEMS} values`);
  for (const item of items as string[]) readText({ [name]: item }, name);
  return items.length === 0 ? undefined : (items as string[]);
}

/** A list of known values (compared after `normalize`); an unknown one is refused with the valid ones. */
function readChoices<T extends string>(
  raw: Record<string, unknown>, name: string, via: Interface, choices: readonly T[], normalize: (value: string) => string,
): T[] | undefined {
  const values = readList(raw, name, via)?.map(normalize);
  const unknown = values?.find((value) => !(choices as readonly string[]).includes(value));
  if (unknown !== undefined) throw invalidParameter(`${name} must be one or more of: ${choices.join(", ")} (not "${unknown}")`);
  return values as T[] | undefined;
}

function readChoice<T extends string>(raw: Record<string, unknown>, name: string, choices: readonly T[]): T | undefined {
  const value = readText(raw, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw invalidParameter(`${name} must be one of: ${choices.join(", ")}`);
  return value as T;
}

function readBoolean(raw: Record<string, unknown>, name: string, via: Interface): boolean | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  if (via === "get" && (value === "true" || value === "false")) return value === "true";
  throw invalidParameter(`${name} must be true or false`);
}

function readNumber(raw: Record<string, unknown>, name: string, via: Interface): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed =
    typeof value === "number" ? value
    : via === "get" && typeof value === "string" && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(value.trim()) ? Number(value)
    : Number.NaN;
  if (!Number.isFinite(parsed)) throw invalidParameter(`${name} must be a number`);
  return parsed;
}

function readInteger(raw: Record<string, unknown>, name: string, via: Interface): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed =
    typeof value === "number" ? value
    : via === "get" && typeof value === "string" && /^[+-]?\d+$/.test(value.trim()) ? Number(value)
    : Number.NaN;
  if (!Number.isInteger(parsed)) throw invalidParameter(`${name} must be an integer`);
  return parsed;
}

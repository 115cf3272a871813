import { invalidParameter } from "../../shared/errors.ts";
import { SEARCH_PARAMS, type FilterPredicate, type NearBound, type ParamSpec, type SalaryBound, type SearchFilters } from "../../shared/search-params.ts";
import { locatePlace } from "../geo/gazetteer.ts";
import { KNOWN_CURRENCIES, toUsd } from "../ingest/salary.ts";

/**
 * The only place that writes a LanceDB predicate: each filter's declared predicate (column and
 * comparison, shared/search-params.ts) with its value. Every value is a typed number or a quoted
 * string literal, so no filter value can change the predicate's meaning. Returns undefined when
 * there is nothing to filter.
 */
export function buildWhere(filters: SearchFilters, inferred: SearchFilters = {}): string | undefined {
  const clauses: string[] = [];
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[string, ParamSpec<unknown>]>) {
    if (spec.filter === undefined) continue;
    const value = (filters as Record<string, unknown>)[name];
    if (value !== undefined) clauses.push(predicate(spec.filter, value));
    const guess = (inferred as Record<string, unknown>)[name];
    if (guess !== undefined) clauses.push(NOTIONS[name]?.(guess) ?? predicate(spec.filter, guess));
  }
  return clauses.length === 0 ? undefined : clauses.join(" AND ");
}

/** The predicate selecting postings by id (for the ingest's look-up of what is already stored). */
export function idIn(ids: string[]): string {
  return ids.length === 0 ? "false" : `id IN (${ids.map(quote).join(", ")})`;
}

/** The predicate selecting the postings of one data source. */
export function sourceIs(source: string): string {
  return equals("data_source", source);
}

/** The predicate selecting the postings published before `seconds` (epoch, UTC). */
export function publishedBefore(seconds: number): string {
  return `publish_ts < ${number(seconds)}`;
}

/** A SQL string literal: single quotes doubled (standard SQL has no backslash escapes). */
export function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

// --- internal ---

/**
 * What a filter read from the query's words means: every field that carries the notion, since most
 * postings leave seniority and employment type unset and say it in the title or tags instead. An
 * internship is employment type INTERN, seniority intern, the tag or the word in the title; "remote"
 * the tag or the title; "full-time" also a posting that states no employment type.
 */
const NOTIONS: Record<string, (value: unknown) => string> = {
  remote: (value) => `${value ? "" : "NOT "}(array_has(tag_keys, 'remote') OR ${titleSays("remote")})`,
  seniority: (value) => {
    const levels = value as string[];
    const words = levels.map((level) => SENIORITY_WORDS[level]).filter((w) => w !== undefined);
    return anyOf([`seniority_level IN (${levels.map(quote).join(", ")})`, ...words.map(titleSays)]);
  },
  employment_type: (value) => {
    const types = value as string[];
    return anyOf([
      `employment_type IN (${types.map(quote).join(", ")})`,
      ...types.flatMap((type) => EMPLOYMENT_NOTIONS[type] ?? []),
    ]);
  },
};

const SENIORITY_WORDS: Record<string, string> = {
  senior: String.raw`senior|sr\.?`,
  junior: String.raw`junior|jr\.?|entry[- ]level|graduate|new grad`,
  mid: String.raw`mid[- ]level|intermediate`,
  intern: String.raw`interns?|internships?`,
};
const EMPLOYMENT_NOTIONS: Record<string, string[]> = {
  PART_TIME: ["array_has(tag_keys, 'part-time')", "array_has(tag_keys, 'part time')", titleSays("part[- ]time")],
  CONTRACTOR: ["array_has(tag_keys, 'contract')", "array_has(tag_keys, 'contractor')", "array_has(tag_keys, 'freelance')", titleSays("contract|contractor|freelance")],
  INTERN: ["seniority_level = 'intern'", "array_has(tag_keys, 'internship')", "array_has(tag_keys, 'intern')", titleSays(SENIORITY_WORDS.intern!)],
  TEMPORARY: ["array_has(tag_keys, 'temporary')", titleSays("temporary|temp")],
  FULL_TIME: ["employment_type IS NULL"],
};

/** The title holds one of the words of a regex alternation (case-insensitive, whole words). */
function titleSays(alternation: string): string {
  return `regexp_like(job_title, ${quote(`(?i)\\b(?:${alternation})\\b`)})`;
}

function anyOf(clauses: string[]): string {
  return clauses.length === 1 ? clauses[0]! : `(${clauses.join(" OR ")})`;
}

function predicate(filter: FilterPredicate, value: unknown): string {
  const { column } = filter;
  switch (filter.op) {
    case "eq":
      return equals(column, String(value));
    case "gt":
    case "lt":
      return `${column} ${filter.op === "gt" ? ">" : "<"} ${number(value as number)}`;
    case "in":
      return `${column} IN (${(value as string[]).map(quote).join(", ")})`;
    case "all":
      return (value as string[]).map((item) => (item.includes("\u0000") ? "false" : `array_has(${column}, ${quote(item)})`)).join(" AND ");
    case "flag":
      return `${value ? "" : "NOT "}array_has(${column}, ${quote(filter.tag)})`;
    case "near":
      return nearPredicate(value as NearBound);
    case "salary_at_least":
    case "salary_at_most": {
      const bound = value as SalaryBound;
      const usd = toUsd(bound.amount, bound.currency);
      if (usd === null) throw invalidParameter(`salary_currency must be one of: ${KNOWN_CURRENCIES.join(", ")}`);
      const compared = `${column} ${filter.op === "salary_at_least" ? ">=" : "<="} ${number(usd)}`;
      return bound.includeUnknown ? `(${compared} OR ${column} IS NULL)` : compared;
    }
  }
}

/** No stored value holds NUL (ingest removes it), so a value with NUL matches nothing rather than something trimmed. */
function equals(column: string, value: string): string {
  return value.includes("\u0000") ? "false" : `${column} = ${quote(value)}`;
}

/**
 * Within a radius of a place: a bounding box the scalar columns can answer quickly, then the exact
 * great-circle distance (haversine via the spherical law of cosines, Earth radius 6,371 km).
 */
function nearPredicate({ place, radiusKm }: NearBound): string {
  const at = locatePlace(place);
  if (!at) throw invalidParameter(`near: no place called "${place}" is known (try "City", "City, ST" for a US state or "City, CC" for a country)`);
  const dLat = radiusKm / 111;
  const dLon = radiusKm / (111 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180)));
  const box = `lat BETWEEN ${number(at.lat - dLat)} AND ${number(at.lat + dLat)} AND lon BETWEEN ${number(at.lon - dLon)} AND ${number(at.lon + dLon)}`;
  const cosine = `cos(radians(${number(at.lat)})) * cos(radians(lat)) * cos(radians(lon) - radians(${number(at.lon)})) + sin(radians(${number(at.lat)})) * sin(radians(lat))`;
  return `(${box} AND 6371.0 * acos(least(1.0, ${cosine})) <= ${number(radiusKm)})`;
}

function number(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

import { invalidParameter } from "../../shared/errors.ts";
import { SEARCH_PARAMS, type FilterPredicate, type NearBound, type ParamSpec, type SalaryBound, type SearchFilters } from "../../shared/search-params.ts";
import { NOTIONS as NOTION_DATA, type NotionClause } from "../knowledge/knowledge.ts";
import { distanceKm, locatePlace } from "../places/gazetteer.ts";
import { KNOWN_CURRENCIES, toUsd } from "../salary/salary.ts";

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
    if (guess !== undefined) clauses.push(NOTIONS[name] ? notionSql(NOTIONS[name](guess)) : predicate(spec.filter, guess));
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
 * the tag or the title; "full-time" also a posting that states no employment type. Declared as data
 * (the knowledge base's notions.json), so the LanceDB predicate and the in-memory tests (rowTests) say
 * the same: a boolean notion is its clauses, negated for false; a "values" one is its column holding
 * one of the values, then each value's clauses in the order of the values.
 */
type Clause = NotionClause | { column: string; in: string[] };
interface Notion {
  any: Clause[];
  negate: boolean;
}
const NOTIONS: Record<string, (value: unknown) => Notion> = Object.fromEntries(
  Object.entries(NOTION_DATA).map(([name, notion]): [string, (value: unknown) => Notion] => {
    if (notion.kind === "boolean") return [name, (value) => ({ any: notion.any, negate: !value })];
    const byValue = new Map(Object.entries(notion.values));
    return [name, (value) => ({ any: [{ column: notion.column, in: value as string[] }, ...(value as string[]).flatMap((v) => byValue.get(v) ?? [])], negate: false })];
  }),
);

function notionSql(notion: Notion): string {
  const clauses = notion.any.map((clause): string => {
    if ("tag" in clause) return `array_has(tag_keys, ${quote(clause.tag)})`;
    if ("title" in clause) return `regexp_like(coalesce(job_title, ''), ${quote(`(?i)\\b(?:${clause.title})\\b`)})`;
    if ("isNull" in clause) return `${clause.column} IS NULL`;
    if ("eq" in clause) return equals(clause.column, clause.eq);
    return `${clause.column} IN (${clause.in.map(quote).join(", ")})`;
  });
  if (notion.negate) return `NOT (${clauses.join(" OR ")})`;
  return clauses.length === 1 ? clauses[0]! : `(${clauses.join(" OR ")})`;
}

function predicate(filter: FilterPredicate, value: unknown): string {
  const { column } = filter;
  switch (filter.op) {
    case "eq":
      return Array.isArray(value) ? oneOf(column, value as string[]) : equals(column, String(value));
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

/** A list filter (city, country given several values): the column equal to any of them. */
function oneOf(column: string, values: string[]): string {
  const kept = values.filter((value) => !value.includes("\u0000"));
  return kept.length === 0 ? "false" : `${column} IN (${kept.map(quote).join(", ")})`;
}

/**
 * Within a radius of a place: a bounding box the scalar columns can answer quickly, then the exact
 * great-circle distance (haversine via the spherical law of cosines, Earth radius 6,371 km).
 */
function nearPredicate(bound: NearBound): string {
  const { at, dLat, dLon, radiusKm } = nearBox(bound);
  const box = `lat BETWEEN ${number(at.lat - dLat)} AND ${number(at.lat + dLat)} AND lon BETWEEN ${number(at.lon - dLon)} AND ${number(at.lon + dLon)}`;
  const cosine = `cos(radians(${number(at.lat)})) * cos(radians(lat)) * cos(radians(lon) - radians(${number(at.lon)})) + sin(radians(${number(at.lat)})) * sin(radians(lat))`;
  return `(${box} AND 6371.0 * acos(least(1.0, ${cosine})) <= ${number(radiusKm)})`;
}

/** The place's coordinates and the half-sides of the box around it, in degrees. */
function nearBox({ place, radiusKm }: NearBound) {
  const at = locatePlace(place);
  if (!at) throw invalidParameter(`near: no place called "${place}" is known (try "City", "City, ST" for a US state or "City, CC" for a country)`);
  const dLat = radiusKm / 111;
  const dLon = radiusKm / (111 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180)));
  return { at, dLat, dLon, radiusKm };
}

function number(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

/** The filter columns of postings held in memory (server/memory/), by row; null numbers are NaN. */
export interface FilterColumns {
  text(column: string): ReadonlyArray<string | null>;
  number(column: string): Float64Array;
  /** tag_keys of each row. */
  tags: ReadonlyArray<readonly string[]>;
}

/**
 * The same selection as `buildWhere(filters, inferred)`, as tests of one row of `columns`, one per
 * filter (a row is selected when every test holds), each with a key naming it; tests/unit/memory/copy.test.ts
 * checks the two agree. Building a test costs little; running it is what callers keep (by key).
 */
export function rowTests(filters: SearchFilters, inferred: SearchFilters, columns: FilterColumns): Array<{ key: string; test: (row: number) => boolean }> {
  const tests: Array<{ key: string; test: (row: number) => boolean }> = [];
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[string, ParamSpec<unknown>]>) {
    if (spec.filter === undefined) continue;
    const value = (filters as Record<string, unknown>)[name];
    if (value !== undefined) tests.push({ key: JSON.stringify([name, value]), test: predicateTest(spec.filter, value, columns) });
    const guess = (inferred as Record<string, unknown>)[name];
    if (guess !== undefined) {
      const test = NOTIONS[name] ? notionTest(NOTIONS[name](guess), columns) : predicateTest(spec.filter, guess, columns);
      tests.push({ key: JSON.stringify([name, guess, "inferred"]), test });
    }
  }
  return tests;
}

function notionTest(notion: Notion, columns: FilterColumns): (row: number) => boolean {
  const titles = columns.text("job_title");
  const tests = notion.any.map((clause): ((row: number) => boolean) => {
    if ("tag" in clause) return (row) => columns.tags[row]!.includes(clause.tag);
    if ("title" in clause) {
      const words = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${clause.title})(?![\\p{L}\\p{N}_])`, "iu");
      return (row) => words.test(titles[row] ?? "");
    }
    const values = columns.text(clause.column);
    if ("isNull" in clause) return (row) => values[row] === null;
    const wanted = new Set("eq" in clause ? [clause.eq] : clause.in);
    return (row) => values[row] !== null && wanted.has(values[row]!);
  });
  const any = (row: number) => tests.some((test) => test(row));
  return notion.negate ? (row) => !any(row) : any;
}

function predicateTest(filter: FilterPredicate, value: unknown, columns: FilterColumns): (row: number) => boolean {
  const { column } = filter;
  switch (filter.op) {
    case "eq": {
      const values = columns.text(column);
      if (Array.isArray(value)) {
        const wanted = new Set(value as string[]);
        return (row) => values[row] !== null && wanted.has(values[row]!);
      }
      const wanted = String(value);
      return (row) => values[row] === wanted;
    }
    case "gt":
    case "lt": {
      const values = columns.number(column);
      const bound = value as number;
      number(bound);
      return filter.op === "gt" ? (row) => values[row]! > bound : (row) => values[row]! < bound;
    }
    case "in": {
      const values = columns.text(column);
      const wanted = new Set(value as string[]);
      return (row) => values[row] !== null && wanted.has(values[row]!);
    }
    case "all": {
      const wanted = value as string[];
      return (row) => wanted.every((tag) => columns.tags[row]!.includes(tag));
    }
    case "flag":
      return value ? (row) => columns.tags[row]!.includes(filter.tag) : (row) => !columns.tags[row]!.includes(filter.tag);
    case "near":
      return nearTest(value as NearBound, columns);
    case "salary_at_least":
    case "salary_at_most": {
      const bound = value as SalaryBound;
      const usd = toUsd(bound.amount, bound.currency);
      if (usd === null) throw invalidParameter(`salary_currency must be one of: ${KNOWN_CURRENCIES.join(", ")}`);
      const values = columns.number(column);
      const atLeast = filter.op === "salary_at_least";
      return (row) => {
        const salary = values[row]!;
        if (Number.isNaN(salary)) return bound.includeUnknown === true;
        return atLeast ? salary >= usd : salary <= usd;
      };
    }
  }
}

/** nearPredicate's box and distance, in the same arithmetic. */
function nearTest(bound: NearBound, columns: FilterColumns): (row: number) => boolean {
  const { at, dLat, dLon, radiusKm } = nearBox(bound);
  const lats = columns.number("lat");
  const lons = columns.number("lon");
  return (row) => {
    const lat = lats[row]!;
    const lon = lons[row]!;
    if (!(lat >= at.lat - dLat && lat <= at.lat + dLat && lon >= at.lon - dLon && lon <= at.lon + dLon)) return false;
    return distanceKm(at, { lat, lon }) <= radiusKm;
  };
}

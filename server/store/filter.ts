import { distanceKm } from "../places/gazetteer.ts";
import type { FilterClause, FilterSet, NearArea, NotionTest } from "./filter-set.ts";

/**
 * The only place that writes a LanceDB predicate: each normalised clause (filter-set.ts) as SQL.
 * Every value is a typed number or a quoted string literal, so no filter value can change the
 * predicate's meaning. Returns undefined when there is nothing to filter. It converts and refuses
 * nothing: filterSet did that once, for both engines.
 */
export function buildWhere(set: FilterSet): string | undefined {
  return set.clauses.length === 0 ? undefined : set.clauses.map(clauseSql).join(" AND ");
}

/** The predicate selecting postings by id (for the ingest's look-up of what is already stored). */
export function idIn(ids: string[]): string {
  return ids.length === 0 ? "false" : `id IN (${ids.map(quote).join(", ")})`;
}

/** The predicate selecting the postings of one data source. */
export function sourceIs(source: string): string {
  return source.includes("\u0000") ? "false" : `data_source = ${quote(source)}`;
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

function clauseSql(clause: FilterClause): string {
  switch (clause.kind) {
    case "equals":
      if (clause.values.length === 0) return "false";
      return clause.values.length === 1 ? `${clause.column} = ${quote(clause.values[0]!)}` : `${clause.column} IN (${clause.values.map(quote).join(", ")})`;
    case "compare": {
      const compared = `${clause.column} ${clause.op} ${number(clause.bound)}`;
      return clause.orNull ? `(${compared} OR ${clause.column} IS NULL)` : compared;
    }
    case "tags": {
      const all = clause.all.map((tag) => `array_has(${clause.column}, ${quote(tag)})`).join(" AND ");
      if (!clause.negate) return all;
      return clause.all.length === 1 ? `NOT ${all}` : `NOT (${all})`;
    }
    case "near":
      return nearSql(clause.area);
    case "notion":
      return notionSql(clause.any, clause.negate);
    case "nothing":
      return "false";
  }
}

function notionSql(any: NotionTest[], negate: boolean): string {
  const clauses = any.map((test): string => {
    if ("tag" in test) return `array_has(tag_keys, ${quote(test.tag)})`;
    if ("title" in test) return `regexp_like(coalesce(job_title, ''), ${quote(`(?i)\\b(?:${test.title})\\b`)})`;
    if ("isNull" in test) return `${test.column} IS NULL`;
    if ("eq" in test) return test.eq.includes("\u0000") ? "false" : `${test.column} = ${quote(test.eq)}`;
    return `${test.column} IN (${test.in.map(quote).join(", ")})`;
  });
  if (negate) return `NOT (${clauses.join(" OR ")})`;
  return clauses.length === 1 ? clauses[0]! : `(${clauses.join(" OR ")})`;
}

/**
 * Within a radius of a place: a bounding box the scalar columns can answer quickly, then the exact
 * great-circle distance (haversine via the spherical law of cosines, Earth radius 6,371 km).
 */
function nearSql({ at, dLat, dLon, radiusKm }: NearArea): string {
  const box = `lat BETWEEN ${number(at.lat - dLat)} AND ${number(at.lat + dLat)} AND lon BETWEEN ${number(at.lon - dLon)} AND ${number(at.lon + dLon)}`;
  const cosine = `cos(radians(${number(at.lat)})) * cos(radians(lat)) * cos(radians(lon) - radians(${number(at.lon)})) + sin(radians(${number(at.lat)})) * sin(radians(lat))`;
  return `(${box} AND 6371.0 * acos(least(1.0, ${cosine})) <= ${number(radiusKm)})`;
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
 * The same selection as `buildWhere(set)`, as tests of one row of `columns`, one per clause (a row is
 * selected when every test holds), each with the clause's key; tests/unit/memory/copy.test.ts and
 * tests/hardening/engines-agree.test.ts check the two agree. Building a test costs little; running it
 * is what callers keep (by key).
 */
export function rowTests(set: FilterSet, columns: FilterColumns): Array<{ key: string; test: (row: number) => boolean }> {
  return set.clauses.map((clause) => ({ key: clause.key, test: clauseTest(clause, columns) }));
}

function clauseTest(clause: FilterClause, columns: FilterColumns): (row: number) => boolean {
  switch (clause.kind) {
    case "equals": {
      const values = columns.text(clause.column);
      const wanted = new Set(clause.values);
      return (row) => values[row] !== null && wanted.has(values[row]!);
    }
    case "compare": {
      const values = columns.number(clause.column);
      const { bound, orNull } = clause;
      const holds = COMPARE[clause.op];
      return (row) => (Number.isNaN(values[row]!) ? orNull : holds(values[row]!, bound));
    }
    case "tags": {
      const { all, negate } = clause;
      return (row) => all.every((tag) => columns.tags[row]!.includes(tag)) !== negate;
    }
    case "near":
      return nearTest(clause.area, columns);
    case "notion":
      return notionTest(clause.any, clause.negate, columns);
    case "nothing":
      return () => false;
  }
}

const COMPARE = {
  ">": (a: number, b: number) => a > b,
  "<": (a: number, b: number) => a < b,
  ">=": (a: number, b: number) => a >= b,
  "<=": (a: number, b: number) => a <= b,
};

/** A notion's title fragment (knowledge/notions.json) as whole words of a title, case aside: as the filter reads titles. */
export function titleWords(fragment: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${fragment})(?![\\p{L}\\p{N}_])`, "iu");
}

function notionTest(any: NotionTest[], negate: boolean, columns: FilterColumns): (row: number) => boolean {
  const titles = columns.text("job_title");
  const tests = any.map((test): ((row: number) => boolean) => {
    if ("tag" in test) return (row) => columns.tags[row]!.includes(test.tag);
    if ("title" in test) {
      const words = titleWords(test.title);
      return (row) => words.test(titles[row] ?? "");
    }
    const values = columns.text(test.column);
    if ("isNull" in test) return (row) => values[row] === null;
    const wanted = new Set("eq" in test ? [test.eq] : test.in);
    return (row) => values[row] !== null && wanted.has(values[row]!);
  });
  const matches = (row: number) => tests.some((test) => test(row));
  return negate ? (row) => !matches(row) : matches;
}

/** nearSql's box and distance, in the same arithmetic. */
function nearTest({ at, dLat, dLon, radiusKm }: NearArea, columns: FilterColumns): (row: number) => boolean {
  const lats = columns.number("lat");
  const lons = columns.number("lon");
  return (row) => {
    const lat = lats[row]!;
    const lon = lons[row]!;
    if (!(lat >= at.lat - dLat && lat <= at.lat + dLat && lon >= at.lon - dLon && lon <= at.lon + dLon)) return false;
    return distanceKm(at, { lat, lon }) <= radiusKm;
  };
}

import { invalidParameter, quoteValue } from "../../shared/errors.ts";
import { SEARCH_PARAMS, type FilterPredicate, type NearBound, type ParamSpec, type SalaryBound, type SearchFilters } from "../../shared/search-params.ts";
import { NOTIONS as NOTION_DATA, type NotionClause } from "../knowledge/knowledge.ts";
import { locatePlace, type Coordinates } from "../places/gazetteer.ts";
import { KNOWN_CURRENCIES, toUsd } from "../salary/salary.ts";

/*
 * A search's filters as both engines read them, validated and normalised once before either runs:
 * salary bounds converted to US dollars (and held finite), a place located with its box, times
 * checked finite, every notion read from the words spelled out as its clauses. LanceDB's predicate
 * (filter.ts buildWhere) and the in-memory copy's row tests (filter.ts rowTests) only translate
 * these clauses; neither converts, looks up or refuses anything, so the two cannot answer one
 * request differently (tests/hardening/engines-agree.test.ts holds them to it).
 */

/** One condition a posting must meet; `key` names it (the in-memory copy keeps its rows by key). */
export type FilterClause =
  | { key: string; kind: "equals"; column: string; values: string[] }
  | { key: string; kind: "compare"; column: string; op: ">" | "<" | ">=" | "<="; bound: number; orNull: boolean }
  | { key: string; kind: "tags"; column: string; all: string[]; negate: boolean }
  | { key: string; kind: "near"; area: NearArea }
  | { key: string; kind: "notion"; any: NotionTest[]; negate: boolean }
  /** A value no posting holds (one with NUL): nothing passes. */
  | { key: string; kind: "nothing" };

/** What a notion's clause tests: a tag, a title word (regex fragment), a column's value(s) or its absence. */
export type NotionTest = NotionClause | { column: string; in: string[] };

/** A place's coordinates, the half-sides of the box around it in degrees, and the radius. */
export interface NearArea {
  at: Coordinates;
  dLat: number;
  dLon: number;
  radiusKm: number;
}

/** The normalised filters of one search: every clause must hold (none = every posting). */
export interface FilterSet {
  clauses: FilterClause[];
}

/**
 * The filters a caller gave and those read from the query's words (`inferred`), normalised. Throws
 * INVALID_PARAMETER for a currency without a rate or a place the gazetteer does not know, with the
 * same message whichever engine will answer; a salary whose conversion overflows is held at the
 * largest finite number (no stored salary is above it, so the meaning is kept).
 */
export function filterSet(filters: SearchFilters, inferred: SearchFilters = {}): FilterSet {
  const clauses: FilterClause[] = [];
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[string, ParamSpec<unknown>]>) {
    if (spec.filter === undefined) continue;
    const value = (filters as Record<string, unknown>)[name];
    if (value !== undefined) clauses.push(clause(spec.filter, value, JSON.stringify([name, value])));
    const guess = (inferred as Record<string, unknown>)[name];
    if (guess === undefined) continue;
    const key = JSON.stringify([name, guess, "inferred"]);
    clauses.push(NOTIONS[name] ? { key, kind: "notion", ...NOTIONS[name](guess) } : clause(spec.filter, guess, key));
  }
  return { clauses };
}

/** No filter: every posting. */
export const NO_FILTERS: FilterSet = { clauses: [] };

// --- internal ---

function clause(filter: FilterPredicate, value: unknown, key: string): FilterClause {
  const { column } = filter;
  switch (filter.op) {
    case "eq":
      return { key, kind: "equals", column, values: withoutNul(Array.isArray(value) ? (value as string[]) : [String(value)]) };
    case "in":
      return { key, kind: "equals", column, values: withoutNul(value as string[]) };
    case "gt":
    case "lt":
      return { key, kind: "compare", column, op: filter.op === "gt" ? ">" : "<", bound: finite(value as number), orNull: false };
    case "all": {
      const all = value as string[];
      return all.some((tag) => tag.includes("\u0000")) ? { key, kind: "nothing" } : { key, kind: "tags", column, all, negate: false };
    }
    case "flag":
      return { key, kind: "tags", column, all: [filter.tag], negate: !value };
    case "near":
      return { key, kind: "near", area: nearArea(value as NearBound) };
    case "salary_at_least":
    case "salary_at_most": {
      const bound = value as SalaryBound;
      const usd = toUsd(bound.amount, bound.currency);
      if (usd === null) throw invalidParameter(`salary_currency must be one of: ${KNOWN_CURRENCIES.join(", ")}`);
      const held = Math.min(usd, Number.MAX_VALUE);
      return { key, kind: "compare", column, op: filter.op === "salary_at_least" ? ">=" : "<=", bound: held, orNull: bound.includeUnknown };
    }
  }
}

/** No stored value holds NUL (ingest removes it), so a value with NUL matches nothing rather than something trimmed. */
function withoutNul(values: string[]): string[] {
  return values.filter((value) => !value.includes("\u0000"));
}

/** Within a radius of a place: the box the scalar columns answer quickly, then the exact distance. */
function nearArea({ place, radiusKm }: NearBound): NearArea {
  const at = locatePlace(place);
  if (!at) throw invalidParameter(`near: no place called ${quoteValue(place)} is known (try "City", "City, ST" for a US state or "City, CC" for a country)`);
  const dLat = radiusKm / 111;
  const dLon = radiusKm / (111 * Math.max(0.01, Math.cos((at.lat * Math.PI) / 180)));
  return { at, dLat, dLon, radiusKm };
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return value;
}

/**
 * What a filter read from the query's words means: every field that carries the notion, since most
 * postings leave seniority and employment type unset and say it in the title or tags instead. An
 * internship is employment type INTERN, seniority intern, the tag or the word in the title; "remote"
 * the tag or the title; "full-time" also a posting that states no employment type. Declared as data
 * (the knowledge base's notions.json): a boolean notion is its clauses, negated for false; a "values"
 * one is its column holding one of the values, then each value's clauses in the order of the values.
 */
const NOTIONS: Record<string, (value: unknown) => { any: NotionTest[]; negate: boolean }> = Object.fromEntries(
  Object.entries(NOTION_DATA).map(([name, notion]): [string, (value: unknown) => { any: NotionTest[]; negate: boolean }] => {
    if (notion.kind === "boolean") return [name, (value) => ({ any: notion.any, negate: !value })];
    const byValue = new Map(Object.entries(notion.values));
    return [name, (value) => ({ any: [{ column: notion.column, in: value as string[] }, ...(value as string[]).flatMap((v) => byValue.get(v) ?? [])], negate: false })];
  }),
);

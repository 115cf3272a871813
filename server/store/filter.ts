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
export function buildWhere(filters: SearchFilters): string | undefined {
  const clauses: string[] = [];
  for (const [name, spec] of Object.entries(SEARCH_PARAMS) as Array<[string, ParamSpec<unknown>]>) {
    const value = (filters as Record<string, unknown>)[name];
    if (value === undefined || spec.filter === undefined) continue;
    clauses.push(predicate(spec.filter, value));
  }
  return clauses.length === 0 ? undefined : clauses.join(" AND ");
}

/** The predicate selecting postings by id (for the ingest's look-up of what is already stored). */
export function idIn(ids: string[]): string {
  return ids.length === 0 ? "false" : `id IN (${ids.map(quote).join(", ")})`;
}

/** A SQL string literal: single quotes doubled (standard SQL has no backslash escapes). */
export function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

// --- internal ---

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

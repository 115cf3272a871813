import type { SearchFilters } from "../../shared/search.ts";

/**
 * The only place that writes a LanceDB predicate. Every value is a typed number or a quoted
 * string literal, so no filter value can change the predicate's meaning. Returns undefined
 * when there is nothing to filter.
 */
export function buildWhere(filters: SearchFilters): string | undefined {
  const clauses: string[] = [];
  if (filters.city !== undefined) clauses.push(equals("city", filters.city));
  if (filters.country !== undefined) clauses.push(equals("country", filters.country));
  if (filters.source !== undefined) clauses.push(equals("data_source", filters.source));
  if (filters.since !== undefined) clauses.push(`publish_ts > ${number(filters.since)}`);
  if (filters.until !== undefined) clauses.push(`publish_ts < ${number(filters.until)}`);
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

/** No stored value holds NUL (ingest removes it), so a value with NUL matches nothing rather than something trimmed. */
function equals(column: string, value: string): string {
  return value.includes("\u0000") ? "false" : `${column} = ${quote(value)}`;
}

function number(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

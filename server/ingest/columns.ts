import { quoteValue } from "../../shared/errors.ts";
import { formatDateTime } from "../../shared/time.ts";
import type { RowMapper } from "./csv.ts";
import { countryCode } from "../places/countries.ts";
import { parseLocation } from "../places/location.ts";

/**
 * A generic CSV: which column fills which posting field. By default a column named like a field
 * (`job_title`, `city`, …) fills it; `--map field=column` names another column. `location` is not a
 * field but fills city and country from text like "Austin, TX" (see parseLocation).
 */

/** The fields `--map` can fill: every posting field, and `location`. */
export const MAPPABLE_FIELDS = [
  "id", "job_title", "company_name", "city", "country", "publish_time", "base_salary", "job_url", "job_tags",
  "data_source", "seniority_level", "employment_type", "job_description", "location",
] as const;

export type MappableField = (typeof MAPPABLE_FIELDS)[number];

/** field → column name. */
export type ColumnMap = Partial<Record<MappableField, string>>;

/** Fields a posting cannot do without: a CSV with no column for one of them is refused at once. */
const REQUIRED_FIELDS: MappableField[] = ["job_url", "publish_time", "data_source", "job_description"];

/** Parses `--map` values (`field=column`, the column name taken as written after the first `=`); throws for a bad one. */
export function parseColumnMap(entries: string[]): ColumnMap {
  const map: ColumnMap = {};
  for (const entry of entries) {
    const at = entry.indexOf("=");
    const field = entry.slice(0, at).trim();
    const column = entry.slice(at + 1).trim();
    if (at < 0 || field === "" || column === "") throw new Error(`--map takes field=column, not ${quoteValue(entry)}`);
    if (!(MAPPABLE_FIELDS as readonly string[]).includes(field)) {
      throw new Error(`--map: unknown field ${quoteValue(field)} (fields: ${MAPPABLE_FIELDS.join(", ")})`);
    }
    map[field as MappableField] = column;
  }
  return map;
}

/**
 * The row mapper for a generic CSV's header: columns named like fields, overridden by `map`.
 * Throws when a mapped column is not in the header or a required field has no column.
 */
export function genericMapper(map: ColumnMap): (columns: string[]) => RowMapper {
  return (columns) => {
    const resolved = resolveColumns(map, columns);
    const missing = REQUIRED_FIELDS.filter((field) => resolved[field] === undefined);
    if (missing.length > 0) {
      throw new Error(
        `no column for ${missing.join(", ")}: name columns like the fields or give --map ${missing[0]}=COLUMN ` +
          `(the header has ${columns.join(", ") || "nothing"})`,
      );
    }
    return (row) => ({ value: mapRow(row, resolved) });
  };
}

/**
 * `YYYY-MM-DD` becomes `YYYY-MM-DD 00:00:00`; ISO 8601 (`2024-01-15T09:30:00Z`, `…+02:00`) is
 * converted to UTC; anything else is returned as it is, for validation to name.
 */
export function normalizeDateTime(raw: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return `${raw} 00:00:00`;
  const iso = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(raw);
  if (!iso) return raw;
  const [, date, minutes, seconds = ":00", , zone] = iso;
  if (zone === undefined) return `${date} ${minutes}${seconds}`;
  const ms = Date.parse(`${date}T${minutes}${seconds}${zone}`);
  return Number.isNaN(ms) ? raw : formatDateTime(ms / 1000);
}

// --- internal ---

function resolveColumns(map: ColumnMap, columns: string[]): ColumnMap {
  const resolved: ColumnMap = {};
  for (const field of MAPPABLE_FIELDS) if (columns.includes(field)) resolved[field] = field;
  for (const [field, wanted] of Object.entries(map) as [MappableField, string][]) {
    const exact = columns.find((column) => column === wanted);
    const loose = columns.filter((column) => column.toLowerCase() === wanted.toLowerCase());
    const column = exact ?? (loose.length === 1 ? loose[0] : undefined);
    if (column === undefined) throw new Error(`--map ${field}=${wanted}: no such column (the header has ${columns.join(", ")})`);
    resolved[field] = column;
  }
  return resolved;
}

function mapRow(row: Record<string, string>, columns: ColumnMap): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  const cell = (field: MappableField) => {
    const column = columns[field];
    const text = column === undefined ? "" : row[column]!.trim();
    return text === "" ? undefined : text;
  };
  for (const field of MAPPABLE_FIELDS) {
    const text = cell(field);
    if (text === undefined || field === "location") continue;
    if (field === "country") value.country = /^[A-Za-z]{2}$/.test(text) ? text.toUpperCase() : countryCode(text) ?? text;
    else if (field === "publish_time") value.publish_time = normalizeDateTime(text);
    else if (field === "job_tags") value.job_tags = splitTags(text);
    else value[field] = text;
  }
  const location = cell("location");
  if (location !== undefined) {
    const parsed = parseLocation(location);
    if (value.city === undefined && parsed.city !== undefined) value.city = parsed.city;
    if (value.country === undefined && parsed.country !== undefined) value.country = parsed.country;
    if (parsed.remote) value.job_tags = uniqueTags([...((value.job_tags as string[] | undefined) ?? []), "remote"]);
  }
  return value;
}

/** "Python, Go; remote" → ["Python", "Go", "remote"]: split on commas and semicolons, repeats dropped. */
function splitTags(text: string): string[] {
  return uniqueTags(text.split(/[,;]/).map((tag) => tag.trim()).filter((tag) => tag !== ""));
}

/** Keeps the first of tags that differ only in case. */
function uniqueTags(tags: string[]): string[] {
  return tags.filter((tag, i) => tags.findIndex((other) => other.toLowerCase() === tag.toLowerCase()) === i);
}

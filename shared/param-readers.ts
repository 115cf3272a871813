import { AppError, invalidParameter, quoteValue } from "./errors.ts";
import { COUNTRY_PATTERN } from "./job.ts";
import { parseDateTime } from "./time.ts";

/*
 * How each kind of search parameter is read from a raw request, with the messages the spec and the
 * README give. The declarations in search-params.ts pick one per parameter.
 */

export const QUERY_MAX_LENGTH = 1000;
export const FILTER_MAX_LENGTH = 256;
/** Most values one list filter takes. */
export const LIST_MAX_ITEMS = 20;
/** Most values a place filter (city, country) takes as a list: every country fits, and a region read from q does. */
export const PLACE_LIST_MAX_ITEMS = 300;

/** Where a request comes in: REST GET (a query string: numbers and booleans as text), REST POST, or MCP. */
export type Interface = "get" | "post" | "mcp";

/** The near filter's value: a place a person names and the radius around it. */
export interface NearBound {
  place: string;
  radiusKm: number;
}

/** Default radius of `near` when `radius_km` is not given. */
export const NEAR_RADIUS_KM_DEFAULT = 25;

/** A place with radius_km read beside it (a radius alone says nothing). */
export function readNear(raw: Record<string, unknown>, name: string, via: Interface): NearBound | undefined {
  const place = readText(raw, name);
  if (place === undefined) return undefined;
  const radiusKm = readNumber(raw, "radius_km", via) ?? NEAR_RADIUS_KM_DEFAULT;
  if (!(radiusKm > 0 && radiusKm <= 20_000)) throw invalidParameter("radius_km must be a number above 0 and at most 20000");
  return { place, radiusKm };
}

/** A salary filter's value: an annual amount in a currency, and whether postings without a salary pass too. */
export interface SalaryBound {
  amount: number;
  currency: string;
  includeUnknown: boolean;
}

export function readQuery(raw: Record<string, unknown>, name: string): string {
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
export function readText(raw: Record<string, unknown>, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalidParameter(`${name} must be a string`);
  if (!value.isWellFormed()) throw invalidParameter(`${name} must be valid Unicode text`);
  if (value.length > FILTER_MAX_LENGTH) throw invalidParameter(`${name} must be at most ${FILTER_MAX_LENGTH} characters`);
  return value;
}

export function readCountry(raw: Record<string, unknown>, name: string): string | undefined {
  const value = readText(raw, name);
  if (value !== undefined && !COUNTRY_PATTERN.test(value)) {
    throw invalidParameter(`${name} must be two uppercase letters (ISO 3166-1 alpha-2), e.g. US`);
  }
  return value;
}

export function readTime(raw: Record<string, unknown>, name: string): number | undefined {
  const value = readText(raw, name);
  if (value === undefined) return undefined;
  const seconds = parseDateTime(value);
  if (seconds === undefined) throw invalidParameter(`${name} must be a valid date, YYYY-MM-DD or YYYY-MM-DD HH:MM:SS`);
  return seconds;
}

/** An ISO 4217 code: three uppercase letters (whether rates exist for it is the server's to say). */
export function readCurrency(raw: Record<string, unknown>, name: string): string | undefined {
  const value = readText(raw, name)?.toUpperCase();
  if (value !== undefined && !/^[A-Z]{3}$/.test(value)) throw invalidParameter(`${name} must be a three-letter currency code, e.g. USD, EUR, GBP`);
  return value;
}

/** A salary bound with the currency and include_unknown_salary read beside it. */
export function readSalary(raw: Record<string, unknown>, name: string, via: Interface): SalaryBound | undefined {
  const amount = readNumber(raw, name, via);
  if (amount === undefined) return undefined;
  if (amount < 0) throw invalidParameter(`${name} must be a number >= 0`);
  const currency = readCurrency(raw, "salary_currency") ?? "USD";
  return { amount, currency, includeUnknown: readBoolean(raw, "include_unknown_salary", via) ?? false };
}

/** A list: an array of strings (POST, MCP) or a comma-separated string (GET); empty means absent. */
export function readList(raw: Record<string, unknown>, name: string, via: Interface): string[] | undefined {
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

/**
 * One value, read by `readOne` with its own messages, or (an extension of the spec) a list of such
 * values: an array on POST and MCP, the parameter repeated on GET (`?city=Berlin&city=Munich`). A
 * list of one reads as that value, an empty one as absent; repeated values count once.
 */
export function readOneOrMore(
  raw: Record<string, unknown>, name: string, max: number, readOne: (raw: Record<string, unknown>, name: string) => string | undefined,
): string | string[] | undefined {
  const value = raw[name];
  if (!Array.isArray(value)) return readOne(raw, name);
  if (value.length > max) throw invalidParameter(`${name} takes at most ${max} values`);
  const items = new Set<string>();
  for (const item of value) {
    if (typeof item !== "string") throw invalidParameter(`${name} must be a string or an array of strings`);
    const read = readOne({ [name]: item }, name);
    if (read !== undefined) items.add(read);
  }
  return items.size <= 1 ? [...items][0] : [...items];
}

/** A list of known values (compared after `normalize`); an unknown one is refused with the valid ones. */
export function readChoices<T extends string>(
  raw: Record<string, unknown>, name: string, via: Interface, choices: readonly T[], normalize: (value: string) => string,
): T[] | undefined {
  const values = readList(raw, name, via)?.map(normalize);
  const unknown = values?.find((value) => !(choices as readonly string[]).includes(value));
  if (unknown !== undefined) throw invalidParameter(`${name} must be one or more of: ${choices.join(", ")} (not ${quoteValue(unknown)})`);
  return values as T[] | undefined;
}

export function readChoice<T extends string>(raw: Record<string, unknown>, name: string, choices: readonly T[]): T | undefined {
  const value = readText(raw, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw invalidParameter(`${name} must be one of: ${choices.join(", ")}`);
  return value as T;
}

export function readBoolean(raw: Record<string, unknown>, name: string, via: Interface): boolean | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "boolean") return value;
  if (via === "get" && (value === "true" || value === "false")) return value === "true";
  throw invalidParameter(`${name} must be true or false`);
}

export function readNumber(raw: Record<string, unknown>, name: string, via: Interface): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed =
    typeof value === "number" ? value
    : via === "get" && typeof value === "string" && /^[+-]?(\d+\.?\d*|\.\d+)$/.test(value.trim()) ? Number(value)
    : Number.NaN;
  if (!Number.isFinite(parsed)) throw invalidParameter(`${name} must be a number`);
  return parsed;
}

export function readInteger(raw: Record<string, unknown>, name: string, via: Interface): number | undefined {
  const value = raw[name];
  if (value === undefined || value === null || value === "") return undefined;
  const parsed =
    typeof value === "number" ? value
    : via === "get" && typeof value === "string" && /^[+-]?\d+$/.test(value.trim()) ? Number(value)
    : Number.NaN;
  if (!Number.isInteger(parsed)) throw invalidParameter(`${name} must be an integer`);
  return parsed;
}

/*
 * The line a person reads about what the search understood of their words, the same on the web page
 * and in the CLI: "Showing remote senior jobs in Toronto, posted 2016-01-01 to 2016-12-31, for “python”".
 * Self-contained (a type import only, erased when served): the web page loads it as JavaScript,
 * transpiled when served.
 */
import type { QueryEcho } from "./search.ts";

/** The line, or undefined when the words were searched as typed (nothing read as a filter, nothing corrected). */
export function understoodLine(understood: QueryEcho): string | undefined {
  const f = understood.applied_filters;
  if (Object.keys(f).length === 0 && understood.corrected === null) return undefined;
  const kinds: string[] = [];
  if (f.remote === true) kinds.push("remote");
  if (f.remote === false) kinds.push("on-site");
  for (const level of list(f.seniority)) kinds.push(level);
  for (const type of list(f.employment_type)) kinds.push(EMPLOYMENT[type] ?? type.toLowerCase());
  let line = `Showing ${[...kinds, "jobs"].join(" ")}`;
  const cities = oneOrMore(f.city);
  if (cities.length > 0) line += ` in ${anyOf(cities, "cities")}`;
  const countries = oneOrMore(f.country).map(countryName);
  if (countries.length > 0) line += ` in ${anyOf(countries, "countries")}`;
  if (list(f.tags).includes("visa-sponsorship")) line += " with visa sponsorship";
  const period = posted(f.since, f.until);
  if (period) line += `, ${period},`;
  line += ` for “${understood.text}”`;
  return line;
}

// --- internal ---

const EMPLOYMENT: Record<string, string> = {
  FULL_TIME: "full-time", PART_TIME: "part-time", CONTRACTOR: "contract", INTERN: "internship", TEMPORARY: "temporary",
};

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** A place filter's value, one or a list (city, country). */
function oneOrMore(value: unknown): string[] {
  return typeof value === "string" ? [value] : list(value);
}

/** "Seattle or Portland", "Berlin, Munich or Hamburg"; a long list (a region's cities) names its first few. */
function anyOf(names: string[], kind: string): string {
  const shown = names.length > ANY_OF_SHOWN + 1 ? [...names.slice(0, ANY_OF_SHOWN), `${names.length - ANY_OF_SHOWN} other ${kind}`] : names;
  return shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(", ")} or ${shown.at(-1)}`;
}

const ANY_OF_SHOWN = 5;

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** since is exclusive (the second before the first day), until exclusive (the day after the last). */
function posted(since: unknown, until: unknown): string | undefined {
  const first = typeof since === "string" ? shiftDay(since.slice(0, 10), since.length > 10 ? 1 : 0) : undefined;
  const last = typeof until === "string" ? shiftDay(until.slice(0, 10), -1) : undefined;
  if (first && last) return `posted ${first} to ${last}`;
  if (first) return `posted since ${first}`;
  if (last) return `posted until ${last}`;
  return undefined;
}

function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

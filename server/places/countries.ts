import { COUNTRIES, US_STATES as STATES, type Country } from "../knowledge/knowledge.ts";
import { nameKey } from "./names.ts";

/*
 * Countries and US states by name: ISO 3166-1 alpha-2 codes with CLDR's English short names, the
 * other names people and job boards use, and the 50 states and DC (the knowledge base's places.json,
 * COUNTRIES and US_STATES). The one table of countries: a posting's location at load and a country
 * named in a query both resolve here.
 */

/**
 * The country code for a name ("Germany", "united states", "Türkiye"), an alias ("USA", "UK",
 * "England", "Czech Republic") or an uppercase alpha-2 code ("DE"); undefined when unknown.
 * Lowercase two-letter words are not codes ("in", "me"); "us" and "uk" are aliases all the same.
 */
export function countryCode(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Z]{2}$/.test(trimmed) && CODES.has(trimmed)) return trimmed;
  return BY_NAME.get(countryKey(trimmed));
}

/** The two-letter abbreviation of a US state (or DC) given by abbreviation ("CA") or name ("California"). */
export function usState(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[A-Z]{2}$/.test(trimmed)) return US_STATES.has(trimmed) ? trimmed : undefined;
  return STATE_BY_NAME.get(countryKey(trimmed));
}

/** Every country code with its English name and other names (the name first), in places.json's order (or that of `countries`, a loaded copy's). */
export function countryNames(countries: readonly Country[] = COUNTRIES): Array<[code: string, names: string[]]> {
  return countries.map(({ code, name, aliases }) => [code, [name, ...aliases]]);
}

/**
 * Every name and alias → its country, for `countries` (places.json's, or a loaded copy's). Throws at
 * start when a name means two countries as names are compared here (accents, dots, "the", "saint" aside).
 */
export function countryLookup(countries: readonly Country[] = COUNTRIES): Map<string, string> {
  const byName = new Map<string, string>();
  const add = (text: string, code: string) => {
    const key = countryKey(text);
    const prior = byName.get(key);
    if (prior !== undefined && prior !== code) throw new Error(`places.json: "${text}" (${code}) is also a name of ${prior}, compared as "${key}"`);
    byName.set(key, code);
  };
  for (const { code, name } of countries) add(name, code);
  for (const { code, aliases } of countries) for (const alias of aliases) add(alias, code);
  return byName;
}

// --- internal ---

/** A name's key for these tables: "The Gambia" is Gambia and "Saint Lucia" St. Lucia, however written. */
function countryKey(text: string): string {
  return nameKey(text).replace(/^the /, "").replace(/\bsaint\b/g, "st");
}

const CODES = new Set(COUNTRIES.map(({ code }) => code));

const BY_NAME = countryLookup();

/** The 50 states and the District of Columbia. */
const US_STATES = new Map<string, string>(STATES.map(({ code, name }) => [code, name]));

const STATE_BY_NAME = new Map<string, string>([...US_STATES].map(([code, name]) => [countryKey(name), code]));
for (const name of ["dc", "washington dc"]) STATE_BY_NAME.set(name, "DC");

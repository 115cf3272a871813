import { countryCode, usState } from "./countries.ts";

/**
 * A posting's location text → its fields: `parseLocation` for the free-text locations job boards
 * print ("San Francisco, CA, US", "Berlin, Germany", "Remote"); countries and US states by countries.ts.
 */

export interface ParsedLocation {
  city?: string;
  /** ISO 3166-1 alpha-2, uppercase. */
  country?: string;
  /** The text said the job is remote ("Remote", "Anywhere", "(Remote)"). */
  remote: boolean;
}

/**
 * Splits a board's location text into city, country and a remote flag, reading its comma-separated
 * parts from the end:
 * - "Remote", "Anywhere", "Worldwide", "Work from home" parts and a "(Remote)" suffix set `remote`;
 * - with two parts, the last one is a US state first ("Sacramento, CA", "Dover, DE", "Atlanta, Georgia"
 *   are in the US), and so is a lone state abbreviation ("CA"); otherwise the last part is a country
 *   when it is a country name, an alias or an uppercase two-letter code ("Berlin, Germany",
 *   "Toronto, ON, CA"), or the US when it is a US state ("Texas");
 * - of what is left, the first part is the city and the rest (a state, province or county) is dropped,
 *   unless all that is left is a US state ("Texas, United States" has no city).
 */
export function parseLocation(text: string | undefined | null): ParsedLocation {
  let remote = false;
  const parts: string[] = [];
  for (let part of (text ?? "").split(",")) {
    part = part.replace(/\s*\((remote|hybrid|on-?site)\)\s*$/i, (_, kind: string) => {
      if (kind.toLowerCase() === "remote") remote = true;
      return "";
    }).trim();
    if (part === "") continue;
    if (REMOTE_WORDS.test(part)) remote = true;
    else parts.push(part);
  }
  if (parts.length === 0) return { remote };

  const last = parts[parts.length - 1]!;
  const stateFirst = parts.length === 2 || (parts.length === 1 && /^[A-Z]{2}$/.test(last));
  const lastIsState = usState(last) !== undefined && (stateFirst || countryCode(last) === undefined);
  const country = lastIsState ? "US" : countryCode(last);
  if (country !== undefined) parts.pop();
  // "Texas, United States": all that is left before the country is a state, not a city.
  const onlyAState = !lastIsState && parts.length === 1 && country === "US" && usState(parts[0]!) !== undefined;
  const city = onlyAState ? undefined : parts[0];
  return { ...(city !== undefined ? { city } : {}), ...(country !== undefined ? { country } : {}), remote };
}

// --- internal ---

const REMOTE_WORDS = /^(remote|anywhere|worldwide|work from home|wfh)$/i;

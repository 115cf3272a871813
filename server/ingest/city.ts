import type { ValidJobRecord } from "../../shared/job.ts";

/*
 * The city field as the postings fill it holds street addresses too ("88 Stevenson St", "1455 Market
 * St #600", "Louis Street") and postal codes before a city ("00100 Helsinki"). A load keeps the city
 * and drops the rest: a postal code is cut off, an address leaves the city empty, and the summary
 * counts them. Real places named like streets ("Kennett Square") stay.
 */

/** Cleans the record's city in place; true when it changed. */
export function cleanRecordCity(record: ValidJobRecord): boolean {
  const { city, cleaned } = cleanCity(record.city);
  if (cleaned) record.city = city;
  return cleaned;
}

/** The city value to store, and whether it differs from the one given. */
export function cleanCity(city: string | null | undefined): { city: string | null | undefined; cleaned: boolean } {
  if (!city) return { city, cleaned: false };
  const postal = POSTAL_CODE.exec(city);
  if (postal) return { city: postal[1]!, cleaned: true };
  if (HOUSE_NUMBER.test(city) || SUITE.test(city) || STREET.test(city)) return { city: null, cleaned: true };
  return { city, cleaned: false };
}

// --- internal ---

/** "00100 Helsinki", "88131 Lindau": a postal code, then the city. */
const POSTAL_CODE = /^\d{4,6}\s+(\p{L}[\p{L}' -]*)$/u;
/** "904 Lakeside Dr", "12 bis Rue Kepler": a house number, then words. */
const HOUSE_NUMBER = /^\d+[A-Za-z]?\s+\p{L}/u;
/** "… #600", "… Suite 200". */
const SUITE = /#\s*\d|\bsuite\s+\d/i;
/** "Louis Street", "N Chicago St", "Lausanne Rd", "Glasgow Drive". */
const STREET = /\s(?:st|street|ave|avenue|blvd|boulevard|rd|road|dr|drive|ln|lane|cir)\.?$/i;

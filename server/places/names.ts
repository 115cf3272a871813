/*
 * How place names are compared, the same for a posting's city at load, a place typed in a query, a
 * `near` place and a list_cities prefix: accents, case, dots, apostrophes and spacing aside, "&" as
 * "and" ("Zürich " → "zurich", "St. Louis" → "st louis", "Bosnia & Herzegovina" → "bosnia and herzegovina").
 */
export function nameKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[.'’]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Short forms people type for cities of the data, by the data's name. */
export const CITY_ALIASES: Record<string, string[]> = {
  "San Francisco": ["sf", "san fran", "san francisco bay area", "sf bay area"],
  "New York": ["nyc", "new york city", "ny", "manhattan"],
  "Los Angeles": ["la", "l.a."],
  Washington: ["dc", "washington dc", "washington d.c.", "d.c."],
  Bengaluru: ["bangalore"],
  Munich: ["munchen", "münchen"],
  Mumbai: ["bombay"],
  "Tel Aviv": ["tel aviv-yafo", "tlv"],
  Philadelphia: ["philly"],
};

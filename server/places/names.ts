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

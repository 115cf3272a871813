import { CITY_ALIASES, CJK_CITY_NAMES, COUNTRIES, type Knowledge } from "../knowledge/knowledge.ts";
import { countryNames } from "./countries.ts";
import { nameWords } from "../text/words.ts";
import { nameKey } from "./names.ts";

/*
 * Cities and countries named in a query. Cities are those of the data, by their own name, an
 * English name of a city stored in another script ("Hangzhou" → 杭州) or a common short form ("SF",
 * "NYC"); countries by their English name or another name (countries.ts: "USA", "UK"); all of them
 * from the knowledge base's places.json. A place after "in", "at", "near", "around" or "based in" is
 * read surely; a place alone only when it cannot be a word of the job: several words, or one that the
 * postings use about as often as they name the place ("London" yes; "Mobile", "Reading" no).
 */

/** What the data says of its places (the store's facets): each city's postings and main country, and which cities the gazetteer placed. */
export interface DataPlaces {
  cityCounts: Array<{ city: string; country: string | null; postings: number }>;
  located: Set<string>;
}

/** A place named in a query: where its words are (the lead "in", "near" … included) and the filter it means. */
export interface PlaceFinding {
  start: number;
  end: number;
  phrase: string;
  filters: Record<string, unknown>;
  /** Read surely: after a lead word, several words, or a name that cannot be a word of the job. */
  confident: boolean;
}

export interface PlaceIndex {
  /** Places by their folded name (lowercase, no accents), with the filter each means. */
  names: Map<string, Place>;
  longest: number;
}

interface Place {
  filters: { city: string } | { country: string };
  /** Postings there, to judge a lone one-word name (see `find`). */
  postings: number;
}

/** The names of places the knowledge base gives (places.json): the default folder's, or a loaded copy's. */
export type PlaceNames = Pick<Knowledge, "COUNTRIES" | "CITY_ALIASES" | "CJK_CITY_NAMES">;

/**
 * The places of the data, named as `names` says (cached per facets object for the default knowledge:
 * recomputed only when the table changed).
 */
export function placeIndex(facets: DataPlaces, names: PlaceNames = KNOWLEDGE_NAMES): PlaceIndex {
  if (names !== KNOWLEDGE_NAMES) return build(facets, names);
  let index = INDEXES.get(facets);
  if (index === undefined) INDEXES.set(facets, (index = build(facets, names)));
  return index;
}

/**
 * The places named in `text`. `wordDocs` says in how many postings a word occurs (term statistics),
 * `isJobWord` whether it is a word of an occupation in the knowledge base.
 */
export function findPlaces(text: string, index: PlaceIndex, wordDocs: (word: string) => number, isJobWord: (word: string) => boolean): PlaceFinding[] {
  const words = nameWords(text).map(({ word, start, end }) => ({ start, end, key: nameKey(word) }));
  const found: PlaceFinding[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(index.longest, words.length - i); n >= 1; n--) {
      const name = words.slice(i, i + n).map((w) => w.key).join(" ");
      const place = index.names.get(name);
      if (place === undefined) continue;
      const last = words[i + n - 1]!;
      const before = text.slice(0, words[i]!.start);
      const lead = LEAD.exec(before);
      const start = lead ? before.length - lead[0].length : words[i]!.start;
      const confident = lead !== null || n > 1 || alone(name, place, wordDocs, isJobWord);
      found.push({ start, end: last.end, phrase: text.slice(start, last.end).trim(), filters: place.filters, confident });
      i += n - 1;
      break;
    }
  }
  return found;
}

// --- internal ---

const KNOWLEDGE_NAMES: PlaceNames = { COUNTRIES, CITY_ALIASES, CJK_CITY_NAMES };
const INDEXES = new WeakMap<DataPlaces, PlaceIndex>();
/** Words that put a place after them; "the" as in "in the Netherlands". */
const LEAD = /\b(?:(?:jobs?|roles?|positions?|based|located|work(?:ing)?|live|living|relocate|relocating)\s+)?(?:in|at|near|around|within|to)\s+(?:the\s+)?$/i;

/** A lone one-word city needs this many postings, and postings that use its word at most this many times more. */
const ALONE_MIN_POSTINGS = 5;
const ALONE_WORD_RATIO = 4;
/** Two-letter names that mean the place even alone ("ios developer sf"); "us", "la" and "ny" need an "in". */
const SAFE_SHORT = new Set(["sf", "uk"]);

function build(facets: DataPlaces, known: PlaceNames): PlaceIndex {
  const names = new Map<string, Place>();
  /** One place per name: a city before a country, else the one with more postings. */
  const add = (name: string, place: Place) => {
    const k = nameKey(name);
    const prior = names.get(k);
    if (prior && "city" in prior.filters && "country" in place.filters) return;
    if (!prior || prior.postings < place.postings || ("city" in place.filters && "country" in prior.filters)) names.set(k, place);
  };
  const byCountry = new Map<string, number>();
  for (const { city, country, postings } of facets.cityCounts) {
    if (country) byCountry.set(country, (byCountry.get(country) ?? 0) + postings);
    // Postings put other things in the city field too ("Data Scientist", "Germany"): only a city the gazetteer placed at load is one.
    if (!facets.located.has(city) && !known.CITY_ALIASES[city]) continue;
    const place = { filters: { city }, postings };
    add(city, place);
    const english = known.CJK_CITY_NAMES[city];
    if (english) add(english, place);
    for (const alias of known.CITY_ALIASES[city] ?? []) add(alias, place);
  }
  for (const [code, aliases] of countryNames(known.COUNTRIES)) {
    const place = { filters: { country: code }, postings: byCountry.get(code) ?? 0 };
    // A city of the data keeps its name ("Singapore", "Hong Kong" are both).
    for (const name of aliases) add(name, place);
  }
  const longest = Math.max(1, ...[...names.keys()].map((k) => k.split(" ").length));
  return { names, longest: Math.min(longest, 5) };
}

function alone(name: string, place: Place, wordDocs: (word: string) => number, isJobWord: (word: string) => boolean): boolean {
  if (isJobWord(name) || (name.length < 3 && !SAFE_SHORT.has(name))) return false;
  if (place.postings < ALONE_MIN_POSTINGS) return false;
  return wordDocs(name) <= ALONE_WORD_RATIO * place.postings + 50;
}


import { CITY_ALIASES, CJK_CITY_NAMES, COUNTRIES, REGIONS, US_STATES, type Knowledge, type Region } from "../knowledge/knowledge.ts";
import { countryNames } from "./countries.ts";
import { hasCjk } from "../text/fold.ts";
import { nameWords, writtenWords } from "../text/words.ts";
import { nameKey } from "./names.ts";

/*
 * The places a query may name, by name, for one table's data: its cities (by their own name, an
 * English name of a city stored in Chinese, a short form), the countries, the regions of the knowledge
 * base and every US state, from places.json. One place per name (see `wins`). in-query.ts finds them in q.
 */

/** What the data says of its places (the store's facets): each city's postings and main country, and which cities the gazetteer placed. */
export interface DataPlaces {
  cityCounts: Array<{ city: string; country: string | null; postings: number }>;
  located: Set<string>;
}

export interface PlaceIndex {
  /** Places by their folded name (lowercase, no accents, words between spaces), with the filter each means. */
  names: Map<string, Place>;
  longest: number;
  /** The US states' two-letter codes, which qualify a US city after it. */
  states: Set<string>;
  /** Data cities written in CJK characters, by every CJK name (the data's, longest first). */
  cjk: Array<[name: string, place: Place]>;
  facets: DataPlaces;
}

/** A place a name means: a city of the data, a country, or a region (regions.ts makes it the data's cities or countries). */
export type Place =
  | { kind: "city"; city: string; country: string | null; postings: number }
  | { kind: "country"; country: string; postings: number }
  | { kind: "region"; region: Region };

/** The names of places the knowledge base gives (places.json): the default folder's, or a loaded copy's. */
export type PlaceNames = Pick<Knowledge, "COUNTRIES" | "US_STATES" | "CITY_ALIASES" | "CJK_CITY_NAMES" | "REGIONS">;

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

/** The words of every place name the knowledge base gives (countries, states, regions, short forms), as written, lowercase: never misspellings. */
export function placeWords(names: PlaceNames = KNOWLEDGE_NAMES): Set<string> {
  const all = [
    ...countryNames(names.COUNTRIES).flatMap(([, aliases]) => aliases),
    ...names.US_STATES.map(({ name }) => name),
    ...names.REGIONS.flatMap(({ name, aliases }) => [name, ...aliases]),
    ...Object.values(names.CITY_ALIASES).flat(),
    ...Object.values(names.CJK_CITY_NAMES),
  ];
  return new Set(all.flatMap(writtenWords));
}

// --- internal ---

/** A name's key as query words make it: nameKey's, its words joined by one space ("Asia-Pacific" → "asia pacific"). */
function indexKey(name: string): string {
  return nameWords(nameKey(name)).map(({ word }) => word).join(" ");
}

const KNOWLEDGE_NAMES: PlaceNames = { COUNTRIES, US_STATES, CITY_ALIASES, CJK_CITY_NAMES, REGIONS };
const INDEXES = new WeakMap<DataPlaces, PlaceIndex>();
/** A city with fewer postings than this gives its name up to a region of the same name. */
const CITY_OVER_REGION = 20;

function build(facets: DataPlaces, known: PlaceNames): PlaceIndex {
  const names = new Map<string, Place>();
  /** One place per name: see `wins`. */
  const add = (name: string, place: Place) => {
    const k = indexKey(name);
    const prior = names.get(k);
    if (k !== "" && (prior === undefined || wins(place, prior))) names.set(k, place);
  };
  const byCountry = new Map<string, number>();
  const cjk = new Map<string, Place>();
  for (const { city, country, postings } of facets.cityCounts) {
    if (country) byCountry.set(country, (byCountry.get(country) ?? 0) + postings);
    // Postings put other things in the city field too ("Data Scientist", "Germany"): only a city the gazetteer placed at load is one.
    if (!facets.located.has(city) && !known.CITY_ALIASES[city]) continue;
    const place: Place = { kind: "city", city, country, postings };
    add(city, place);
    const english = known.CJK_CITY_NAMES[city];
    if (english) add(english, place);
    for (const alias of known.CITY_ALIASES[city] ?? []) add(alias, place);
    // A name in a CJK script is found inside text without spaces.
    if (hasCjk(city)) cjk.set(city, place);
  }
  for (const [code, aliases] of countryNames(known.COUNTRIES)) {
    const place: Place = { kind: "country", country: code, postings: byCountry.get(code) ?? 0 };
    // A city of the data keeps its name ("Singapore", "Hong Kong" are both).
    for (const name of aliases) add(name, place);
  }
  for (const region of known.REGIONS) for (const name of [region.name, ...region.aliases]) add(name, { kind: "region", region });
  // Every US state is a region of the data's cities in it; a city or country of that name keeps it ("New York", "Georgia").
  for (const { code, name } of known.US_STATES) add(name, { kind: "region", region: { name, aliases: [], usStates: [code] } });
  // A Chinese name of a city the data writes in English ("香港" for Hong Kong) finds it too.
  for (const [name, english] of Object.entries(known.CJK_CITY_NAMES)) {
    const place = names.get(indexKey(english));
    if (!cjk.has(name) && place?.kind === "city") cjk.set(name, place);
  }
  const longest = Math.max(1, ...[...names.keys()].map((k) => k.split(" ").length));
  const states = new Set(known.US_STATES.map(({ code }) => code));
  return { names, longest: Math.min(longest, 6), states, cjk: [...cjk].sort(([a], [b]) => b.length - a.length), facets };
}

/**
 * Which place keeps a name two have: a city before a country ("Singapore"), a city before a region
 * unless few postings name it ("Eu", "Virginia" in a city field), a country before a region ("Georgia"),
 * else the one with more postings.
 */
function wins(place: Place, prior: Place): boolean {
  if (place.kind === prior.kind) return "postings" in place && "postings" in prior && place.postings > prior.postings;
  const city = place.kind === "city" ? place : prior.kind === "city" ? prior : undefined;
  const other = city === place ? prior : place;
  const winner = city === undefined ? (place.kind === "country" ? place : prior) : other.kind === "country" || city.postings >= CITY_OVER_REGION ? city : other;
  return winner === place;
}


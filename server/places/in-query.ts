import { PLACE_LIST_MAX_ITEMS } from "../../shared/search-params.ts";
import { nameWords } from "../text/words.ts";
import { nameKey } from "./names.ts";
import { hasCjk } from "../text/fold.ts";
import type { DataPlaces, Place, PlaceIndex } from "./place-index.ts";
import { regionFilter } from "./regions.ts";

export { placeIndex, placeWords, type DataPlaces, type PlaceIndex, type PlaceNames } from "./place-index.ts";

/*
 * Places named in a query. Cities are those of the data, by their own name (in Chinese too, found
 * inside CJK text), an English name of a city stored in another script ("Hangzhou" → 杭州) or a common
 * short form ("SF", "NYC"); countries by their English name or another name (countries.ts: "USA", "UK");
 * regions (the knowledge base's REGIONS and every US state: "Europe", "the Midwest", "Bay Area",
 * "Texas") as the cities or countries they hold (regions.ts); all of them from places.json. A place
 * after "in", "at", "near", "around", "based in" or "anywhere in" is read surely; a place alone only
 * when it cannot be a word of the job: several words, or one that the postings use about as often as
 * they name the place ("London" yes; "Mobile", "Reading" no). Places joined by a comma, "or", "and" or
 * "/" are alternatives, one list filter ("in Seattle or Portland", "UK or Ireland"); a city's own
 * country beside it qualifies it ("Berlin, Germany").
 */

/** A place named in a query: where its words are (the lead "in", "near" … included) and the filter it means. */
export interface PlaceFinding {
  start: number;
  end: number;
  phrase: string;
  filters: Record<string, unknown>;
  /** Read surely: after a lead word, several words, or a name that cannot be a word of the job. */
  confident: boolean;
  /** Why the place is not applied although read (a region where the data has no city). */
  unapplied?: string;
}

/**
 * The places named in `text`, alternatives joined into one finding. `wordDocs` says in how many
 * postings a word occurs (term statistics), `isJobWord` whether it is a word of an occupation in the knowledge base.
 */
export function findPlaces(text: string, index: PlaceIndex, wordDocs: (word: string) => number, isJobWord: (word: string) => boolean): PlaceFinding[] {
  const found = [...cjkPlaces(text, index), ...namedPlaces(text, index, wordDocs, isJobWord)].sort((a, b) => a.start - b.start);
  const groups: Named[][] = [];
  for (const place of found) {
    const last = groups.at(-1)?.at(-1);
    if (last !== undefined && place.start >= last.end && JOINER.test(text.slice(last.end, place.start))) groups.at(-1)!.push(place);
    else groups.push([place]);
  }
  return groups.map((group) => finding(text, group, index.facets));
}

// --- internal ---

/** Words that put a place after them; "the" as in "in the Netherlands". */
const LEAD = /\b(?:(?:jobs?|roles?|positions?|based|located|work(?:ing)?|live|living|relocate|relocating|anywhere)\s+)?(?:in|at|near|around|within|to)\s+(?:the\s+)?$/i;
/** What stands between alternatives: "Seattle or Portland", "Berlin, Munich and Hamburg", "UK/Ireland", "Boston or in NYC", "北京、上海", "北京或上海". */
const JOINER = /^\s*(?:,|\/|&|\+|,?\s*\b(?:or|and|and\/or)\b|[、，,]?\s*(?:或者?|和|及|、|，))\s*$/i;
/** A US state's code right after a city, as job boards write it ("Austin TX", "Austin, TX"). */
const STATE_CODE = /^,?\s*([A-Z]{2})(?![\p{L}\p{N}])/u;
/** A Chinese place and what follows it: 市 (city), 的 (of), and the lead 在 (in) before it. */
const CJK_AFTER = /^(?:市)?(?:的|地区)?/u;

/** A lone one-word city needs this many postings, and postings that use its word at most this many times more. */
const ALONE_MIN_POSTINGS = 5;
const ALONE_WORD_RATIO = 4;
/** Two-letter names that mean the place even alone ("ios developer sf"); "us", "la" and "ny" need an "in". */
const SAFE_SHORT = new Set(["sf", "uk"]);

/** A place as found, before alternatives are joined. */
interface Named {
  start: number;
  end: number;
  place: Place;
  confident: boolean;
}

/** Places named by words ("in Berlin", "Bay Area", "UK"); words in CJK script are cjkPlaces'. */
function namedPlaces(text: string, index: PlaceIndex, wordDocs: (word: string) => number, isJobWord: (word: string) => boolean): Named[] {
  const words = nameWords(text).map(({ word, start, end }) => ({ start, end, key: nameKey(word) }));
  const found: Named[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(index.longest, words.length - i); n >= 1; n--) {
      const name = words.slice(i, i + n).map((w) => w.key).join(" ");
      const place = index.names.get(name);
      if (place === undefined || hasCjk(name)) continue;
      const before = text.slice(0, words[i]!.start);
      const lead = LEAD.exec(before);
      const start = lead ? before.length - lead[0].length : words[i]!.start;
      const confident = lead !== null || n > 1 || alone(name, postingsOf(place, index), wordDocs, isJobWord);
      let end = words[i + n - 1]!.end;
      // A US city's state code after it qualifies it ("Austin TX", "Portland, OR"): its words, not a search word.
      const state = place.kind === "city" && place.country === "US" ? STATE_CODE.exec(text.slice(end)) : null;
      if (state && index.states.has(state[1]!)) {
        end += state[0].length;
        n += 1;
      }
      found.push({ start, end, place, confident });
      i += n - 1;
      break;
    }
  }
  return found;
}

/** Chinese city names inside CJK text, which has no spaces between words ("上海的Java开发", "产品经理 深圳"): always meant as the place. */
function cjkPlaces(text: string, index: PlaceIndex): Named[] {
  const found: Named[] = [];
  const taken = (start: number, end: number) => found.some((f) => start < f.end && end > f.start);
  for (const [name, place] of index.cjk) {
    for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length)) {
      const end = at + name.length;
      if (taken(at, end)) continue;
      const start = text[at - 1] === "在" ? at - 1 : at;
      found.push({ start, end: end + CJK_AFTER.exec(text.slice(end))![0].length, place, confident: true });
    }
  }
  return found;
}

function postingsOf(place: Place, index: PlaceIndex): number {
  return place.kind === "region" ? regionFilter(place.region, index.facets, PLACE_LIST_MAX_ITEMS).postings : place.postings;
}

/**
 * One finding for places named together: alternatives of one kind make a list; a city's own country
 * beside it qualifies it ({city, country}); cities beside another country widen to their countries
 * ("London or Ireland" → GB, IE). One value stays one value, as a request gives it.
 */
function finding(text: string, group: Named[], facets: DataPlaces): PlaceFinding {
  const cities: string[] = [];
  const countries: string[] = [];
  const countryOf = new Map<string, string>();
  const empty: string[] = [];
  const named = new Set(group.flatMap(({ place }) => (place.kind === "city" ? [place.city] : [])));
  /** The countries of every place in the order named, for cities beside another country. */
  const widened: string[] = [];
  for (const { place, start, end } of group) {
    if (place.kind === "city") {
      cities.push(place.city);
      if (place.country) widened.push(place.country);
      if (place.country) countryOf.set(place.city, place.country);
    } else if (place.kind === "country") {
      countries.push(place.country);
      widened.push(place.country);
    } else {
      const region = regionFilter(place.region, facets, PLACE_LIST_MAX_ITEMS);
      if ("country" in region.filters) countries.push(...region.filters.country);
      else if (region.filters.city.length === 0) empty.push(text.slice(start, end).trim());
      // A region holding a city named beside it qualifies that city ("Portland, Oregon").
      else if (!region.filters.city.some((city) => named.has(city))) cities.push(...region.filters.city);
      widened.push(...("country" in region.filters ? region.filters.country : region.countryOf.values()));
      for (const [city, country] of region.countryOf) countryOf.set(city, country);
    }
  }
  const first = group[0]!;
  const last = group.at(-1)!;
  const base = { start: first.start, end: last.end, phrase: text.slice(first.start, last.end).trim(), confident: group.some((p) => p.confident) };
  if (cities.length + countries.length === 0) return { ...base, filters: {}, unapplied: `the data has no city in ${empty.join(", ")}` };
  const theirCountries = new Set(cities.map((city) => countryOf.get(city)));
  let filters: Record<string, unknown>;
  if (countries.length === 0) filters = { city: oneOrList(cities) };
  else if (cities.length === 0) filters = { country: oneOrList(countries) };
  else if (countries.every((code) => theirCountries.has(code))) filters = { city: oneOrList(cities), country: oneOrList(countries) };
  else filters = { country: oneOrList(widened) };
  return { ...base, filters };
}

function oneOrList(values: string[]): string | string[] {
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? distinct[0]! : distinct;
}

function alone(name: string, postings: number, wordDocs: (word: string) => number, isJobWord: (word: string) => boolean): boolean {
  if (isJobWord(name) || (name.length < 3 && !SAFE_SHORT.has(name))) return false;
  if (postings < ALONE_MIN_POSTINGS) return false;
  return wordDocs(name) <= ALONE_WORD_RATIO * postings + 50;
}

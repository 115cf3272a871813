import type { Region } from "../knowledge/knowledge.ts";
import { distanceKm, locateCity, locatePlace, usStateOfCity } from "./gazetteer.ts";
import type { DataPlaces } from "./place-index.ts";

/*
 * A region named in a query (the knowledge base's REGIONS: "Europe", "the Midwest", "Bay Area") as
 * the filter it means for the data: a continent or grouping its countries that have postings, a US
 * region the data's cities in its states, a metro area the data's cities within its radius of its
 * centre, both placed by the gazetteer as the load placed them. Worked out when a query first names
 * the region (the gazetteer loads on first use) and kept per data.
 */

/** What a region means for the data: a list filter and the postings it admits. */
export interface RegionFilter {
  filters: { country: string[] } | { city: string[] };
  /** The main country of each city of a city filter. */
  countryOf: Map<string, string>;
  postings: number;
}

/**
 * The filter `region` means for the data's places: the countries with postings (all its countries when
 * none has any), or the cities (most postings first, at most `max`); no city there is an empty list.
 */
export function regionFilter(region: Region, data: DataPlaces, max: number): RegionFilter {
  let cached = CACHE.get(data);
  if (cached === undefined) CACHE.set(data, (cached = new Map()));
  let filter = cached.get(region.name);
  if (filter === undefined) cached.set(region.name, (filter = resolve(region, data, max)));
  return filter;
}

// --- internal ---

const CACHE = new WeakMap<DataPlaces, Map<string, RegionFilter>>();

function resolve(region: Region, data: DataPlaces, max: number): RegionFilter {
  if ("countries" in region) {
    const byCountry = new Map<string, number>();
    for (const { country, postings } of data.cityCounts) if (country) byCountry.set(country, (byCountry.get(country) ?? 0) + postings);
    const present = region.countries.filter((code) => byCountry.has(code));
    const postings = present.reduce((sum, code) => sum + byCountry.get(code)!, 0);
    return { filters: { country: present.length > 0 ? present : region.countries }, countryOf: new Map(), postings };
  }
  const inside = within(region);
  // cityCounts come most postings first: a list cut at `max` keeps the cities that matter most.
  const cities = data.cityCounts.filter(({ city, country }) => data.located.has(city) && inside(city, country)).slice(0, max);
  return {
    filters: { city: cities.map(({ city }) => city) },
    countryOf: new Map(cities.flatMap(({ city, country }) => (country ? [[city, country] as const] : []))),
    postings: cities.reduce((sum, { postings }) => sum + postings, 0),
  };
}

/** Whether a data city (with its main country) is in the region of cities. */
function within(region: Exclude<Region, { countries: string[] }>): (city: string, country: string | null) => boolean {
  if ("usStates" in region) {
    const states = new Set(region.usStates);
    return (city, country) => states.has(usStateOfCity(city, country) ?? "");
  }
  const centre = locatePlace(region.around);
  if (centre === undefined) return () => false;
  return (city, country) => {
    const at = locateCity(city, country);
    return at !== undefined && distanceKm(centre, at) <= region.radiusKm;
  };
}

import { expect, test } from "bun:test";
import { distanceKm, locateCity, locatePlace, usStateOfCity } from "../../../server/places/gazetteer.ts";

/** The gazetteer places the data's cities as people name them; regions read a US city's state and distances from it. */
test.each([
  ["Washington", "US", 38.9, -77.04],
  ["New York", "US", 40.71, -74.01],
  ["Frankfurt", "DE", 50.12, 8.68],
  ["北京", "CN", 39.91, 116.4],
])("locateCity(%p, %p) is the city people mean", (city, country, lat, lon) => {
  const at = locateCity(city, country)!;
  expect(distanceKm(at, { lat, lon })).toBeLessThan(15);
});

test("a US city's state is the one locateCity places it in; none outside the US", () => {
  expect([usStateOfCity("Washington", "US"), usStateOfCity("Austin", "US"), usStateOfCity("Palo Alto", "US"), usStateOfCity("Berlin", "DE")]).toEqual(["DC", "TX", "CA", undefined]);
});

test("distances are great-circle kilometres, as near measures them", () => {
  expect(Math.round(distanceKm(locatePlace("San Francisco, CA")!, locatePlace("San Jose, CA")!))).toBeGreaterThan(60);
  expect(Math.round(distanceKm(locatePlace("San Francisco, CA")!, locatePlace("San Jose, CA")!))).toBeLessThan(75);
  expect(distanceKm({ lat: 10, lon: 20 }, { lat: 10, lon: 20 })).toBeLessThan(0.001);
});

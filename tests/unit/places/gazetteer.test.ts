import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distanceKm, locateCity, locatePlace, usStateOfCity } from "../../../server/places/gazetteer.ts";
import { ROOT, tempDir } from "../../support/helpers.ts";

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

test("a kept index places cities as a freshly built one does; a damaged one is built and kept again", async () => {
  const dir = tempDir("jobsearch-places-");
  const file = join(dir, "places-index.json");
  // A process each: the index is read once per process.
  const places = async () => {
    const script = `import { keepPlacesIndexIn, locateCity, locatePlace, usStateOfCity } from "${ROOT}/server/places/gazetteer.ts";
      keepPlacesIndexIn(${JSON.stringify(dir)});
      console.log(JSON.stringify([locateCity("Springfield", "US"), locateCity("Frankfurt", "DE"), locateCity("北京"), locatePlace("Cambridge, GB"), usStateOfCity("Austin", "US"), locateCity("Nowhere Town Zzz")]));`;
    const proc = Bun.spawn(["bun", "-e", script], { stdout: "pipe", stderr: "inherit" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    return JSON.parse(out);
  };
  try {
    const built = await places();
    expect(built[4]).toBe("TX");
    expect(built[5]).toBeNull();
    expect(existsSync(file)).toBe(true);
    expect(await places()).toEqual(built);
    writeFileSync(file, readFileSync(file, "utf8").slice(0, 100));
    expect(await places()).toEqual(built);
    expect(JSON.parse(readFileSync(file, "utf8")).names.length).toBeGreaterThan(100_000);
    expect(readdirSync(dir)).toEqual(["places-index.json"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

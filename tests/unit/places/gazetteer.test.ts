import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { distanceKm, locateCity, locatePlace, usStateOfCity } from "../../../server/places/gazetteer.ts";
import { decodePlaces, encodePlaces, type City } from "../../../server/places/places-file.ts";
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
  const file = join(dir, "places-index.bin");
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
    const whole = readFileSync(file);
    // Whatever the damage, the file's reader refuses it (the header names what the index was built from)…
    const source = JSON.parse(whole.subarray(8, 8 + whole.readUInt32LE(4)).toString()).source as string;
    expect(decodePlaces(whole, source)).toBeDefined();
    const damaged = [whole.subarray(0, 100), whole.subarray(0, whole.length - 8), Buffer.from("{}")];
    expect(damaged.map((bytes) => decodePlaces(bytes, source))).toEqual([undefined, undefined, undefined]);
    // …and a process that finds a refused file builds the index and keeps it again; one kept as JSON by an
    // earlier version is removed then. (A process for each damage built the index 5 times, 10 s of the suite.)
    writeFileSync(file, damaged[0]!);
    writeFileSync(join(dir, "places-index.json"), "{}");
    expect(await places()).toEqual(built);
    expect(readFileSync(file).equals(whole)).toBe(true);
    expect(readdirSync(dir)).toEqual(["places-index.bin"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("the places file gives back each name's cities in order, and nothing for another source or other bytes", () => {
  const city = (lat: number, lon: number, country: string, adminCode: string): City => ({ lat, lon, country, adminCode });
  const byName = new Map<string, City[]>([
    ["springfield", [city(39.80171, -89.64371, "US", "IL"), city(37.21533, -93.29824, "US", "MO")]],
    ["sao paulo", [city(-23.5475, -46.63611, "BR", "27")]],
    ["北京", [city(39.9075, 116.39723, "CN", "22")]],
    ["x", [city(0, 0, "", "")]],
  ]);
  const bytes = encodePlaces("test 1", byName);
  const shifted = new Uint8Array(bytes.length + 4);
  shifted.set(bytes, 4);
  for (const copy of [bytes, shifted.subarray(4)]) {
    const read = decodePlaces(copy, "test 1")!;
    for (const [name, cities] of byName) expect(read(name)).toEqual(cities);
    expect(read("springfiel")).toEqual([]);
  }
  expect(decodePlaces(bytes, "test 2")).toBeUndefined();
  expect(decodePlaces(bytes.subarray(0, bytes.length - 8), "test 1")).toBeUndefined();
  expect(decodePlaces(new TextEncoder().encode('{"source":"test 1"}'), "test 1")).toBeUndefined();
});

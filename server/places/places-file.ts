import { decodeKeyTable, encodeKeyTable } from "../text/key-table.ts";

/*
 * The gazetteer's index of place names as one file read as it is: the names as a key table, each name's
 * cities (most populous first) as rows of numbers. Parsing the same index kept as JSON and building its
 * Map cost every process that places a city ~1 s of CPU on this machine (10.7 MB, 135k names).
 */

/** A city as the index keeps it: where it is and what narrows a shared name. */
export interface City {
  lat: number;
  lon: number;
  country: string;
  adminCode: string;
}

/** The cities of a name key, most populous first; none when the name is unknown. */
export type PlacesByName = (key: string) => City[];

/** The bytes of `byName`, stamped with `source` (what it was built from). */
export function encodePlaces(source: string, byName: Map<string, City[]>): Uint8Array {
  const keys = [...byName.keys()];
  const cities = keys.flatMap((key) => byName.get(key)!);
  const codes = new Map<string, number>();
  const cityCodes = Uint32Array.from(cities, ({ country, adminCode }) => {
    const text = `${country}\t${adminCode}`;
    if (!codes.has(text)) codes.set(text, codes.size);
    return codes.get(text)!;
  });
  const starts = new Uint32Array(keys.length + 1);
  keys.forEach((key, i) => (starts[i + 1] = starts[i]! + byName.get(key)!.length));
  const table = encodeKeyTable(keys);
  const header: Header = { source, codes: [...codes.keys()], names: keys.length, cities: cities.length, tableBytes: table.length };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const layout = sections(pad(8 + json.length) - 8, header);
  const bytes = new Uint8Array(layout.total).fill(0x20, 8, layout.table);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, layout.table - 8, true);
  bytes.set(json, 8);
  bytes.set(table, layout.table);
  new Float64Array(bytes.buffer, layout.coordinates, 2 * cities.length).set(cities.flatMap((city) => [city.lat, city.lon]));
  new Uint32Array(bytes.buffer, layout.starts, starts.length).set(starts);
  new Uint32Array(bytes.buffer, layout.codes, cityCodes.length).set(cityCodes);
  return bytes;
}

/** The index in `bytes` when it was built from `source`; undefined when it was not, or the bytes are not one. */
export function decodePlaces(bytes: Uint8Array, source: string): PlacesByName | undefined {
  try {
    const aligned = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
    const view = new DataView(aligned.buffer, aligned.byteOffset, aligned.byteLength);
    if (view.getUint32(0, true) !== MAGIC) return undefined;
    const headerBytes = view.getUint32(4, true);
    const header = JSON.parse(new TextDecoder().decode(aligned.subarray(8, 8 + headerBytes)).trimEnd()) as Header;
    if (header.source !== source) return undefined;
    const layout = sections(headerBytes, header);
    if (layout.total !== aligned.byteLength) return undefined;
    const at = aligned.byteOffset;
    const table = decodeKeyTable(aligned.subarray(layout.table, layout.table + header.tableBytes), "the places index");
    const coordinates = new Float64Array(aligned.buffer, at + layout.coordinates, 2 * header.cities);
    const starts = new Uint32Array(aligned.buffer, at + layout.starts, header.names + 1);
    const cityCodes = new Uint32Array(aligned.buffer, at + layout.codes, header.cities);
    const codes = header.codes.map((text) => text.split("\t") as [string, string]);
    return (key) => {
      const name = table.get(key);
      if (name === undefined) return [];
      const out: City[] = [];
      for (let i = starts[name]!; i < starts[name + 1]!; i++) {
        const [country, adminCode] = codes[cityCodes[i]!]!;
        out.push({ lat: coordinates[2 * i]!, lon: coordinates[2 * i + 1]!, country, adminCode });
      }
      return out;
    };
  } catch {
    return undefined;
  }
}

// --- internal ---

/** "JSPL", little-endian. */
const MAGIC = 0x4c50534a;

interface Header {
  source: string;
  codes: string[];
  names: number;
  cities: number;
  tableBytes: number;
}

/** Where each part lies after the magic and the header's length: the header's JSON (`headerBytes`, padded with spaces), the key table, coordinates, starts, codes; each 8-aligned. */
function sections(headerBytes: number, header: Header) {
  const table = 8 + headerBytes;
  const coordinates = pad(table + header.tableBytes);
  const starts = coordinates + 16 * header.cities;
  const codes = pad(starts + 4 * (header.names + 1));
  return { table, coordinates, starts, codes, total: pad(codes + 4 * header.cities) };
}

function pad(n: number): number {
  return Math.ceil(n / 8) * 8;
}

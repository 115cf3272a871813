/*
 * A fixed set of strings as one hash table in a byte array, read as it is: a process that needs to look up
 * a few thousand of 200,000 words (the offline model's vocabulary) or of 135,000 place names pays for the
 * pages it touches, not for building a Map (on this VM every page first written costs 20–40 µs).
 */

/** The index of each of a table's strings (its place in the list it was built from). */
export interface KeyTable {
  readonly size: number;
  get(key: string): number | undefined;
  has(key: string): boolean;
}

/**
 * The table of `keys` (each once): a header, open-addressing slots (index + 1, 0 empty) at most half full,
 * each key's start and its UTF-16 code units. The same keys give the same bytes; the length is a multiple of 4.
 */
export function encodeKeyTable(keys: string[]): Uint8Array {
  let slotBits = 1;
  while (1 << slotBits < keys.length * 2) slotBits++;
  const mask = (1 << slotBits) - 1;
  const chars = keys.reduce((sum, key) => sum + key.length, 0);
  const layout = sections(keys.length, slotBits, chars);
  const bytes = new Uint8Array(layout.total);
  new Uint32Array(bytes.buffer, 0, HEADER_WORDS).set([MAGIC, keys.length, slotBits, chars]);
  const slots = new Uint32Array(bytes.buffer, layout.slots, 1 << slotBits);
  const starts = new Uint32Array(bytes.buffer, layout.starts, keys.length + 1);
  const units = new Uint16Array(bytes.buffer, layout.units, chars);
  let at = 0;
  keys.forEach((key, index) => {
    starts[index] = at;
    for (let i = 0; i < key.length; i++) units[at + i] = key.charCodeAt(i);
    at += key.length;
    let slot = hash(key) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = index + 1;
  });
  starts[keys.length] = at;
  return bytes;
}

/** The table {@link encodeKeyTable} wrote, viewed in place; throws, naming `source`, on bytes that are not one. */
export function decodeKeyTable(bytes: Uint8Array, source: string): KeyTable {
  const bad = () => new Error(`${source} is not a table of keys`);
  if (bytes.byteLength < HEADER_WORDS * 4) throw bad();
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const [magic, size, slotBits, chars] = Array.from(new Uint32Array(aligned.buffer, aligned.byteOffset, HEADER_WORDS));
  if (magic !== MAGIC || slotBits! > 31) throw bad();
  const layout = sections(size!, slotBits!, chars!);
  if (layout.total !== aligned.byteLength) throw bad();
  const slots = new Uint32Array(aligned.buffer, aligned.byteOffset + layout.slots, 1 << slotBits!);
  const starts = new Uint32Array(aligned.buffer, aligned.byteOffset + layout.starts, size! + 1);
  const units = new Uint16Array(aligned.buffer, aligned.byteOffset + layout.units, chars!);
  const mask = (1 << slotBits!) - 1;
  const get = (key: string): number | undefined => {
    for (let slot = hash(key) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const index = slots[slot]! - 1;
      const start = starts[index]!;
      if (starts[index + 1]! - start !== key.length) continue;
      let i = 0;
      while (i < key.length && units[start + i] === key.charCodeAt(i)) i++;
      if (i === key.length) return index;
    }
    return undefined;
  };
  return { size: size!, get, has: (key) => get(key) !== undefined };
}

// --- internal ---

/** "JSKT", little-endian. */
const MAGIC = 0x544b534a;
/** magic, keys, slot bits, UTF-16 code units. */
const HEADER_WORDS = 4;

function sections(size: number, slotBits: number, chars: number) {
  const slots = HEADER_WORDS * 4;
  const starts = slots + 4 * 2 ** slotBits;
  const units = starts + 4 * (size + 1);
  return { slots, starts, units, total: units + 2 * chars + ((2 * chars) % 4) };
}

/** FNV-1a over UTF-16 code units. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

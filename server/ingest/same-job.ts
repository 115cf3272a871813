import { nameKey } from "../places/names.ts";

/*
 * Whether two postings are the same job: a repost, a copy on another source or at another URL, an
 * agency's copy. Each posting gets a signature at load (its title's words, its company and place
 * folded, and a MinHash of its description's word triples, one permutation hashing into 64 bins); two signatures are the same job when
 * their companies and places do not disagree (one may be missing: an agency's copy names no
 * company), their titles are near-identical (same seniority) and their texts are (MinHash Jaccard
 * over the thresholds below, lower for identical titles). The URL plays no part: a copy has
 * another one, and the same URL with tracking parameters says nothing the text does not.
 */

/** What a posting is compared by. */
export interface SameJobSignature {
  /** The title's words (folded, gender markers and punctuation out), sorted and distinct; empty without a title. */
  title: string[];
  company: string;
  city: string;
  country: string;
  /** MinHash of the description's word triples (HASHES values). */
  minhash: Uint32Array;
  /** The title's seniority words (derived from title). */
  seniority: string;
}

/** Description similarity (estimated Jaccard of word triples) needed with identical titles. */
export const SAME_TITLE_TEXT = 0.5;
/** … with near-identical titles (word Jaccard at least NEAR_TITLE). */
export const NEAR_TITLE_TEXT = 0.7;
export const NEAR_TITLE = 0.5;
/** … when one of the two has no title. */
export const NO_TITLE_TEXT = 0.85;
/** At least this unless both name the company (an agency's copy is near-identical). */
export const NO_COMPANY_TEXT = 0.65;
/**
 * At least this when each names what the other does not (one the company, the other the place):
 * neither is the other with something left out, as a copy is.
 */
export const CROSSED_TEXT = 0.9;

export const HASHES = 64;
/** LSH: BANDS bands of HASHES / BANDS values; two postings sharing a band are compared. */
const BANDS = 16;
const ROWS = HASHES / BANDS;

export interface SignedFields {
  job_title?: string | null;
  company_name?: string | null;
  city?: string | null;
  country?: string | null;
  job_description: string;
}

export function signature(record: SignedFields): SameJobSignature {
  const title = titleWords(record.job_title ?? "");
  return {
    title,
    company: companyKey(record.company_name ?? ""),
    city: nameKey(record.city ?? ""),
    country: (record.country ?? "").toUpperCase(),
    minhash: minhash(record.job_description),
    seniority: seniority(title),
  };
}

/**
 * How alike two signatures are when they are the same job (text similarity plus title similarity,
 * for choosing the best of several), or undefined when they are not.
 */
export function sameJobScore(a: SameJobSignature, b: SameJobSignature): number | undefined {
  if (a.company !== "" && b.company !== "" && a.company !== b.company) return undefined;
  if (a.country !== "" && b.country !== "" && a.country !== b.country) return undefined;
  if (a.city !== "" && b.city !== "" && a.city !== b.city) return undefined;
  if (a.seniority !== b.seniority) return undefined;
  const text = estimatedJaccard(a.minhash, b.minhash);
  const missing = (a.title.length === 0) !== (b.title.length === 0);
  const title = missing ? 0 : wordJaccard(a.title, b.title);
  const needed = missing ? NO_TITLE_TEXT : title === 1 ? SAME_TITLE_TEXT : title >= NEAR_TITLE ? NEAR_TITLE_TEXT : undefined;
  if (needed === undefined || text < needed) return undefined;
  if ((a.company === "" || b.company === "") && text < NO_COMPANY_TEXT) return undefined;
  if (crossed(a, b) && text < CROSSED_TEXT) return undefined;
  return text + title;
}

/**
 * Where a signature is filed (`filed`) and where it looks for its matches (`sought`): its LSH bands,
 * and its title with its company, with its city, and alone. A title is sought with the company when
 * it has one (its matches share it or have none), else with the city, else alone; so a common title
 * is never compared with every posting that has it.
 */
export function blockKeys(sig: SameJobSignature): { filed: number[]; sought: number[] } {
  // Keys are 32-bit hashes: two blocks sharing one only cost a few more comparisons.
  const bands: number[] = [];
  for (let band = 0; band < BANDS; band++) {
    let h = band + 1;
    for (let i = band * ROWS; i < (band + 1) * ROWS; i++) h = mix(h ^ sig.minhash[i]!);
    bands.push(h);
  }
  if (sig.title.length === 0) return { filed: bands, sought: bands };
  const title = textHash(sig.title.join(" "), 1);
  const byCompany = mix(title ^ textHash(sig.company, 2));
  const byCity = mix(title ^ textHash(sig.city, 3));
  const companyless = mix(title ^ textHash("", 2));
  // With a company: that company's and the company-less postings of the title; without: the city's, else all.
  const sought = sig.company !== "" ? [byCompany, companyless] : sig.city !== "" ? [byCity] : [title];
  return { filed: [...bands, byCompany, byCity, title], sought: [...bands, ...sought] };
}

/** The signature as one stored text (column `same_job_sig`), and back. */
export function encodeSignature(sig: SameJobSignature): string {
  const hashes = Buffer.from(sig.minhash.buffer, sig.minhash.byteOffset, sig.minhash.byteLength).toString("base64");
  return [sig.title.join(" "), sig.company, sig.city, sig.country, hashes].join("\u0001");
}

export function decodeSignature(text: string): SameJobSignature | undefined {
  const parts = text.split("\u0001");
  if (parts.length !== 5) return undefined;
  const bytes = Buffer.from(parts[4]!, "base64");
  if (bytes.length !== HASHES * 4) return undefined;
  const minhash = new Uint32Array(HASHES);
  for (let i = 0; i < HASHES; i++) minhash[i] = bytes.readUInt32LE(i * 4);
  const title = parts[0] === "" ? [] : parts[0]!.split(" ");
  return { title, company: parts[1]!, city: parts[2]!, country: parts[3]!, minhash, seniority: seniority(title) };
}

// --- internal ---

/** Words that make two titles different roles: "Senior Engineer" is not "Engineer". */
const SENIORITY = new Set([
  "senior", "sr", "junior", "jr", "lead", "principal", "staff", "head", "intern", "internship", "director", "vp",
  "chief", "entry", "graduate", "i", "ii", "iii", "iv", "manager",
]);
/** Legal forms and fillers a company's name may carry or not. */
const LEGAL = new Set(["inc", "llc", "ltd", "limited", "gmbh", "corp", "corporation", "co", "company", "sa", "ag", "bv", "plc", "srl", "oy", "ab", "pty", "the", "sas", "pte"]);
/** "(m/f/d)", "(m/w/d)", "(h/f)", "(f/m/x)", "(all genders)" and the like. */
const GENDER = /\(\s*(?:[mwfdhx]\s*\/\s*)+[mwfdhx]\s*\)|\b(?:[mwfdhx]\/){1,2}[mwfdhx]\b|\(\s*all genders\s*\)/g;

function words(text: string): string[] {
  // Latin and other spaced scripts by word; CJK text (no spaces) by character.
  return nameKey(text).match(WORD) ?? [];
}

function titleWords(title: string): string[] {
  return [...new Set(words(nameKey(title).replace(GENDER, " ")))].sort();
}

function companyKey(company: string): string {
  return words(company).filter((word) => !LEGAL.has(word)).join(" ");
}

function seniority(title: string[]): string {
  return title.filter((word) => SENIORITY.has(word)).join(" ");
}

function crossed(a: SameJobSignature, b: SameJobSignature): boolean {
  const lacks = (x: SameJobSignature, y: SameJobSignature) => (x.company === "" && y.company !== "") || (x.city === "" && y.city !== "");
  return lacks(a, b) && lacks(b, a);
}

function wordJaccard(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const set = new Set(a);
  const shared = b.filter((word) => set.has(word)).length;
  return shared / (a.length + b.length - shared);
}

function estimatedJaccard(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < HASHES; i++) if (a[i] === b[i]) same++;
  return same / HASHES;
}


function minhash(description: string): Uint32Array {
  const count = wordHashes(description);
  const words = buffer;
  const out = new Uint32Array(HASHES).fill(EMPTY);
  // One permutation hashing: a triple's hash picks its bin (top 6 bits) and competes there with the rest.
  const put = (triple: number) => {
    const h = mix(triple ^ SEED);
    const bin = h >>> 26;
    const value = h & 0x3ffffff;
    if (value < out[bin]!) out[bin] = value;
  };
  if (count < 3) {
    let h = 7;
    for (let i = 0; i < count; i++) h = mix(h ^ words[i]!);
    put(h);
  }
  for (let i = 2; i < count; i++) put(mix(mix(mix(words[i - 2]!) ^ words[i - 1]!) ^ words[i]!));
  // Empty bins borrow the next filled bin's value, marked by the distance (densification by rotation).
  for (let i = 0; i < HASHES; i++) {
    if (out[i] !== EMPTY) continue;
    for (let step = 1; step < HASHES; step++) {
      const value = out[(i + step) % HASHES]!;
      if (value < 0x4000000) {
        out[i] = (step << 26) | value;
        break;
      }
    }
  }
  return out;
}

/** A text's FNV-1a hash, salted. */
function textHash(text: string, salt: number): number {
  let h = FNV_START ^ salt;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix(h);
}

/** A bin no triple fell in (filled values are below 2^26). */
const EMPTY = 0xffffffff;
const SEED = 0x9e3779b9 | 0;

const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+/gu;

/**
 * Puts the hashes (FNV-1a) of the text's words, lowercased (runs of letters and digits, a CJK
 * character alone), in `buffer` and returns how many. One pass over the characters, no strings made.
 */
function wordHashes(text: string): number {
  if (buffer.length < text.length) buffer = new Int32Array(text.length * 2);
  let count = 0;
  let h = FNV_START;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    // 0: a gap, 1: a letter or digit of a word, 2: a character that is a word alone (CJK).
    let kind = 0;
    if (code < 128) {
      if (code >= 65 && code <= 90) code += 32;
      if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) kind = 1;
    } else {
      const char = String.fromCharCode(code);
      kind = CJK.test(char) ? 2 : LETTER.test(char) ? 1 : 0;
      if (kind === 1) code = char.toLowerCase().charCodeAt(0);
    }
    if (kind === 1) {
      h = Math.imul(h ^ code, 0x01000193);
      inWord = true;
      continue;
    }
    if (inWord) buffer[count++] = h;
    inWord = false;
    h = FNV_START;
    if (kind === 2) buffer[count++] = Math.imul(FNV_START ^ code, 0x01000193);
  }
  if (inWord) buffer[count++] = h;
  return count;
}

/** The words' hashes of the text signed last (reused: a load signs every posting). */
let buffer = new Int32Array(4096);
const FNV_START = 0x811c9dc5 | 0;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER = /[\p{L}\p{N}]/u;

/** murmur3's finaliser: a 32-bit mix (signed: small integers stay unboxed). */
function mix(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

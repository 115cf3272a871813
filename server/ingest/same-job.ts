import { nameKey } from "../places/names.ts";

/*
 * Whether two postings are the same job: a repost, a copy on another source or at another URL, an
 * agency's copy. Each posting gets a signature at load (its title's words, its company and place
 * folded, and a MinHash of its description's word triples); two signatures are the same job when
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
}

/** Description similarity (estimated Jaccard of word triples) needed with identical titles. */
export const SAME_TITLE_TEXT = 0.5;
/** … with near-identical titles (word Jaccard at least NEAR_TITLE). */
export const NEAR_TITLE_TEXT = 0.7;
export const NEAR_TITLE = 0.5;
/** … when one of the two has no title. */
export const NO_TITLE_TEXT = 0.85;

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
  return {
    title: titleWords(record.job_title ?? ""),
    company: companyKey(record.company_name ?? ""),
    city: nameKey(record.city ?? ""),
    country: (record.country ?? "").toUpperCase(),
    minhash: minhash(record.job_description),
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
  if (seniority(a.title) !== seniority(b.title)) return undefined;
  const text = estimatedJaccard(a.minhash, b.minhash);
  const missing = (a.title.length === 0) !== (b.title.length === 0);
  const title = missing ? 0 : wordJaccard(a.title, b.title);
  const needed = missing ? NO_TITLE_TEXT : title === 1 ? SAME_TITLE_TEXT : title >= NEAR_TITLE ? NEAR_TITLE_TEXT : undefined;
  return needed !== undefined && text >= needed ? text + title : undefined;
}

/** The keys a signature is looked up by: its title (when it has one) and its LSH bands. */
export function blockKeys(sig: SameJobSignature): string[] {
  const keys = sig.title.length > 0 ? [`t${sig.title.join(" ")}`] : [];
  for (let band = 0; band < BANDS; band++) {
    let h = band + 1;
    for (let i = band * ROWS; i < (band + 1) * ROWS; i++) h = mix(h ^ sig.minhash[i]!);
    keys.push(`b${band}:${h.toString(36)}`);
  }
  return keys;
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
  return { title: parts[0] === "" ? [] : parts[0]!.split(" "), company: parts[1]!, city: parts[2]!, country: parts[3]!, minhash };
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
  return nameKey(text).match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]+/gu) ?? [];
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

/** Per-hash seeds, fixed: a signature stored by one load is compared by the next. */
const SEEDS = Uint32Array.from({ length: HASHES }, (_, i) => mix(0x9e3779b9 ^ Math.imul(i + 1, 0x85ebca6b)));

function minhash(description: string): Uint32Array {
  const list = words(description);
  const out = new Uint32Array(HASHES).fill(0xffffffff);
  const shingles = list.length < 3 ? [list.join(" ")] : list.slice(2).map((word, i) => `${list[i]} ${list[i + 1]} ${word}`);
  for (const shingle of new Set(shingles)) {
    const base = Number(Bun.hash.murmur32v3(shingle));
    for (let i = 0; i < HASHES; i++) {
      const h = mix(base ^ SEEDS[i]!);
      if (h < out[i]!) out[i] = h;
    }
  }
  return out;
}

/** murmur3's finaliser: a 32-bit mix, unsigned. */
function mix(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

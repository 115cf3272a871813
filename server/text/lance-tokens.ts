import { stem } from "porter2";
import { detached } from "./detach.ts";

/*
 * Words as LanceDB's full-text index cuts them (its "simple" tokenizer with the options
 * store/indexes.ts gives title and description): split at every character that is not a letter or
 * digit, drop tokens of 40 bytes or more, lowercase, stem (Porter2, English), drop English stop
 * words, fold accents to ASCII. The in-memory keyword index must cut text the same way, so its BM25
 * scores are LanceDB's (tests/unit/memory/copy.test.ts compares them).
 */

/** The tokens of `text`, in order (repeats kept: they are term frequencies). */
export function lanceTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split(NOT_ALPHANUMERIC)) {
    if (raw === "" || byteLength(raw) >= MAX_TOKEN_BYTES) continue;
    const lower = raw.toLowerCase();
    const stemmed = stemOf(lower);
    if (STOP_WORDS.has(stemmed)) continue;
    out.push(fold(stemmed));
  }
  return out;
}

/** CJK pairs are stored space-separated and indexed as they are (whitespace tokenizer, nothing else). */
export function whitespaceTokens(text: string): string[] {
  return text.split(/\s+/).filter((token) => token !== "");
}

// --- internal ---

const NOT_ALPHANUMERIC = /[^\p{L}\p{N}]+/u;
const MAX_TOKEN_BYTES = 40;

/** Tantivy's English stop words (Lucene's list), which LanceDB's index removes. */
const STOP_WORDS = new Set([
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not", "of", "on",
  "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will", "with",
]);

const stems = new Map<string, string>();

/** Porter2 works on ASCII lowercase; other words keep their form (the stemmer leaves most of them be). */
function stemOf(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = /^[a-z0-9']+$/.test(word) ? stem(word) : word;
    // The word is cut from the text: kept as it is, it would keep the whole text (text/detach.ts).
    if (stems.size < STEM_CACHE_SIZE) stems.set(detached(word), stemmed === word ? detached(word) : detached(stemmed));
  }
  return stemmed;
}
const STEM_CACHE_SIZE = 200_000;

function fold(token: string): string {
  return /^[\x00-\x7f]*$/.test(token) ? token : token.normalize("NFKD").replace(/\p{M}/gu, "").replace(/ß/g, "ss").replace(/æ/g, "ae").replace(/ø/g, "o").replace(/œ/g, "oe");
}

function byteLength(text: string): number {
  return /^[\x00-\x7f]*$/.test(text) ? text.length : Buffer.byteLength(text);
}

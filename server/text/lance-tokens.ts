import { stem } from "porter2";
import { detached } from "./detach.ts";

/*
 * Words as LanceDB's full-text index cuts them (its "simple" tokenizer with the options
 * store/indexes.ts gives title and description): split at every character that is not a letter or
 * digit, drop tokens of 40 bytes or more, lowercase, stem (Porter2, English), drop English stop
 * words (NLTK's list), fold accents to ASCII. The in-memory keyword index must cut text the same way, so its BM25
 * scores are LanceDB's (tests/unit/memory/copy.test.ts compares them).
 */

/**
 * The tokens of `text`, in order (repeats kept: they are term frequencies). Each word's stem is kept for
 * the next time (postings repeat their words) unless `remember` is false: a query's or a profile's words
 * are looked up among the postings' but never kept.
 */
export function lanceTokens(text: string, remember = true): string[] {
  const out: string[] = [];
  for (const raw of text.split(NOT_ALPHANUMERIC)) {
    if (raw === "" || byteLength(raw) >= MAX_TOKEN_BYTES) continue;
    const lower = raw.toLowerCase();
    const stemmed = stemOf(lower, remember);
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

/**
 * The English stop words LanceDB's index removes: NLTK's list (words with an apostrophe never reach it:
 * the tokenizer splits them), compared after stemming ("having" → "have" goes, "very" → "veri" stays).
 * Checked against a real index word by word; the 33 words of Lucene's list were used before, which left
 * "we", "our", "you" in the memory copy's documents and put its BM25 ~1% off LanceDB's.
 */
const STOP_WORDS = new Set(
  ("a about above after again against ain all am an and any are aren as at be because been before being below between both but by can " +
    "couldn d did didn do does doesn doing don down during each few for from further had hadn has hasn have haven having he her here hers " +
    "herself him himself his how i if in into is isn it its itself just ll m ma me mightn more most mustn my myself needn no nor not now o of " +
    "off on once only or other our ours ourselves out over own re s same shan she should shouldn so some such t than that the their theirs " +
    "them themselves then there these they this those through to too under until up ve very was wasn we were weren what when where which " +
    "while who whom why will with won wouldn y you your yours yourself yourselves").split(" "),
);

const stems = new Map<string, string>();

/** Porter2 works on ASCII lowercase; other words keep their form (the stemmer leaves most of them be). */
function stemOf(word: string, remember: boolean): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = /^[a-z0-9']+$/.test(word) ? stem(word) : word;
    // The word is cut from the text: kept as it is, it would keep the whole text (text/detach.ts).
    if (remember && stems.size < STEM_CACHE_SIZE) stems.set(detached(word), stemmed === word ? detached(word) : detached(stemmed));
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

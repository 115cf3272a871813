import { nameKey } from "../places/names.ts";
import type { Finding } from "./finding.ts";

/*
 * A company of the data named in the query becomes the `company` filter (its name exactly as the
 * postings write it): "jobs at Acme", "Acme Robotics data engineer". A name after "at", "for",
 * "with" or "join(ing)" is read as the company; a name said alone only when it cannot be an
 * ordinary word of the postings: several words, or one written with a capital that the postings use
 * little beyond that company's own (so "stripes" or "Square footage" stay words). A name that is a
 * word of the job ("Data", "Remote") is never read without its lead word.
 */

/** Postings per company of the data (store facets). */
export interface DataCompanies {
  companies?: Array<{ name: string; postings: number }>;
}

/**
 * The companies named in `text`. `docs`: how many postings use a word; `isJobWord`: the word is one
 * of the knowledge base's job words, or a stop or filler word.
 */
export function findCompanies(text: string, data: DataCompanies, docs: (word: string) => number, isJobWord: (word: string) => boolean): Finding[] {
  const index = companyIndex(data);
  if (index.size === 0) return [];
  const words = [...text.matchAll(WORD)].map((m) => ({ word: m[0], start: m.index, end: m.index + m[0].length }));
  const found: Finding[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let n = Math.min(MAX_WORDS, words.length - i); n >= 1; n--) {
      const named = words.slice(i, i + n);
      const company = index.get(nameKey(text.slice(named[0]!.start, named.at(-1)!.end)));
      if (company === undefined) continue;
      const lead = i > 0 && LEAD.test(words[i - 1]!.word) && /^\s+$/.test(text.slice(words[i - 1]!.end, named[0]!.start)) ? words[i - 1]! : undefined;
      if (!isCompany(named.map((w) => w.word), company.postings, lead !== undefined, docs, isJobWord)) continue;
      const start = (lead ?? named[0]!).start;
      const end = named.at(-1)!.end;
      found.push({ start, end, phrase: text.slice(start, end), filters: { company: company.name }, confident: true });
      i += n - 1;
      break;
    }
  }
  return found;
}

// --- internal ---

/**
 * Whether these words, matching a company of `postings` postings, name it here: after a lead word
 * unless they are ordinary words written in lower case; alone when several words not all ordinary,
 * or one capitalised word the postings use little beyond the company's own. Lower case after a lead
 * word, a one-word name must also be rare in the postings ("at scale" is no company).
 */
function isCompany(words: string[], postings: number, lead: boolean, docs: (word: string) => number, isJobWord: (word: string) => boolean): boolean {
  const ordinary = words.every(isJobWord);
  const capital = /^\p{Lu}/u.test(words[0]!);
  const rare = words.length > 1 || docs(words[0]!.toLowerCase()) <= OWN_SHARE * postings;
  if (lead) return capital ? true : !ordinary && rare;
  return !ordinary && (words.length > 1 || (capital && rare));
}

/** Longest company name read, in words. */
const MAX_WORDS = 4;
/** A one-word name said alone: the postings using the word are at most this many times the company's own. */
const OWN_SHARE = 3;
const LEAD = /^(?:at|for|with|join|joining)$/i;
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}&.'’-]*[\p{L}\p{N}])?/gu;

/** A legal form after a company's name, as nameKey leaves it. */
const LEGAL_SUFFIX = /[\s,]+(?:inc|incorporated|llc|ltd|limited|gmbh|corp|corporation|co|plc|ag|sa|bv|oy|ab)$/;

const INDEXES = new WeakMap<object, Map<string, { name: string; postings: number }>>();

/** The data's companies by nameKey, each key to its most frequent spelling (the filter is exact). */
function companyIndex(data: DataCompanies): Map<string, { name: string; postings: number }> {
  const companies = data.companies ?? [];
  let index = INDEXES.get(companies);
  if (index === undefined) {
    index = new Map();
    // Most postings first: a key keeps the spelling most postings use.
    for (const company of companies) {
      const key = nameKey(company.name);
      // "Apple, Inc" is also "Apple".
      for (const k of [key, key.replace(LEGAL_SUFFIX, "")]) if (k.length >= 2 && /\p{L}/u.test(k) && !index.has(k)) index.set(k, company);
    }
    INDEXES.set(companies, index);
  }
  return index;
}

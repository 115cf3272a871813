import type { Occupation } from "../../knowledge/knowledge.ts";
import { compactText, contentKeys, keptTokens, queryTokens } from "../../text/query-tokens.ts";
import { fold, hasCjk } from "../../text/fold.ts";
import { EVERYDAY_WORDS } from "../../knowledge/knowledge.ts";

export interface Posting {
  /** An occupation, or one of its texts (a title, phrase or skill), by position. */
  at: number;
  /** How strongly the key speaks for it: title 1, skill 0.8, plain-words phrase 0.7. */
  weight: number;
}

/** Lookup tables over the knowledge base, built once. Keys are folded words and "word word" bigrams. */
export interface OccupationIndex {
  occupations: readonly Occupation[];
  /** Key → occupations containing it anywhere, with the best field weight. */
  postings: Map<string, Posting[]>;
  /** Single-word key → the texts containing it, to see how much of a query one text explains. */
  textPostings: Map<string, Posting[]>;
  /** Text → its occupation, and the summed idf of its words. */
  textOccupation: Int32Array;
  textMass: Float64Array;
  /** ln(1 + N / (df + 1)), damped for everyday words whose rarity in the knowledge base means nothing. */
  idf: Map<string, number>;
  /** The largest idf a key can have (a key of one occupation). Scores are measured against it. */
  maxIdf: number;
  /** A whole English title as its keys joined by spaces → the occupations with that title. */
  titles: Map<string, number[]>;
  /** Bigrams inside titles, so a filler word in a title ("people operations") still counts. */
  titlePairs: Set<string>;
  /** Chinese titles in compact form ("ios开发"), matched by substring. */
  cjkTitles: Array<{ text: string; occupation: number }>;
}

/** Builds the index once at start; deterministic for a given list, never throws for a well-formed one. */
export function buildOccupationIndex(occupations: readonly Occupation[]): OccupationIndex {
  const { titles, titlePairs, cjkTitles, titleKeys } = indexTitles(occupations);
  const keysOf = (text: string) => keptTokens(queryTokens(text), titlePairs).map((t) => t.key);
  const postings = new Map<string, Posting[]>();
  const textPostings = new Map<string, Posting[]>();
  const textKeys: string[][] = [];
  const textOccupation: number[] = [];
  occupations.forEach((occupation, index) => {
    const texts: Array<[string[], number]> = [
      ...titleKeys[index]!.map((keys): [string[], number] => [keys, FIELD_WEIGHT.title]),
      ...occupation.skills.map((s): [string[], number] => [keysOf(s), FIELD_WEIGHT.skill]),
      ...occupation.phrases.map((p): [string[], number] => [keysOf(p), FIELD_WEIGHT.phrase]),
    ];
    for (const [keys, weight] of texts) {
      for (const key of keys.concat(pairs(keys))) {
        // Occupations come in order, so an occupation's posting, if any, is the last one.
        const list = postings.get(key);
        const last = list?.at(-1);
        if (last?.at === index) last.weight = Math.max(last.weight, weight);
        else if (list) list.push({ at: index, weight });
        else postings.set(key, [{ at: index, weight }]);
      }
      const text = textKeys.length;
      const unique = [...new Set(keys)];
      for (const key of unique) {
        const list = textPostings.get(key);
        if (list) list.push({ at: text, weight });
        else textPostings.set(key, [{ at: text, weight }]);
      }
      textKeys.push(unique);
      textOccupation.push(index);
    }
  });

  const n = occupations.length;
  const idf = new Map<string, number>();
  for (const [key, list] of postings) idf.set(key, Math.log(1 + n / (list.length + SMOOTHING)) * everydayFactor(key));
  const textMass = Float64Array.from(textKeys, (keys) => keys.reduce((sum, key) => sum + (idf.get(key) ?? 0), 0));
  return {
    occupations,
    postings,
    textPostings,
    textOccupation: Int32Array.from(textOccupation),
    textMass,
    idf,
    maxIdf: Math.log(1 + n / (1 + SMOOTHING)),
    titles,
    titlePairs,
    cjkTitles,
  };
}

/** Adjacent keys as "a b" bigrams, in order. */
export function pairs(keys: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < keys.length; i++) out.push(`${keys[i - 1]} ${keys[i]}`);
  return out;
}

// --- internal ---

/** Added to every document frequency: a word in one phrase of one entry is rare here, not necessarily telling. */
const SMOOTHING = 1;

const FIELD_WEIGHT = { title: 1, skill: 0.8, phrase: 0.7 } as const;

function indexTitles(occupations: readonly Occupation[]) {
  const titles = new Map<string, number[]>();
  const titlePairs = new Set<string>();
  const cjkTitles: OccupationIndex["cjkTitles"] = [];
  const titleKeys: string[][][] = [];
  occupations.forEach((occupation, index) => {
    const english: string[][] = [];
    for (const title of occupation.titles) {
      if (hasCjk(title)) {
        cjkTitles.push({ text: compactText(title), occupation: index });
        continue;
      }
      const keys = contentKeys(title, true);
      english.push(keys);
      const joined = keys.join(" ");
      const named = titles.get(joined);
      if (!named) titles.set(joined, [index]);
      else if (!named.includes(index)) named.push(index);
      for (const pair of pairs(keys)) titlePairs.add(pair);
    }
    titleKeys.push(english);
  });
  return { titles, titlePairs, cjkTitles, titleKeys };
}

/**
 * Everyday words that are rare in the knowledge base only because it is small: "good" in "make websites
 * look good" says little about the job.
 */
const EVERYDAY = new Set(EVERYDAY_WORDS.map(fold));
function everydayFactor(key: string): number {
  if (!key.includes(" ")) return EVERYDAY.has(key) ? 0.35 : 1;
  const words = key.split(" ");
  const everyday = words.filter((w) => EVERYDAY.has(w)).length;
  if (everyday === 0) return 1;
  return everyday === words.length ? 0.35 : 0.7;
}

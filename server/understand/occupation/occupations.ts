import { buildOccupationIndex } from "./occupation-index.ts";
import { matchOccupations, type OccupationMatch } from "./occupation-match.ts";
import { withMeaning } from "./meaning-match.ts";
import { OCCUPATIONS } from "../../knowledge/knowledge.ts";
import { compactText, contentKeys, keptTokens, queryTokens, type Token } from "../../text/query-tokens.ts";
import { fold, hasCjk } from "../../text/fold.ts";
import { MODIFIER_WORDS } from "../../knowledge/knowledge.ts";

/** What a query's words say of the job it is for. */
export interface Occupations {
  /** The query's own content words: lowercased, filler and stop words removed ("someone to", "people who", "looking for", "I want a job as", "we need"…), order kept, duplicates removed. Non-empty whenever the query has any word. */
  terms: string[];
  /** Occupations the query matches in the knowledge base, best first, with a confidence in (0, 1]. At most 3. */
  occupations: Array<{ id: string; title: string; confidence: number }>;
  /** Extra search text with weights in (0, 1]: canonical and alternative titles and the top skills of matched occupations, weighted by confidence; never repeats the query's own terms. At most ~12 entries. */
  expansions: Array<{ text: string; weight: number }>;
}

/**
 * Analyzes a free-text job query; pure, deterministic, fast (< 0.2 ms typical; precompute indexes at module load).
 * `byMeaning`: occupations the query's vector lies near (meaning-match.ts), weighed in with those its words match.
 */
export function analyzeQuery(query: string, byMeaning: OccupationMatch[] = []): Occupations {
  const tokens = queryTokens(query);
  const content = keptTokens(tokens, INDEX.titlePairs);
  const cjkChunks = new Set(tokens.filter((t) => t.kind === "cjk").map((t) => t.chunk));
  // A letter stuck to Chinese ("c端" is consumer-facing) is part of the Chinese, not the language C.
  const keys = content
    .filter((t) => t.kind !== "cjk" && !(cjkChunks.has(t.chunk) && t.key.length === 1))
    .map((t) => t.key);
  const cjkText = cjkChunks.size > 0 ? compactText(query) : "";
  const byWords = matchOccupations(INDEX, keys, (key) => MODIFIERS.has(key), cjkText);
  const matches = byMeaning.length > 0 ? withMeaning(byWords, byMeaning) : byWords;
  return {
    terms: termsOf(content.length > 0 ? content : fallbackTokens(tokens), tokens, cjkChunks),
    occupations: matches.map((m) => {
      const occupation = INDEX.occupations[m.occupation]!;
      return { id: occupation.id, title: occupation.titles[0]!, confidence: round(m.confidence) };
    }),
    expansions: expand(matches, surfaceKeys(content)),
  };
}

// --- internal ---

/** Most expansions (titles, skills) one query gains. */
const MAX_EXPANSIONS = 12;
/** A query that already names the job gains less from its synonyms; the retrieval side decides how far to trust them. */
const NAMED_DAMPING = 0.6;

const INDEX = buildOccupationIndex(OCCUPATIONS);

/** Seniority, contract and schedule words: real terms of the query, but no evidence for an occupation. */
const MODIFIERS = new Set(MODIFIER_WORDS.flatMap((word) => contentKeys(word, true)));
/** How many alternative titles and skills the first, second and third occupation contribute. */
const ALT_TITLES = [3, 2, 1];
const SKILLS = [4, 3, 2];

/** A query of filler alone ("looking for a job") still has terms: its non-stop words, or else all of them. */
function fallbackTokens(tokens: Token[]): Token[] {
  const fillers = tokens.filter((t) => t.kind === "filler");
  return fillers.length > 0 ? fillers : tokens;
}

/**
 * Words in order, once each. A piece of text with Chinese in it is one term as written ("ui设计师"), and
 * Chinese pieces separated only by spaces join into one ("北京 产品经理").
 */
function termsOf(kept: Token[], all: Token[], cjkChunks: Set<number>): string[] {
  const terms: string[] = [];
  let lastChunk = -1;
  for (const token of kept) {
    if (!cjkChunks.has(token.chunk)) {
      terms.push(...token.words);
    } else if (token.chunk !== lastChunk) {
      const text = all.filter((t) => t.chunk === token.chunk).flatMap((t) => t.words).join("");
      const previous = terms.at(-1);
      if (cjkChunks.has(lastChunk) && lastChunk === token.chunk - 1 && previous !== undefined) terms[terms.length - 1] = `${previous} ${text}`;
      else terms.push(text);
    }
    lastChunk = token.chunk;
  }
  return [...new Set(terms)];
}

/**
 * Folded words as written, without aliases: "iOS Engineer" still adds something to "ios developer",
 * though both name the same job.
 */
function surfaceKeys(tokens: Token[]): Set<string> {
  return new Set(tokens.filter((t) => t.kind !== "stop").flatMap((t) => t.words.map(fold)));
}

/** Knowledge-base texts are few and fixed, so their words are worked out once. */
function expansionWords(text: string): string[] {
  let words = EXPANSION_WORDS.get(text);
  if (words === undefined) EXPANSION_WORDS.set(text, (words = [...surfaceKeys(queryTokens(text))]));
  return words;
}

const EXPANSION_WORDS = new Map<string, string[]>();

function expand(matches: OccupationMatch[], queryWords: Set<string>): Occupations["expansions"] {
  const byKey = new Map<string, { text: string; weight: number }>();
  const offer = (text: string, weight: number) => {
    const words = expansionWords(text);
    if (words.length === 0 || words.every((w) => queryWords.has(w))) return;
    const key = words.join(" ");
    const prior = byKey.get(key);
    if (!prior || prior.weight < weight) byKey.set(key, { text, weight });
  };
  matches.forEach((match, rank) => {
    const occupation = INDEX.occupations[match.occupation]!;
    const base = match.confidence * (match.named ? NAMED_DAMPING : 1);
    const [canonical, ...alternatives] = occupation.titles.filter((t) => !hasCjk(t));
    if (canonical !== undefined) offer(canonical, base);
    for (const title of alternatives.slice(0, ALT_TITLES[rank])) offer(title, base * 0.8);
    occupation.skills.slice(0, SKILLS[rank]).forEach((skill, i) => offer(skill, base * (0.6 - 0.05 * i)));
  });
  return [...byKey.values()]
    .sort((a, b) => b.weight - a.weight || a.text.localeCompare(b.text))
    .slice(0, MAX_EXPANSIONS)
    .map((e) => ({ text: e.text, weight: round(e.weight) }));
}

function round(value: number): number {
  return Math.min(1, Math.max(0.001, Math.round(value * 1000) / 1000));
}

import type { SearchFilters } from "../../shared/search.ts";
import { OCCUPATIONS } from "../knowledge/knowledge.ts";
import { MODIFIER_WORDS } from "../knowledge/knowledge.ts";
import { findPlaces, placeIndex, placeWords, type DataPlaces } from "../places/in-query.ts";
import type { TermStats } from "../store/term-stats.ts";
import { fold, foldedWords, hasCjk } from "../text/fold.ts";
import { writtenWords } from "../text/words.ts";
import { findConditions } from "./conditions.ts";
import { findDates } from "./dates.ts";
import { withoutOverlaps, type Finding } from "./finding.ts";
import { analyzeQuery, type Occupations } from "./occupations.ts";
import { correctSpelling } from "./spelling.ts";

/*
 * What a person typed, understood in one pass: misspellings corrected, then the conditions stated in
 * words (places, remote, visa, seniority, employment type, time) read as filters, then what the words
 * left to search say of the job (occupations of the knowledge base, expansions: occupations.ts).
 * Explicit filters always win: a condition whose filter the request sets is not applied (a hint
 * says so). Pure and synchronous; the caller supplies the data's places and term statistics and the clock.
 */

/** One name from the pass to the response's `query` echo: what the words were understood to say. */
export interface Understanding extends Occupations {
  /** The words to search: the (corrected) query without the conditions read as filters. */
  text: string;
  /** The corrected query, or null when nothing was corrected. */
  corrected: string | null;
  /** Filters read from the query, as a POST body would give them (`{city: "Berlin", remote: true}`). */
  filters: Record<string, unknown>;
  hints: string[];
  /**
   * The words name a job outright (the knowledge base is sure of it, or every word is a title or skill
   * word of its best occupation): its own words serve it best, and `expansions` is empty.
   */
  namesJob: boolean;
}

export interface UnderstandContext {
  facets: DataPlaces;
  stats: TermStats | undefined;
  now: Date;
}

/**
 * `query` understood. Without a context, its words are taken as they are (no correction, no
 * condition read: `understand=false`, similar jobs) and only what they say of the job is read.
 */
export function understandQuery(query: string, explicit: SearchFilters, context?: UnderstandContext): Understanding {
  const conditions = context === undefined ? asTyped(query) : readConditions(query, explicit, context);
  return { ...conditions, ...theJob(conditions.text) };
}

// --- internal ---

type Conditions = Pick<Understanding, "text" | "corrected" | "filters" | "hints">;

function asTyped(query: string): Conditions {
  return { text: query, corrected: null, filters: {}, hints: [] };
}

function readConditions(query: string, explicit: SearchFilters, context: UnderstandContext): Conditions {
  // Chinese and other CJK text has no spaces between its words: nothing in it is corrected, but the
  // places it names (Chinese city names inside it too) and conditions in Latin words are read.
  const correction = hasCjk(query) ? { text: query, changes: [] } : correctSpelling(query, context.stats, KNOWN_WORDS);
  const text = correction.text;
  const docs = (word: string) => context.stats?.df[fold(word)] ?? 0;
  const findings = withoutOverlaps([
    ...findDates(text, context.now),
    ...findConditions(text),
    ...findPlaces(text, placeIndex(context.facets), docs, (word) => JOB_WORDS.has(fold(word))),
  ]).filter((f) => f.confident);

  const filters: Record<string, unknown> = {};
  const hints: string[] = [];
  const removed: Finding[] = [];
  for (const finding of findings) {
    if (finding.unapplied !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: ${finding.unapplied}`);
      continue;
    }
    const names = Object.keys(finding.filters);
    if (names.length === 0) {
      hints.push(`"${finding.phrase}" was read as no place limit: postings anywhere are searched`);
      removed.push(finding);
      continue;
    }
    const overridden = names.map((name) => explicitlySet(name, explicit)).find((name) => name !== undefined);
    if (overridden !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: the request sets ${overridden}`);
      removed.push(finding);
      continue;
    }
    const clash = names.find((name) => name in filters && JSON.stringify(filters[name]) !== JSON.stringify(finding.filters[name]));
    if (clash !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: the query already states ${clash}`);
      continue;
    }
    Object.assign(filters, finding.filters);
    removed.push(finding);
  }
  const rest = withoutFindings(text, removed);
  return {
    text: /[\p{L}\p{N}]/u.test(rest) ? rest : text,
    corrected: correction.changes.length > 0 ? text : null,
    filters,
    hints: [
      ...correction.changes.map(({ from, to }) => `searched for "${to}" instead of "${from}"`),
      ...hints,
    ],
  };
}

/** From this confidence on, the knowledge base says the query names an occupation itself. */
const NAMED_JOB_CONFIDENCE = 0.95;

/** What the words left to search say of the job; a CJK query has its own keyword path, and English expansions would pull it towards English postings. */
function theJob(text: string): Occupations & { namesJob: boolean } {
  const analysis = analyzeQuery(text);
  const namesJob = (analysis.occupations[0]?.confidence ?? 0) >= NAMED_JOB_CONFIDENCE || isVocabularyQuery(analysis);
  return { ...analysis, expansions: hasCjk(text) || namesJob ? [] : analysis.expansions, namesJob };
}

/** Every title and skill word of each occupation, folded: a query made only of these is a keyword query. */
const VOCABULARY = new Map(
  OCCUPATIONS.map((o) => [o.id, new Set([...o.titles, ...o.skills].flatMap((text) => foldedWords(text)))]),
);

/**
 * True when each of the query's words is a title or skill word of its best occupation ("elixir erlang"):
 * the person typed the job's own vocabulary, so its words match literally and related jobs only dilute.
 */
function isVocabularyQuery(analysis: Occupations): boolean {
  const best = analysis.occupations[0];
  const words = best && VOCABULARY.get(best.id);
  const tokens = analysis.terms.flatMap((term) => foldedWords(term));
  return words !== undefined && tokens.length > 0 && tokens.every((token) => words.has(token));
}

/** Words of every occupation's titles and skills and the modifier words, as written: never a place or a typo. */
const WRITTEN_JOB_WORDS = new Set(
  [...OCCUPATIONS.flatMap((o) => [...o.titles, ...o.skills]), ...MODIFIER_WORDS].flatMap(writtenWords),
);
const JOB_WORDS = new Set([...WRITTEN_JOB_WORDS].map(fold));
/** Never corrected: the job words and the words of the knowledge base's place names ("DACH", "Nordics"). */
const KNOWN_WORDS = new Set([...WRITTEN_JOB_WORDS, ...placeWords()]);

/** Location filters stand for one another (a city or country or near set explicitly wins over a place read), as do since and until. */
const FAMILIES: Record<string, string[]> = {
  city: ["city", "country", "near"],
  country: ["city", "country", "near"],
  since: ["since", "until"],
  until: ["since", "until"],
};

function explicitlySet(name: string, explicit: SearchFilters): string | undefined {
  return (FAMILIES[name] ?? [name]).find((n) => (explicit as Record<string, unknown>)[n] !== undefined);
}

/** The text without the findings' words, spaces and stray punctuation tidied. */
function withoutFindings(text: string, findings: Finding[]): string {
  let out = "";
  let at = 0;
  for (const f of [...findings].sort((a, b) => a.start - b.start)) {
    out += `${text.slice(at, f.start)} `;
    at = f.end;
  }
  out += text.slice(at);
  return out.replace(/\s+([,;.])/g, "$1").replace(/(^|\s)[,;.-]+(?=\s|$)/g, " ").replace(/\s+/g, " ").replace(/([,;])(?:\s*[,;])+/g, "$1").replace(/^[\s,;]+|[\s,;]+$/g, "");
}

import type { SearchFilters } from "../../shared/search.ts";
import { OCCUPATIONS } from "../knowledge/knowledge.ts";
import { MODIFIER_WORDS } from "../knowledge/knowledge.ts";
import { findPlaces, placeIndex, placeWords, type DataPlaces } from "../places/in-query.ts";
import { jobWeight, type TermStats } from "../store/term-stats.ts";
import { fold, foldedWords, hasCjk } from "../text/fold.ts";
import { queryTokens, withoutGenericCjk } from "../text/query-tokens.ts";
import { writtenWords } from "../text/words.ts";
import { findConditions } from "./conditions.ts";
import { findCompanies, type DataCompanies } from "./company.ts";
import { findDates } from "./dates.ts";
import { addressLabel, negations, preferences } from "./scopes.ts";
import { findSalary } from "./salary.ts";
import { withoutOverlaps, type Finding } from "./finding.ts";
import type { Embedder } from "../embedding/embedder.ts";
import { analyzeQuery, type Occupations } from "./occupation/occupations.ts";
import { matchByMeaning } from "./occupation/meaning-match.ts";
import type { OccupationMatch } from "./occupation/occupation-match.ts";
import { occupationVectors } from "./occupation/occupation-vectors.ts";
import { correctSpelling } from "./spelling.ts";

/*
 * What a person typed, understood in one pass: misspellings corrected, then the conditions stated in
 * words (places, remote, visa, seniority, employment type, time, pay, company) read as filters, then what the words
 * left to search say of the job (occupations of the knowledge base, expansions: occupation/occupations.ts; by meaning: withOccupationsByMeaning).
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
  /**
   * No word of the job remains once the conditions are read ("jobs in Berlin", "remote roles",
   * "internships posted this year"): every posting meeting the filters answers the request alike.
   */
  jobless: boolean;
}

export interface UnderstandContext {
  facets: DataPlaces & DataCompanies;
  stats: TermStats | undefined;
  now: Date;
}

/**
 * `query` understood. Without a context, its words are taken as they are (no correction, no
 * condition read: `understand=false`, similar jobs) and only what they say of the job is read.
 */
export function understandQuery(query: string, explicit: SearchFilters, context?: UnderstandContext): Understanding {
  const { preferred: _, ...conditions } = context === undefined ? asTyped(query) : readConditions(query, explicit, context);
  const job = theJob(conditions.text);
  // Words of job-search talk can still name a job outright (a word of the talk that is an occupation's title): then there is a job to match.
  return { ...conditions, ...job, jobless: conditions.jobless && !job.namesJob };
}

/**
 * Only what `text` states of where and how to work, and whether it says nothing of a job: what matching
 * reads a profile's lines for (match/profile.ts), without the occupations a search weighs. `preferred`:
 * the filters of the conditions said as wishes ("ideally remote"), which a search does not apply.
 */
export function conditionsIn(text: string, context: UnderstandContext): Pick<Understanding, "filters" | "jobless"> & { preferred: Record<string, unknown> } {
  const conditions = readConditions(text, {}, context, false);
  return { filters: conditions.filters, preferred: conditions.preferred, jobless: conditions.jobless && !theJob(conditions.text).namesJob };
}

/**
 * `understanding` with the occupations its words' meaning points to weighed in (occupation/meaning-match.ts),
 * when its words describe a job without naming one the knowledge base knows: no occupation matched with
 * confidence, enough words to describe work, nothing Chinese (the offline model knows no Chinese word).
 * Otherwise `understanding` itself. Rejects only if the embedder does.
 */
export async function withOccupationsByMeaning(understanding: Understanding, embedder: Embedder): Promise<Understanding> {
  if (!describesJob(understanding)) return understanding;
  const [vectors, query] = await Promise.all([occupationVectors(embedder), embedder.embedQuery(understanding.text)]);
  const near = matchByMeaning(vectors, query);
  return near.length === 0 ? understanding : { ...understanding, ...theJob(understanding.text, near) };
}

// --- internal ---

/** Word matches at least this sure are kept as they are (paraphrases the words found score 0.2–0.75). */
const WORDS_CONFIDENT = 0.5;
/** Fewer content words than this name a job or a skill ("golang", "data analyst sql") rather than describe the work. */
const DESCRIBING_TERMS = 3;

function describesJob(understanding: Understanding): boolean {
  const best = understanding.occupations[0]?.confidence ?? 0;
  const plain = !understanding.jobless && !understanding.namesJob && !hasCjk(understanding.text);
  return plain && best < WORDS_CONFIDENT && understanding.terms.length >= DESCRIBING_TERMS;
}

type Conditions = Pick<Understanding, "text" | "corrected" | "filters" | "hints" | "jobless"> & { preferred: Record<string, unknown> };

function asTyped(query: string): Conditions {
  return { text: query, corrected: null, filters: {}, preferred: {}, hints: [], jobless: false };
}

/** `remember` false: the words' corrections are not kept for later queries (a profile's lines). */
function readConditions(query: string, explicit: SearchFilters, context: UnderstandContext, remember = true): Conditions {
  // Chinese and other CJK text has no spaces between its words: nothing in it is corrected, but the
  // places it names (Chinese city names inside it too) and conditions in Latin words are read.
  const correction = hasCjk(query) ? { text: query, changes: [] } : correctSpelling(query, context.stats, KNOWN_WORDS, remember);
  const text = correction.text;
  const docs = (word: string) => context.stats?.df[fold(word)] ?? 0;
  const findings = withoutOverlaps([
    ...findDates(text, context.now),
    ...findConditions(text),
    ...findSalary(text),
    ...findPlaces(text, placeIndex(context.facets), docs, (word) => JOB_WORDS.has(fold(word))),
    ...findCompanies(text, context.facets, docs, isOrdinaryWord),
  ]).filter((f) => f.confident);

  const filters: Record<string, unknown> = {};
  const preferred: Record<string, unknown> = {};
  // Preferences that name both values of a condition ("happy with on-site or remote") prefer neither.
  const unsure = new Set<string>();
  const hints: string[] = [];
  const removed: Finding[] = [];
  const wishes = preferences(text, findings);
  const ruledOut = negations(text, findings);
  for (const finding of findings) {
    if (finding.unapplied !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: ${finding.unapplied}`);
      continue;
    }
    if (ruledOut.has(finding)) {
      hints.push(`"${finding.phrase}" was not applied: the query rules it out`);
      removed.push(finding);
      continue;
    }
    if (wishes.has(finding)) {
      hints.push(`"${finding.phrase}" is a preference: it ranks the results, it does not filter them`);
      mergeFilters(preferred, finding.filters, unsure);
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
    // Two values of a filter that takes several ("senior or staff", "part-time or contract") are alternatives: either will do.
    const clash = names.find((name) => name in filters && !Array.isArray(filters[name]) && JSON.stringify(filters[name]) !== JSON.stringify(finding.filters[name]));
    if (clash !== undefined && typeof filters[clash] === "boolean") {
      // Both ways ("remote or on-site"): either will do, so neither filters.
      hints.push(`"${finding.phrase}" and ${clash} ${JSON.stringify(filters[clash])} were not applied: the query accepts either`);
      delete filters[clash];
      removed.push(finding);
      continue;
    }
    if (clash !== undefined) {
      hints.push(`"${finding.phrase}" was not applied: the query already states ${clash}`);
      continue;
    }
    mergeFilters(filters, finding.filters);
    removed.push(finding);
  }
  // A label opening the request ("Agent: …") is not searched either, unless a condition was read in it.
  const label = addressLabel(text);
  if (label && !findings.some((f) => f.start < label.end)) removed.push(label);
  const rest = withoutFindings(text, removed);
  // Words that became filters are not searched too; a query that was all conditions searches none (jobless).
  return {
    text: rest,
    jobless: isJobless(rest),
    corrected: correction.changes.length > 0 ? text : null,
    filters,
    preferred: Object.fromEntries(Object.entries(preferred).filter(([name]) => !unsure.has(name))),
    hints: [
      ...correction.changes.map(({ from, to }) => `searched for "${to}" instead of "${from}"`),
      ...hints,
    ],
  };
}

/**
 * Adds a finding's filters to `into`: two lists of one filter join ("senior or staff"), another value
 * replaces. Preferences (`both` given) join places said apart too ("Seattle; Bellevue would work as well"),
 * and a yes-or-no said both ways ("on-site or remote") is added to `both`.
 */
function mergeFilters(into: Record<string, unknown>, filters: Record<string, unknown>, both?: Set<string>): void {
  const list = (value: unknown) => (Array.isArray(value) ? value : [value]);
  for (const [name, value] of Object.entries(filters)) {
    const had = into[name];
    if (both && typeof value === "boolean" && typeof had === "boolean" && had !== value) both.add(name);
    const join = had !== undefined && ((Array.isArray(value) && Array.isArray(had)) || (both !== undefined && typeof value === "string"));
    into[name] = join ? [...new Set([...list(had), ...list(value)])] : value;
  }
}

/** A word of the job or of the talk around it ("data", "remote", "the", "hiring"): never a company's name alone. */
function isOrdinaryWord(word: string): boolean {
  return JOB_WORDS.has(fold(word.toLowerCase())) || queryTokens(word).every((t) => t.kind === "stop" || t.kind === "filler");
}

/** True when none of the words left says anything of the job: each is a stop word or a word of job-search talk (in Chinese too: 工作, 岗位). */
function isJobless(rest: string): boolean {
  return queryTokens(rest).every((t) => t.kind === "stop" || t.kind === "filler" || (t.kind === "cjk" && !/[\p{L}\p{N}]/u.test(withoutGenericCjk(t.key))));
}

/** From this confidence on, the knowledge base says the query names an occupation itself. */
const NAMED_JOB_CONFIDENCE = 0.95;

/** What the words left to search say of the job; a CJK query has its own keyword path, and English expansions would pull it towards English postings. */
function theJob(text: string, byMeaning: OccupationMatch[] = []): Occupations & { namesJob: boolean } {
  const analysis = analyzeQuery(text, byMeaning);
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

/**
 * How much a folded word of the query counts in ranking as a word of the job, in [MIN_JOB_WEIGHT, 1]: 1 for
 * the knowledge base's words, else what the data says (term-stats.ts `jobWeight`: the share of its
 * postings that have it in their title). The words around the job in a long request ("bored",
 * "relocating", "mostly") weigh little, and a posting is not judged on them.
 */
export function jobWordWeight(stats: TermStats | undefined, token: string): number {
  return JOB_WORDS.has(token) ? 1 : Math.max(MIN_JOB_WEIGHT, jobWeight(stats, token));
}

const MIN_JOB_WEIGHT = 0.1;

/** Words of every occupation's titles and skills and the modifier words, as written: never a place or a typo. */
const WRITTEN_JOB_WORDS = new Set(
  [...OCCUPATIONS.flatMap((o) => [...o.titles, ...o.skills]), ...MODIFIER_WORDS].flatMap(writtenWords),
);
const JOB_WORDS = new Set([...WRITTEN_JOB_WORDS].map(fold));
/** Never corrected: the job words and the words of the knowledge base's place names ("DACH", "Nordics"). */
const KNOWN_WORDS = new Set([...WRITTEN_JOB_WORDS, ...placeWords()]);

/** Location filters stand for one another (a city or country or near set explicitly wins over a place read), as do since and until, and the salary bounds with their currency. */
const FAMILIES: Record<string, string[]> = Object.fromEntries(
  [["city", "country", "near"], ["since", "until"], ["salary_min", "salary_max", "salary_currency"]].flatMap((family) => family.map((name) => [name, family])),
);

/** The filter of `name`'s family (FAMILIES) that `explicit` sets, if any: it wins over one read from words. */
export function explicitlySet(name: string, explicit: SearchFilters | Record<string, unknown>): string | undefined {
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
  const tidy = out.replace(/\s+([,;.])/g, "$1").replace(/(^|\s)[,;.-]+(?=\s|$)/g, " ").replace(/\s+/g, " ").replace(/([,;])(?:\s*[,;])+/g, "$1").trim();
  // A connective or comma left at an edge by removed conditions ("senior or lead …" → "or …") goes too.
  return tidy.replace(/^(?:(?:or|and)\b|[,;])\s*|\s*(?:\b(?:or|and)|[,;])$/gi, "").replace(/^[\s,;:：]+|[\s,;:：]+$/g, "");
}

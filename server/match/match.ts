import type { JobResult } from "../../shared/job.ts";
import type { MatchDetail, MatchRequest, MatchResult, ProfileEcho } from "../../shared/match.ts";
import { PLAUSIBLE_SCORE, readFilters, RESULT_WINDOW_MAX, type QueryEcho, type SearchRequest } from "../../shared/search.ts";
import { compareText } from "../text/order.ts";
import { oneVersion, searchJobs, type SearchDeps } from "../search/search.ts";
import { getPosting } from "../search/similar.ts";
import { titleWords } from "../store/filter.ts";
import type { StoreReader } from "../store/store.ts";
import { NOTIONS } from "../knowledge/knowledge.ts";
import { contentKeys } from "../text/query-tokens.ts";
import { readProfile, type ProfileReading } from "./profile.ts";
import { mentionsOf, skillKey, skillsIn, skillVocabulary, type SkillVocabulary } from "./skills.ts";

/*
 * A person matched to jobs: the profile read (profile.ts), its first title and main skills searched as
 * a search would with the filters it states (explicit ones win), then the best postings re-ranked by
 * how many of the skills each asks for the profile has, and how its seniority fits. Each result says
 * which skills match and which are missing. No profile, nor anything read from it, is cached or logged.
 */

export interface MatchOutcome {
  results: MatchResult[];
  profile: ProfileEcho;
  query: QueryEcho;
  facets?: Record<string, Array<{ value: string; count: number }>>;
  total_matches?: number;
}

/** Postings re-ranked by skills: the search's best this many (or the page's depth, when deeper). */
const MATCH_POOL = 100;
/**
 * How far the skills raise a score, in log-odds: a posting whose named skills the profile has (up to
 * FIT_SKILLS of them) gains SKILL_LIFT; one it lacks loses nothing, since postings list more skills than
 * anyone names. The search's score keeps its meaning (a job no posting is for stays under 0.5).
 */
const SKILL_LIFT = 1.2;
const FIT_SKILLS = 4;
/** A posting of another seniority (a junior's profile, a senior's posting) is a weaker match, in log-odds. */
const SENIORITY_MISFIT = -0.5;

export async function matchJobs(unpinned: SearchDeps, request: MatchRequest): Promise<MatchOutcome> {
  const deps = await oneVersion(unpinned);
  const { vocabulary, reading } = await read(deps.store, request.profile);
  const { applied, hints } = appliedFilters(reading.filters, request.search);
  const asked = request.search;
  const text = [asked.query, reading.query].filter((part) => part !== "").join(" ") || request.profile.slice(0, 200);
  const search: SearchRequest = {
    ...asked,
    query: text,
    filters: { ...readFilters(applied), ...asked.filters },
    topK: Math.min(RESULT_WINDOW_MAX, Math.max(MATCH_POOL, asked.offset + asked.topK)),
    offset: 0,
    minScore: 0,
    sort: "relevance",
    understand: false,
  };
  // Without the page cache: nothing derived from a profile outlives the request.
  const { cache: _, ...uncached } = deps;
  const outcome = await searchJobs(uncached, search);
  const has = mentionsOf(request.profile, vocabulary);
  const ranked = outcome.results
    .map((result) => ({ result, score: rescored(result, reading, has, vocabulary) }))
    .filter(({ score }) => score >= asked.minScore)
    .sort((a, b) => b.score - a.score || compareText(a.result.id, b.result.id));
  const page = ranked.slice(asked.offset, asked.offset + asked.topK);
  if (asked.sort === "date") page.sort((a, b) => compareText(b.result.publish_time, a.result.publish_time) || b.score - a.score);
  // The page's descriptions in one read (a page asked for in full detail has them already).
  const missingText = page.filter(({ result }) => result.job_description === undefined).map(({ result }) => result.id);
  const texts = missingText.length > 0 ? await deps.store.descriptions(missingText) : new Map<string, string>();
  const results = page.map(({ result, score }) => {
    const description = result.job_description ?? texts.get(result.id) ?? "";
    return { ...result, score, match: detail(result, description, reading, has, vocabulary) };
  });
  const best = Math.max(0, ...results.map((r) => r.score));
  const queryHints = outcome.query.hints.filter((hint) => !hint.startsWith("no close match"));
  if (results.length > 0 && asked.offset === 0 && best < PLAUSIBLE_SCORE) {
    queryHints.push(`no close match: no result scores ${PLAUSIBLE_SCORE} or more, so the postings may not hold this person's job`);
  }
  return {
    results,
    profile: echoOf(reading, applied, hints, text),
    query: { ...outcome.query, hints: queryHints },
    ...(outcome.facets ? { facets: outcome.facets, total_matches: outcome.total_matches } : {}),
  };
}

/** Why one posting matches a profile (MCP explain_match): its skills, reasons, and a sentence to quote. */
export async function explainMatch(deps: Pick<SearchDeps, "store">, id: string, profile: string): Promise<{ id: string; job_title?: string; match: MatchDetail; text: string }> {
  const posting = await getPosting(deps, id);
  const { vocabulary, reading } = await read(deps.store, profile);
  const match = detail(posting, posting.job_description, reading, mentionsOf(profile, vocabulary), vocabulary);
  return { id, ...(posting.job_title ? { job_title: posting.job_title } : {}), match, text: sentenceOf(posting.job_title ?? "this posting", match) };
}

// --- internal ---

let vocabularyCache: { version: number; vocabulary: Promise<SkillVocabulary> } | undefined;

/** The profile read against the table's skills and places, now. */
async function read(store: Pick<StoreReader, "version" | "tagCounts" | "termStats" | "facets">, profile: string): Promise<{ vocabulary: SkillVocabulary; reading: ProfileReading }> {
  const vocabulary = await vocabularyOf(store);
  return { vocabulary, reading: readProfile(profile, { vocabulary, facets: await store.facets(), stats: store.termStats(), now: new Date() }) };
}

/** The skills of the table's current version (its tags and the knowledge base's), built once per version. */
async function vocabularyOf(store: Pick<StoreReader, "version" | "tagCounts" | "termStats">): Promise<SkillVocabulary> {
  const version = await store.version();
  if (vocabularyCache?.version !== version) {
    vocabularyCache = { version, vocabulary: store.tagCounts().then((tags) => skillVocabulary(tags, store.termStats())) };
  }
  return vocabularyCache.vocabulary;
}

/** The search's score raised by the posting's skills (tags and title) the profile has, lowered for a seniority misfit. */
function rescored(result: JobResult, reading: ProfileReading, has: (key: string) => boolean, vocabulary: SkillVocabulary): number {
  const asked = skillsIn(result.job_title ?? "", vocabulary, result.job_tags).map(skillKey);
  const held = asked.filter(has).length;
  const fit = asked.length === 0 ? 0 : held / Math.min(asked.length, FIT_SKILLS);
  const odds = logit(result.score) + SKILL_LIFT * Math.min(1, fit) + (misfits(reading.seniority, levelOf(result)) ? SENIORITY_MISFIT : 0);
  return Math.round(10_000 / (1 + Math.exp(-odds))) / 10_000;
}

function logit(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
}

function detail(
  posting: Pick<JobResult, "job_title" | "job_tags" | "seniority_level" | "city">,
  description: string,
  reading: ProfileReading,
  has: (key: string) => boolean,
  vocabulary: SkillVocabulary,
): MatchDetail {
  const skills = skillsIn(`${posting.job_title ?? ""}\n${description}`, vocabulary, posting.job_tags);
  const matched: string[] = [];
  const missing: string[] = [];
  for (const skill of skills) (has(skillKey(skill)) ? matched : missing).push(skill);
  const reasons: string[] = [];
  // Compared as query understanding compares titles: a developer and an engineer of a thing are one job.
  const titleKeys = new Set(contentKeys(posting.job_title ?? "", true));
  const title = reading.titles.find((t) => contentKeys(t, true).every((key) => titleKeys.has(key)));
  if (title !== undefined) reasons.push(`title: ${title}`);
  if (skills.length > 0) reasons.push(`skills: ${matched.length} of ${skills.length}`);
  const level = levelOf(posting);
  if (reading.seniority !== null && level === reading.seniority) reasons.push(`seniority: ${level}`);
  if (posting.city && [reading.filters.city].flat().includes(posting.city)) reasons.push(`place: ${posting.city}`);
  return { matched_skills: matched, missing_skills: missing, reasons };
}

/** The posting's seniority: its field, or its title read as the seniority filter reads it (TITLE_LEVELS). */
function levelOf(posting: Pick<JobResult, "job_title" | "seniority_level">): string | null {
  if (posting.seniority_level) return posting.seniority_level.toLowerCase();
  const title = posting.job_title ?? "";
  return TITLE_LEVELS.find(({ words }) => words.test(title))?.level ?? null;
}

/**
 * Each level's title words from the knowledge base's seniority notion, the most telling level first
 * where a title names two ("Senior Staff Engineer" is lead, "Senior Intern" an intern).
 */
const TITLE_LEVELS = ["intern", "junior", "lead", "senior", "mid"].map((level) => {
  const notion = NOTIONS.seniority;
  const clauses = notion?.kind === "values" ? (notion.values[level] ?? []) : [];
  const fragments = clauses.flatMap((clause) => ("title" in clause ? [clause.title] : []));
  return { level, words: fragments.length > 0 ? titleWords(fragments.join("|")) : /(?!)/ };
});

const LADDER = ["intern", "junior", "mid", "senior", "lead"];

/** Two levels apart or more (a junior for a senior role), or an intern for anything else. */
function misfits(person: string | null, posting: string | null): boolean {
  if (person === null || posting === null) return false;
  const a = LADDER.indexOf(person);
  const b = LADDER.indexOf(posting);
  return a >= 0 && b >= 0 && Math.abs(a - b) >= 2;
}

/** The read filters that apply (an explicit filter of the same family wins, with a hint). */
function appliedFilters(read: Record<string, unknown>, asked: SearchRequest): { applied: Record<string, unknown>; hints: string[] } {
  const applied: Record<string, unknown> = {};
  const hints: string[] = [];
  const explicit = asked.filters as Record<string, unknown>;
  const places = ["city", "country", "near"];
  for (const [name, value] of Object.entries(read)) {
    const family = places.includes(name) ? places : [name];
    const overridden = family.find((n) => explicit[n] !== undefined);
    if (overridden !== undefined) hints.push(`${name} ${JSON.stringify(value)} read from the profile was not applied: the request sets ${overridden}`);
    else applied[name] = value;
  }
  return { applied, hints };
}

function echoOf(reading: ProfileReading, applied: Record<string, unknown>, hints: string[], text: string): ProfileEcho {
  const notes = [...hints];
  if (reading.seniority !== null) notes.push(`seniority "${reading.seniority}" ranks the results; it does not filter them`);
  if (reading.titles.length === 0) notes.push("no job title was recognised in the profile: its skills were searched");
  return { titles: reading.titles, skills: reading.skills, seniority: reading.seniority, years: reading.years, languages: reading.languages, applied_filters: applied, text, hints: notes };
}

function sentenceOf(title: string, match: MatchDetail): string {
  const total = match.matched_skills.length + match.missing_skills.length;
  const parts = [total === 0 ? `"${title}" names no skills the service knows` : `"${title}" asks for ${total} skills; the profile has ${match.matched_skills.length}`];
  if (match.matched_skills.length > 0) parts.push(`matching: ${match.matched_skills.join(", ")}`);
  if (match.missing_skills.length > 0) parts.push(`missing: ${match.missing_skills.join(", ")}`);
  const others = match.reasons.filter((r) => !r.startsWith("skills:"));
  if (others.length > 0) parts.push(others.join("; "));
  return `${parts.join(". ")}.`;
}

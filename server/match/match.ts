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
import { scoreOfOdds } from "../rank/score.ts";
import { explicitlySet } from "../understand/understand.ts";
import { readProfile, type ProfileReading } from "./profile.ts";
import { postingSkills, skillKey, skillVocabulary, type SkillVocabulary } from "./skills.ts";

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
/** What a skill the profile has counts when it is not among those it names (an everyday word, a name met in lowercase). */
const EMPHASIS_FLOOR = 0.25;
/** Postings searched under what ranks first (each alone), beside the pool: enough for a page of them first. */
const NEAR_POOL = 20;
/**
 * A posting that meets what ranks first (where the person would rather work, else where they are; a junior's or
 * intern's level): ranked first, not filtered, in log-odds, for each it meets.
 */
const FIRST_LIFT = 1;
/** The levels whose postings rank first for a person at them. */
const EARLY_LEVELS = new Set(["junior", "intern"]);
/** A posting of another seniority (a junior's profile, a senior's posting) is a weaker match, in log-odds. */
const SENIORITY_MISFIT = -0.5;

export async function matchJobs(unpinned: SearchDeps, request: MatchRequest): Promise<MatchOutcome> {
  const deps = await oneVersion(unpinned);
  const { vocabulary, reading } = await read(deps.store, request.profile);
  const { applied: wished, hints } = appliedFilters(reading.filters, request.search);
  // Alternatives ("remote or Lisbon"): each searched, the pools joined; none where the request sets one of them.
  const either = reading.either.map((alternative) => appliedFilters(alternative, request.search, wished));
  const alternatives = either.every(({ applied }) => Object.keys(applied).length > 0) ? either.map(({ applied }) => applied) : [];
  const applied = Object.assign({}, wished, ...alternatives) as Record<string, unknown>;
  for (const { hints: refused } of either) hints.push(...refused);
  if (alternatives.length > 0) hints.push(`${alternatives.map((a) => Object.entries(a).map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(", ")).join(" or ")}: either will do`);
  // What the person prefers ranks first, else where they are, unless the request or a wish of the profile says it already.
  const { applied: preferred, hints: preferredHints } = appliedFilters(reading.preferred, request.search, applied);
  const { applied: here, hints: nearbyHints } = appliedFilters(reading.nearby, request.search, applied);
  const nearby = Object.keys(preferred).length > 0 ? {} : here;
  // A junior's or intern's level is what sets their jobs apart (most postings are for experienced people): postings of it rank first too.
  const { applied: level } = appliedFilters(EARLY_LEVELS.has(reading.seniority ?? "") ? { seniority: [reading.seniority] } : {}, request.search, applied);
  // Each ranks first by its own search (together they would leave few postings: a junior role in the one city preferred).
  const firsts = [{ ...nearby, ...preferred }, level].filter((filters) => Object.keys(filters).length > 0);
  const asked = request.search;
  const words = (...parts: string[]) => parts.filter((part) => part !== "").join(" ");
  const text = words(asked.query, reading.query) || request.profile.slice(0, 200);
  const search = (query: string, filters: Record<string, unknown>, pool = MATCH_POOL): SearchRequest => ({
    ...asked,
    query,
    // Read from the profile's words, they mean what query understanding's do (a title's "Junior", a "remote" tag).
    inferred: readFilters(filters),
    topK: Math.min(RESULT_WINDOW_MAX, Math.max(pool, asked.offset + asked.topK)),
    offset: 0,
    minScore: 0,
    sort: "relevance",
    understand: false,
  });
  // Without the page cache: nothing derived from a profile outlives the request.
  const { cache: _, ...uncached } = deps;
  // The words searched under each alternative, and where the person is too, so that postings there, ranked first, are in the pool.
  const sets = alternatives.length > 0 ? alternatives.map((alternative) => ({ ...wished, ...alternative })) : [wished];
  const [nears, found] = await Promise.all([
    Promise.all(firsts.map((filters) => searchJobs(uncached, search(text, { ...wished, ...filters }, NEAR_POOL)))),
    Promise.all(sets.map((filters) => searchJobs(uncached, search(text, filters)))),
  ]);
  const outcome = found[0]!;
  const pool = new Map<string, JobResult>();
  for (const result of [...found, ...nears].flatMap((each) => each.results)) {
    if ((pool.get(result.id)?.score ?? -1) < result.score) pool.set(result.id, result);
  }
  const firstLifts = new Map<string, number>();
  for (const { id } of nears.flatMap((near) => near.results)) firstLifts.set(id, (firstLifts.get(id) ?? 0) + FIRST_LIFT);
  const fit = { ...fitOf(reading, vocabulary), firstLifts };
  const ranked = [...pool.values()]
    .map((result) => {
      const odds = logit(result.score) + lifts(result, fit);
      return { result, odds, score: scoreOfOdds(odds) };
    })
    .filter(({ score }) => score >= asked.minScore)
    // By the odds, not the rounded score: near 1 the rounding ties postings the odds still tell apart.
    .sort((a, b) => b.odds - a.odds || compareText(a.result.id, b.result.id));
  const page = ranked.slice(asked.offset, asked.offset + asked.topK);
  if (asked.sort === "date") page.sort((a, b) => compareText(b.result.publish_time, a.result.publish_time) || b.score - a.score);
  // The descriptions of the page's postings whose skills were not read yet, in one read (a page asked for in
  // full detail has them already, unless cut: skills are read from the whole text, whatever the page shows).
  const whole = (result: JobResult) => (result.job_description_truncated ? undefined : result.job_description);
  const unread = page.filter(({ result }) => whole(result) === undefined && !vocabulary.postings.has(result.id)).map(({ result }) => result.id);
  const texts = unread.length > 0 ? await deps.store.descriptions(unread) : new Map<string, string>();
  const results = page.map(({ result, score }) => {
    const skills = skillsOf(result, whole(result) ?? texts.get(result.id) ?? "", vocabulary);
    return { ...result, score, match: detail(result, skills, fit) };
  });
  const best = Math.max(0, ...results.map((r) => r.score));
  const queryHints = outcome.query.hints.filter((hint) => !hint.startsWith("no close match"));
  if (results.length > 0 && asked.offset === 0 && best < PLAUSIBLE_SCORE) {
    queryHints.push(`no close match: no result scores ${PLAUSIBLE_SCORE} or more, so the postings may not hold this person's job`);
  }
  return {
    results,
    profile: echoOf(reading, { applied, nearby, preferred }, [...hints, ...nearbyHints, ...preferredHints], text),
    query: { ...outcome.query, hints: queryHints },
    ...(outcome.facets ? { facets: outcome.facets, total_matches: outcome.total_matches } : {}),
  };
}

/** Why one posting matches a profile (MCP explain_match): its skills, reasons, and a sentence to quote. */
export async function explainMatch(unpinned: Pick<SearchDeps, "store">, id: string, profile: string): Promise<{ id: string; job_title?: string; match: MatchDetail; text: string }> {
  const deps = await oneVersion(unpinned);
  const posting = await getPosting(deps, id);
  const { vocabulary, reading } = await read(deps.store, profile);
  const match = detail(posting, skillsOf(posting, posting.job_description, vocabulary), fitOf(reading, vocabulary));
  return { id, ...(posting.job_title ? { job_title: posting.job_title } : {}), match, text: sentenceOf(posting.job_title ?? "this posting", match) };
}

// --- internal ---

/**
 * The vocabulary of each store's current version, by the store's term statistics (one object a store holds
 * until a load replaces them): stores of one process (a server's, the CLI's, tests') have versions of the same numbers.
 */
const vocabularies = new WeakMap<object, { version: number; vocabulary: Promise<SkillVocabulary> }>();
/** The key of a store without term statistics (none loaded yet). */
const NO_STATS = {};

/** The profile read against the table's skills and places, now. */
async function read(store: Pick<StoreReader, "version" | "tagCounts" | "termStats" | "facets">, profile: string): Promise<{ vocabulary: SkillVocabulary; reading: ProfileReading }> {
  const vocabulary = await vocabularyOf(store);
  return { vocabulary, reading: readProfile(profile, { vocabulary, facets: await store.facets(), stats: store.termStats(), now: new Date() }) };
}

/** The skills of the table's current version (its tags and the knowledge base's), built once per version. */
async function vocabularyOf(store: Pick<StoreReader, "version" | "tagCounts" | "termStats">): Promise<SkillVocabulary> {
  const version = await store.version();
  const stats = store.termStats();
  let kept = vocabularies.get(stats ?? NO_STATS);
  if (kept?.version !== version) {
    kept = { version, vocabulary: store.tagCounts().then((tags) => skillVocabulary(tags, stats)) };
    vocabularies.set(stats ?? NO_STATS, kept);
  }
  return kept.vocabulary;
}

/** What a posting is measured against: the profile read, its skills (`has` by key), and the postings where the person is. */
interface Fit {
  reading: ProfileReading;
  has: (key: string) => boolean;
  /** The profile's skills by key, as it writes them. */
  forms: Map<string, string>;
  /** How much each skill the profile names counts, by key: 1 for the most mentioned, less down the list. */
  emphasis: Map<string, number>;
  vocabulary: SkillVocabulary;
  /** What ranks a posting first, by id: it meets what the person prefers, or is where they are, or is of a junior's level. */
  firstLifts?: ReadonlyMap<string, number>;
}

function fitOf(reading: ProfileReading, vocabulary: SkillVocabulary): Fit {
  const emphasis = new Map(reading.skills.map((skill, i) => [skillKey(skill), 1 / (1 + i / 2)]));
  return { reading, ...reading.mentions, emphasis, vocabulary };
}

/**
 * What a posting's fit adds to its search's log-odds: its skills (tags and title) the profile has and its
 * meeting what ranks first (a preference, where the person is, a junior's level); a seniority misfit takes away.
 */
function lifts(result: JobResult, fit: Fit): number {
  let asked = fit.vocabulary.titles.get(result.id);
  if (asked === undefined) fit.vocabulary.titles.set(result.id, (asked = [...postingSkills(result.job_title ?? "", fit.vocabulary, result.job_tags).keys()]));
  const held = asked.filter(fit.has).reduce((sum, key) => sum + (fit.emphasis.get(key) ?? EMPHASIS_FLOOR), 0);
  const skills = asked.length === 0 ? 0 : Math.min(1, held / Math.min(asked.length, FIT_SKILLS));
  return (
    SKILL_LIFT * skills +
    (fit.firstLifts?.get(result.id) ?? 0) +
    (misfits(fit.reading.seniority, levelOf(result)) ? SENIORITY_MISFIT : 0)
  );
}

function logit(p: number): number {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
}

/** A posting's skills (its title, description and tags), read once a table version (SkillVocabulary.postings). */
function skillsOf(posting: Pick<JobResult, "id" | "job_title" | "job_tags">, description: string, vocabulary: SkillVocabulary): ReadonlyMap<string, string> {
  let skills = vocabulary.postings.get(posting.id);
  if (skills === undefined) {
    skills = postingSkills(`${posting.job_title ?? ""}\n${description}`, vocabulary, posting.job_tags);
    vocabulary.postings.set(posting.id, skills);
  }
  return skills;
}

function detail(posting: Pick<JobResult, "job_title" | "seniority_level" | "city">, skills: ReadonlyMap<string, string>, { reading, has, forms }: Fit): MatchDetail {
  const matched: string[] = [];
  const missing: string[] = [];
  // Each as written: a matched one as the profile writes it, where it does; a missing one as the posting does.
  for (const [key, written] of skills) (has(key) ? matched.push(forms.get(key) ?? written) : missing.push(written));
  const reasons: string[] = [];
  // Compared as query understanding compares titles: a developer and an engineer of a thing are one job.
  const titleKeys = new Set(contentKeys(posting.job_title ?? "", true));
  const title = reading.titles.find((t) => contentKeys(t, true).every((key) => titleKeys.has(key)));
  if (title !== undefined) reasons.push(`title: ${title}`);
  if (skills.size > 0) reasons.push(`skills: ${matched.length} of ${skills.size}`);
  const level = levelOf(posting);
  if (reading.seniority !== null && level === reading.seniority) reasons.push(`seniority: ${level}`);
  if (posting.city && [reading.filters.city, reading.nearby.city, reading.preferred.city].flat().includes(posting.city)) reasons.push(`place: ${posting.city}`);
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

/**
 * The read filters that apply: an explicit filter of the same family wins, with a hint; one of a family
 * `taken` already (where the person wants to work, over where they are) is left without one.
 */
function appliedFilters(read: Record<string, unknown>, asked: SearchRequest, taken: Record<string, unknown> = {}): { applied: Record<string, unknown>; hints: string[] } {
  const applied: Record<string, unknown> = {};
  const hints: string[] = [];
  for (const [name, value] of Object.entries(read)) {
    const overridden = explicitlySet(name, asked.filters);
    if (overridden !== undefined) hints.push(`${name} ${JSON.stringify(value)} read from the profile was not applied: the request sets ${overridden}`);
    else if (explicitlySet(name, taken) === undefined) applied[name] = value;
  }
  return { applied, hints };
}

function echoOf(reading: ProfileReading, { applied, nearby, preferred }: Record<"applied" | "nearby" | "preferred", Record<string, unknown>>, hints: string[], text: string): ProfileEcho {
  const notes = [...hints];
  for (const [name, value] of Object.entries(nearby)) notes.push(`${name} ${JSON.stringify(value)} is where the profile says the person is: postings there rank first; it does not filter them`);
  for (const [name, value] of Object.entries(preferred)) notes.push(`${name} ${JSON.stringify(value)} is what the profile prefers: postings that meet it rank first; it does not filter them`);
  if (reading.seniority !== null) notes.push(`seniority "${reading.seniority}" ranks the results; it does not filter them`);
  if (reading.titles.length === 0) notes.push("no job title was recognised in the profile: its skills were searched");
  return { titles: reading.titles, skills: reading.skills, seniority: reading.seniority, years: reading.years, languages: reading.languages, applied_filters: applied, nearby, preferred, text, hints: notes };
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

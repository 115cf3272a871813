import { matchChineseTitles } from "./cjk-titles.ts";
import { pairs, type OccupationIndex } from "./occupation-index.ts";

export interface OccupationMatch {
  /** Position in the index's occupation list. */
  occupation: number;
  /** In (0, 1]. */
  confidence: number;
  /** The query names one of the occupation's English titles outright ("ios developer"). */
  named: boolean;
}

/**
 * Scores occupations against a query's content keys and, for Chinese, its compact text; returns the best
 * `limit` above the confidence floor, best first (ties in knowledge-base order). Deterministic.
 */
export function matchOccupations(
  index: OccupationIndex,
  keys: string[],
  isModifier: (key: string) => boolean,
  cjkText: string,
  limit = 3,
): OccupationMatch[] {
  // A seniority or contract word is no evidence, unless it belongs to a title ("contract manager", "smart contract").
  const evidential = keys.filter((key, i) => !isModifier(key) || inTitlePair(index, keys, i));
  const named = namedOccupations(titleSpans(index, keys).filter((span) => telling(index, keys, span)));
  const all = scoreEnglish(index, evidential, named);
  if (cjkText !== "") {
    for (const [occupation, confidence] of matchChineseTitles(index, cjkText)) {
      const prior = all.get(occupation);
      const combined = prior ? 1 - (1 - prior.confidence) * (1 - confidence) : confidence;
      all.set(occupation, { occupation, confidence: combined, named: prior?.named ?? false });
    }
  }
  const ranked = [...all.values()].sort((a, b) => b.confidence - a.confidence || a.occupation - b.occupation);
  const best = ranked[0]?.confidence ?? 0;
  // Many equally good readings ("sales", "design") mean none of them is certain.
  const tied = ranked.filter((m) => m.confidence >= best * TIE).length;
  const doubt = tied > limit ? Math.sqrt(limit / tied) : 1;
  return ranked
    .filter((m) => m.confidence >= best * MIN_RELATIVE)
    .map((m) => ({ ...m, confidence: m.confidence * doubt }))
    .filter((m) => m.confidence >= MIN_CONFIDENCE)
    .slice(0, limit);
}

// --- internal ---

/** Occupations matched less confidently than this are not reported at all. */
const MIN_CONFIDENCE = 0.2;
/** A runner-up far behind the best match is noise, not another reading of the query. */
const MIN_RELATIVE = 0.4;
/** Evidence (idf × field weight) that counts as a full-strength match: about one rare word in a title. */
const FULL_STRENGTH = 0.5;
/** A query that matches without naming a title is a paraphrase; it stays a little less certain. */
const UNNAMED = 0.85;
/** When the query names a job outright, every other occupation is only an alternative to it. */
const BESIDE_NAMED = 0.75;
/** Longest run of query words looked up as one title. */
const MAX_TITLE_WORDS = 6;
/** The least fit of an occupation the query names, reached when nothing else in the query is explained. */
const NAMED_FLOOR = 0.4;
/** The idf a title needs, as a share of the largest, to name a job. */
const NAMING_MASS = 0.5;
/** Scores this close to the best count as a tie. */
const TIE = 0.95;

// Scratch space per text, reused across calls (JavaScript runs one analysis at a time).
let textScore = new Float64Array(0);
let textMatched = new Float64Array(0);

/**
 * confidence = fit^1.2 × strength × (named ? 1 : 0.85), where fit averages how much of the query the
 * occupation explains anywhere (coverage) and within one title, phrase or skill (focus), and strength
 * says whether the matched words are rare enough to mean something.
 */
function scoreEnglish(index: OccupationIndex, keys: string[], named: Set<number>): Map<number, OccupationMatch> {
  const n = index.occupations.length;
  const evidence = new Float64Array(n);
  const covered = new Float64Array(n);
  const known = [...new Set(keys)].filter((key) => index.idf.has(key));
  const mass = known.reduce((sum, key) => sum + index.idf.get(key)!, 0);
  const out = new Map<number, OccupationMatch>();
  if (mass === 0) return out;
  for (const key of known) accumulate(index, key, evidence, covered, 1);
  // A bigram shared with a title or phrase ("keep servers", "servers running") is strong evidence.
  for (const pair of new Set(pairs(keys))) accumulate(index, pair, evidence, covered, 0.5);
  const focus = focusByOccupation(index, known, mass);
  const full = FULL_STRENGTH * index.maxIdf;
  const namesAll = [...named].some((o) => covered[o]! >= mass * 0.999);
  for (let occupation = 0; occupation < n; occupation++) {
    if (evidence[occupation]! <= 0) continue;
    const coverage = Math.min(1, covered[occupation]! / mass);
    // What the best text explains, plus half of what the occupation's other texts add.
    const best = Math.min(coverage, focus.get(occupation) ?? 0);
    const blended = (coverage + best + (coverage - best) / 2) / 2;
    // Naming a job outright is strong evidence whatever else the query says ("accountant in a law firm").
    const isNamed = named.has(occupation);
    const fit = isNamed ? Math.max(blended, NAMED_FLOOR + (1 - NAMED_FLOOR) * coverage) : blended;
    const strength = Math.min(1, evidence[occupation]! / full);
    const factor = isNamed ? 1 : namesAll ? UNNAMED * BESIDE_NAMED : UNNAMED;
    out.set(occupation, { occupation, confidence: fit ** 1.2 * strength * factor, named: isNamed });
  }
  return out;
}

function accumulate(index: OccupationIndex, key: string, evidence: Float64Array, covered: Float64Array, share: number): void {
  const idf = index.idf.get(key) ?? 0;
  for (const { at, weight } of index.postings.get(key) ?? []) {
    evidence[at]! += idf * weight;
    covered[at]! += idf * weight * share;
  }
}

/** The share of the query one text explains, best text per occupation, a little less for a text with much else in it. */
function focusByOccupation(index: OccupationIndex, known: string[], mass: number): Map<number, number> {
  if (textScore.length < index.textMass.length) {
    textScore = new Float64Array(index.textMass.length);
    textMatched = new Float64Array(index.textMass.length);
  }
  const touched: number[] = [];
  for (const key of known) {
    const idf = index.idf.get(key)!;
    for (const { at, weight } of index.textPostings.get(key) ?? []) {
      if (textMatched[at] === 0) touched.push(at);
      // Within one text the field matters less than for coverage: a phrase that says it all is a good match.
      textScore[at]! += idf * (0.5 + 0.5 * weight);
      textMatched[at]! += idf;
    }
  }
  const focus = new Map<number, number>();
  for (const text of touched) {
    const precision = textMatched[text]! / index.textMass[text]!;
    const value = (textScore[text]! * (0.85 + 0.15 * precision)) / mass;
    const occupation = index.textOccupation[text]!;
    if (value > (focus.get(occupation) ?? 0)) focus.set(occupation, value);
    textScore[text] = 0;
    textMatched[text] = 0;
  }
  return focus;
}

/** A title of one common word ("Programmer" is "engineer" here) names no job in particular. */
function telling(index: OccupationIndex, keys: string[], span: TitleSpan): boolean {
  let mass = 0;
  for (let i = span.start; i < span.end; i++) mass += index.idf.get(keys[i]!) ?? 0;
  return mass >= NAMING_MASS * index.maxIdf;
}

function inTitlePair(index: OccupationIndex, keys: string[], i: number): boolean {
  const pair = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && index.titlePairs.has(`${a} ${b}`);
  return pair(keys[i - 1], keys[i]) || pair(keys[i], keys[i + 1]);
}

interface TitleSpan {
  start: number;
  end: number;
  occupations: number[];
}

/** Every run of query keys that is a whole title. */
function titleSpans(index: OccupationIndex, keys: string[]): TitleSpan[] {
  const spans: TitleSpan[] = [];
  for (let start = 0; start < keys.length; start++) {
    for (let end = start + 1; end <= Math.min(keys.length, start + MAX_TITLE_WORDS); end++) {
      const occupations = index.titles.get(keys.slice(start, end).join(" "));
      if (occupations) spans.push({ start, end, occupations });
    }
  }
  return spans;
}

/** Occupations with a whole title in the query; a title inside a longer one ("nurse" in "nurse practitioner") doesn't count. */
function namedOccupations(spans: TitleSpan[]): Set<number> {
  const named = new Set<number>();
  for (const span of spans) {
    const inside = spans.some((o) => o.start <= span.start && o.end >= span.end && o.end - o.start > span.end - span.start);
    if (!inside) for (const occupation of span.occupations) named.add(occupation);
  }
  return named;
}

import { STOP_WORDS } from "../knowledge/knowledge.ts";
import type { TermStats } from "../store/term-stats.ts";
import { fold } from "../text/fold.ts";
import { MIN_DOCS_OF_CORRECTION } from "./vocabulary.ts";

/*
 * Words typed apart that the postings write as one ("type script" → "typescript") and words run
 * together that the postings write apart ("datascience" → "data science"), both decided from the
 * term statistics: how many postings use each word, and how many titles hold two words side by side.
 */

/**
 * `a` and `b` as one word, when the postings use that word far more than titles put the two side by
 * side ("java script": javascript in 4,403 postings, the pair in no title; "front end" stays: 1,340
 * titles write it apart). Needs the statistics' title pairs; without them nothing is joined.
 */
export function joinedForm(a: string, b: string, stats: TermStats): string | undefined {
  if (!stats.pairs || STOP.has(a) || STOP.has(b)) return undefined;
  const joined = a + b;
  const docs = stats.df[fold(joined)] ?? 0;
  if (docs < MIN_DOCS_OF_CORRECTION) return undefined;
  const apart = stats.pairs[`${fold(a)} ${fold(b)}`] ?? 0;
  return docs >= JOIN_RATIO * (apart + 1) ? joined : undefined;
}

/**
 * `word` (lowercase, used by `seen` postings) cut into two words, or else three, each used by far
 * more postings than `word` itself ("graphicsprogrammer" → graphics, programmer). A word some postings
 * use ("somewhere", "testrail") is cut only where titles hold the two pieces side by side far more
 * often ("webdeveloper": 6 postings, "web developer" in hundreds of titles). Of several cuts, the one
 * whose pieces titles most often hold side by side, then the one whose rarer piece is commonest.
 */
export function splitForm(word: string, seen: number, stats: TermStats): string[] | undefined {
  const needed = Math.max(MIN_DOCS_OF_CORRECTION, SPLIT_RATIO * (seen + 1));
  const cut: Cut = { needed, together: seen <= MAX_DOCS_OF_UNSPLIT ? 0 : PAIR_RATIO * seen, stats };
  return bestCut(word, cut) ?? bestCut3(word, cut);
}

/**
 * `word` cut into a word of the postings and a misspelling of one ("amgulardeveloper" → angular,
 * developer), by `correct` (the speller's own rule, with its cost), where titles hold the two side by
 * side; for a word no posting uses, when no exact cut exists. The cheapest correction wins, then the
 * commoner exact piece.
 */
export function splitWithSlip(
  word: string, stats: TermStats, correct: (piece: string) => { word: string; cost: number } | undefined,
): string[] | undefined {
  let best: { pieces: string[]; cost: number; docs: number } | undefined;
  for (let cut = MIN_SLIPPED; cut <= word.length - MIN_SLIPPED; cut++) {
    const left = word.slice(0, cut);
    const right = word.slice(cut);
    for (const [exact, slipped, first] of [[left, right, true], [right, left, false]] as const) {
      const docs = stats.df[fold(exact)] ?? 0;
      if (docs < MIN_DOCS_OF_CORRECTION) continue;
      const corrected = correct(slipped);
      if (corrected === undefined) continue;
      if (best && (corrected.cost > best.cost || (corrected.cost === best.cost && docs <= best.docs))) continue;
      // Two guesses at once (a cut and a slip) need titles that hold the two words side by side.
      const pair = first ? `${fold(exact)} ${fold(corrected.word)}` : `${fold(corrected.word)} ${fold(exact)}`;
      if (!stats.pairs?.[pair]) continue;
      best = { pieces: first ? [exact, corrected.word] : [corrected.word, exact], cost: corrected.cost, docs };
    }
  }
  return best?.pieces;
}

// --- internal ---

/** A joined word is corrected when its split form has this many times its own evidence. */
const JOIN_RATIO = 20;
/** Each piece of a cut is used by this many times more postings than the word cut (and by MIN_DOCS_OF_CORRECTION). */
const SPLIT_RATIO = 30;
/** A word more postings use than this is cut only where titles hold its pieces side by side PAIR_RATIO times as often. */
const MAX_DOCS_OF_UNSPLIT = 1;
const PAIR_RATIO = 3;
/** Pieces shorter than this are not words to cut out; a two-letter one is a stop word ("in") or stands beside the other in titles ("ai engineer"). */
const MIN_PIECE = 2;
/** A misspelled piece is at least this long: shorter ones have too many neighbours. */
const MIN_SLIPPED = 4;
const STOP = new Set(STOP_WORDS);

interface Cut {
  /** Postings each piece must be in. */
  needed: number;
  /** Titles that must hold two pieces side by side (0: none). */
  together: number;
  stats: TermStats;
}

function bestCut(word: string, cut: Cut): string[] | undefined {
  let best: { pieces: string[]; together: number; least: number } | undefined;
  for (let at = MIN_PIECE; at <= word.length - MIN_PIECE; at++) {
    const left = word.slice(0, at);
    const right = word.slice(at);
    const least = Math.min(docs(left, cut.stats), docs(right, cut.stats));
    if (least < cut.needed) continue;
    const together = cut.stats.pairs?.[`${fold(left)} ${fold(right)}`] ?? 0;
    if (together < cut.together || (together === 0 && [left, right].some((p) => p.length === 2 && !STOP.has(p)))) continue;
    if (!best || together > best.together || (together === best.together && least > best.least)) {
      best = { pieces: [left, right], together, least };
    }
  }
  return best?.pieces;
}

function bestCut3(word: string, cut: Cut): string[] | undefined {
  let best: { pieces: string[]; least: number } | undefined;
  for (let at = MIN_PIECE; at <= word.length - 2 * MIN_PIECE; at++) {
    const first = word.slice(0, at);
    const firstDocs = docs(first, cut.stats);
    if (firstDocs < cut.needed || (first.length === 2 && !STOP.has(first))) continue;
    const rest = bestCut(word.slice(at), cut);
    if (!rest) continue;
    const least = Math.min(firstDocs, ...rest.map((piece) => docs(piece, cut.stats)));
    if (!best || least > best.least) best = { pieces: [first, ...rest], least };
  }
  return best?.pieces;
}

function docs(piece: string, stats: TermStats): number {
  return piece.length >= MIN_PIECE ? (stats.df[fold(piece)] ?? 0) : 0;
}

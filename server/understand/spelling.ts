import { LRUCache } from "lru-cache";
import type { TermStats } from "../store/term-stats.ts";
import { fold } from "../text/fold.ts";
import { SPELLED_WORD } from "../text/words.ts";
import { joinedForm, splitForm, splitWithSlip } from "./compounds.ts";
import { typingDistance } from "./typing-distance.ts";
import { MIN_DOCS_OF_CORRECTION, mostDocs, vocabularyOf, type Vocabulary } from "./vocabulary.ts";

/*
 * Typo tolerance from the corpus's own vocabulary, by evidence: a query word is replaced by a word
 * the postings use far more often (EVIDENCE_RATIO times, however often the typed word itself occurs)
 * within a small keyboard-aware distance: "javasript" → "javascript", "developper" (11 postings) →
 * "developer" (10,502). Words typed apart that the postings write as one are joined ("type script"),
 * and a word run together is cut into the words the postings use ("datascience"): compounds.ts.
 * Candidates come from a SymSpell index of the term statistics (vocabulary.ts), costed by
 * typing-distance.ts. A word that names a company or a tag of the data, a word of the knowledge base,
 * and a short word or one typed in capitals that postings use (an acronym) is never corrected.
 */

export interface Correction {
  /** The query with its misspelled words replaced; the same string when nothing was corrected. */
  text: string;
  /** Each replaced word, as typed and as corrected. */
  changes: Array<{ from: string; to: string }>;
}

/**
 * `query` with its misspellings corrected (see above). `known` are the knowledge base's words as
 * written ("software", "postgres"): never corrected, and candidates beside the data's words.
 */
export function correctSpelling(query: string, stats: TermStats | undefined, known: ReadonlySet<string>, remember = true): Correction {
  if (!stats || stats.docs === 0) return { text: query, changes: [] };
  const changes: Correction["changes"] = [];
  const words = [...query.matchAll(SPELLED_WORD)];
  let text = "";
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    let from = word[0];
    let to: string | undefined;
    if (next && /^\s+$/.test(query.slice(word.index + from.length, next.index))) {
      to = joinedForm(from.toLowerCase(), next[0].toLowerCase(), stats);
      if (to !== undefined) {
        from = query.slice(word.index, next.index + next[0].length);
        i++;
      }
    }
    to ??= correctedOnce(from, stats, known, remember);
    if (to === undefined) continue;
    changes.push({ from, to });
    text += query.slice(at, word.index) + (/^\p{Lu}/u.test(from) ? to[0]!.toUpperCase() + to.slice(1) : to);
    at = word.index + from.length;
  }
  return changes.length === 0 ? { text: query, changes } : { text: text + query.slice(at), changes };
}

// --- internal ---

/** Shorter words have too many neighbours to correct safely. */
const MIN_LENGTH = 3;
/** A correction is used by this many times more postings than the word typed ... */
const EVIDENCE_RATIO = 30;
/** ... and a word more than MAX_DOCS_OF_TYPO postings use, by this many times more: in postings, "developper" is 1 in ~950 "developer", "manger" 1 in ~1,300 "manager"; "four" is 1 in 100 "for". */
const MAX_DOCS_OF_TYPO = 5;
const USED_WORD_RATIO = 450;
const MIN_LENGTH_OF_USED_TYPO = 6;
/** Any one edit (a substitution off the neighbouring keys costs 1.5). */
const ONE_EDIT = 1.5;

/** The word's correction (one word, or the words it was run together from), or undefined to keep it. */
/**
 * correctWord's answer, worked out once per word typed for the same statistics and known words: a
 * word's correction depends on nothing else, and looking one up (~0.1–1 ms) recurs in every query and
 * profile that uses the word.
 */
function correctedOnce(word: string, stats: TermStats, known: ReadonlySet<string>, remember: boolean): string | undefined {
  let byKnown = corrections.get(stats);
  if (byKnown === undefined) corrections.set(stats, (byKnown = new WeakMap()));
  let memo = byKnown.get(known);
  if (memo === undefined) byKnown.set(known, (memo = new LRUCache({ max: CORRECTIONS_KEPT })));
  const kept = memo.get(word);
  if (kept !== undefined) return kept === NO_CORRECTION ? undefined : kept;
  const to = correctWord(word, stats, known);
  // A profile's words are never kept (`remember` false): nothing of a profile outlives its request.
  if (remember) memo.set(word, to ?? NO_CORRECTION);
  return to;
}

const corrections = new WeakMap<TermStats, WeakMap<ReadonlySet<string>, LRUCache<string, string>>>();
/** Words whose correction is kept per statistics (a few MB at most). */
const CORRECTIONS_KEPT = 20_000;
/** Kept for a word that needs none (no correction is ever empty). */
const NO_CORRECTION = "";

function correctWord(word: string, stats: TermStats, known: ReadonlySet<string>): string | undefined {
  const lower = word.toLowerCase();
  const folded = fold(lower);
  if (folded.length < MIN_LENGTH) return undefined;
  const seen = stats.df[folded] ?? 0;
  // An acronym (three letters, or typed in capitals) that postings use is theirs, not a typo.
  if (seen > 0 && (folded.length === 3 || /^\p{Lu}{2,}$/u.test(word))) return undefined;
  // No word is used by enough postings to correct a word this common (and the index is not needed).
  if (needed(seen) > mostDocs(stats)) return undefined;
  // Only now the vocabulary (built once per statistics, ~0.3 s).
  const vocabulary = vocabularyOf(stats, known);
  if (vocabulary.written.has(folded) || vocabulary.protected.has(folded)) return undefined;
  const corrected = (typed: string, limit: number) => {
    const base = fold(typed);
    const best = bestCandidate(base, stats.df[base] ?? 0, vocabulary, limit);
    return best && { word: surface(typed, base, best.term, vocabulary.written.get(best.term) ?? best.term), cost: best.cost };
  };
  // One slip is likelier than two words run together ("developper", not "develop per"), which is
  // likelier than two slips ("graphicsprogrammer" is two words, though two edits from no word).
  const pieces = () => splitForm(lower, seen, stats)?.join(" ");
  // A word some postings use is a slip only if one edit of a long word ("developper", not "hash" or "powder").
  if (seen > MAX_DOCS_OF_TYPO) return (folded.length >= MIN_LENGTH_OF_USED_TYPO ? corrected(lower, ONE_EDIT)?.word : undefined) ?? pieces();
  const slipped = () => (seen > 0 ? undefined : splitWithSlip(lower, stats, (piece) => corrected(piece, budget(piece.length)))?.join(" "));
  return corrected(lower, 1)?.word ?? pieces() ?? corrected(lower, budget(folded.length))?.word ?? slipped();
}

/** Postings a correction must be in: EVIDENCE_RATIO times the word typed, and USED_WORD_RATIO times a word more than a few postings use. */
function needed(seen: number): number {
  return Math.max(MIN_DOCS_OF_CORRECTION, seen <= MAX_DOCS_OF_TYPO ? EVIDENCE_RATIO * (seen + 1) : USED_WORD_RATIO * seen);
}

/** How far a word of this length may be from its correction: one slip up to five letters, two from six. */
function budget(length: number): number {
  return length <= 5 ? 1 : 2;
}

function bestCandidate(word: string, seen: number, vocabulary: Vocabulary, limit: number): { term: string; cost: number } | undefined {
  let best: { term: string; cost: number; docs: number; known: boolean } | undefined;
  for (const { term } of vocabulary.index.search(word)) {
    if (term === word) continue;
    const docs = vocabulary.docs.get(term) ?? 0;
    if (docs < needed(seen)) continue;
    // People rarely mistype a word's first letter ("gone" is not "one", "rational" not "national").
    if (term[0] !== word[0]) continue;
    const cost = typingDistance(word, term);
    if (cost > limit) continue;
    // Of equal cost, a word of the knowledge base (the words of jobs: "scala" over "scal" for "scalq"), then the commoner.
    const known = vocabulary.written.has(term);
    if (!best || cost < best.cost || (cost === best.cost && (known > best.known || (known === best.known && docs > best.docs)))) {
      best = { term, cost, docs, known };
    }
  }
  return best;
}

/**
 * The correction as the person would write it: the corrected word with the ending folding took off
 * the typed word ("develoers" folds to "develoer", corrected to "developer", written "developers"),
 * when that ending still folds to the correction (a lone "e" is a slip: "drivee" is not "drivene").
 */
function surface(typed: string, folded: string, correction: string, written: string): string {
  const ending = typed.startsWith(folded) ? typed.slice(folded.length) : "";
  return ending !== "" && ending !== "e" && fold(written + ending) === correction ? written + ending : written;
}

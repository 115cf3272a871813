import { SymSpell } from "mnemonist";
import type { TermStats } from "../store/term-stats.ts";
import { contentKeys } from "../text/query-tokens.ts";
import { fold } from "../text/fold.ts";
import { CORRECTABLE_WORD, isVocabularyWord } from "../text/words.ts";

/*
 * Typo tolerance from the corpus's own vocabulary. A query word with little evidence in the postings
 * (in at most a few of them) is replaced by a word within a small edit distance that the postings use
 * far more often: "javasript" → "javascript", "develoer" → "developer", "elasticsaerch" →
 * "elasticsearch". Candidates come from a SymSpell index (mnemonist) of the words of the term
 * statistics; each is then costed by a keyboard-aware Damerau distance (a slip onto a neighbouring key
 * or a swap of two letters costs less than any other change). A word that names a company or a tag of
 * the data, or a word of the knowledge base, is never corrected, however rare.
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
export function correctSpelling(query: string, stats: TermStats | undefined, known: ReadonlySet<string>): Correction {
  if (!stats || stats.docs === 0) return { text: query, changes: [] };
  const changes: Correction["changes"] = [];
  const text = query.replace(CORRECTABLE_WORD, (word) => {
    const lower = word.toLowerCase();
    const folded = fold(lower);
    if (folded.length < MIN_LENGTH) return word;
    const seen = stats.df[folded] ?? 0;
    // A three-letter word is often an acronym: corrected only when no posting has it.
    if (seen > (folded.length === 3 ? 0 : MAX_DOCS_OF_TYPO)) return word;
    // Only now, for a word the postings barely use, the vocabulary (built once per statistics, ~0.3 s).
    const vocabulary = vocabularyOf(stats, known);
    if (vocabulary.written.has(folded) || vocabulary.protected.has(folded)) return word;
    const best = bestCandidate(folded, seen, vocabulary);
    if (best === undefined) return word;
    const corrected = surface(lower, folded, best, vocabulary.written.get(best) ?? best);
    changes.push({ from: word, to: corrected });
    return /^\p{Lu}/u.test(word) ? corrected[0]!.toUpperCase() + corrected.slice(1) : corrected;
  });
  return { text, changes };
}

// --- internal ---

/** Shorter words have too many neighbours to correct safely. */
const MIN_LENGTH = 3;
/** A word in more postings than this is a word of the data, not a typo. */
const MAX_DOCS_OF_TYPO = 5;
/** A correction must be in at least this many postings (the vocabulary is these words), and this many times more than the word typed. */
const MIN_DOCS_OF_CORRECTION = 20;
const EVIDENCE_RATIO = 30;

interface Vocabulary {
  index: SymSpell;
  /** Postings holding each candidate word (for a knowledge-base word, those holding the word it is searched as). */
  docs: Map<string, number>;
  /** Knowledge-base words by their folded form, as written ("softwar" → "software"). */
  written: Map<string, string>;
  /** Folded words of company names and tags: never corrected. */
  protected: Set<string>;
}

const VOCABULARIES = new WeakMap<TermStats, Vocabulary>();

/** Built once per term statistics (~0.3 s for 30k postings; a load writes new statistics). */
function vocabularyOf(stats: TermStats, known: ReadonlySet<string>): Vocabulary {
  let vocabulary = VOCABULARIES.get(stats);
  if (vocabulary) return vocabulary;
  const index = new SymSpell({ maxDistance: 2, verbosity: 2 });
  const docs = new Map<string, number>();
  for (const [word, n] of Object.entries(stats.df)) {
    if (n >= MIN_DOCS_OF_CORRECTION && isVocabularyWord(word)) docs.set(word, n);
  }
  const written = new Map<string, string>();
  for (const word of known) {
    const folded = fold(word);
    if (!isVocabularyWord(folded) || written.has(folded)) continue;
    written.set(folded, word);
    const searchedAs = contentKeys(word, true)[0];
    docs.set(folded, Math.max(docs.get(folded) ?? 0, (searchedAs && stats.df[searchedAs]) || 0));
  }
  for (const word of docs.keys()) index.add(word);
  vocabulary = { index, docs, written, protected: new Set(stats.names ?? []) };
  VOCABULARIES.set(stats, vocabulary);
  return vocabulary;
}

/** How far a word of this length may be from its correction: one slip up to five letters, two from six. */
function budget(length: number): number {
  return length <= 5 ? 1 : 2;
}

function bestCandidate(word: string, seen: number, vocabulary: Vocabulary): string | undefined {
  const limit = budget(word.length);
  let best: { term: string; cost: number; docs: number } | undefined;
  for (const { term } of vocabulary.index.search(word)) {
    if (term === word) continue;
    const docs = vocabulary.docs.get(term) ?? 0;
    if (docs < MIN_DOCS_OF_CORRECTION || docs < EVIDENCE_RATIO * (seen + 1)) continue;
    const cost = typingDistance(word, term);
    if (cost > limit) continue;
    if (!best || cost < best.cost || (cost === best.cost && docs > best.docs)) best = { term, cost, docs };
  }
  return best?.term;
}

/**
 * The correction as the person would write it: the corrected word with the ending folding took off
 * the typed word ("develoers" folds to "develoer", corrected to "developer", written "developers"),
 * when that ending still folds to the correction.
 */
function surface(typed: string, folded: string, correction: string, written: string): string {
  const ending = typed.startsWith(folded) ? typed.slice(folded.length) : "";
  return ending !== "" && fold(written + ending) === correction ? written + ending : written;
}

/** Neighbouring keys on a QWERTY keyboard. */
const NEIGHBOURS: Record<string, string> = {
  q: "wa", w: "qesa", e: "wrds", r: "etfd", t: "ryfg", y: "tugh", u: "yihj", i: "uojk", o: "ipkl", p: "ol",
  a: "qwsz", s: "awedxz", d: "serfcx", f: "drtgvc", g: "ftyhbv", h: "gyujnb", j: "huikmn", k: "jiolm", l: "kop",
  z: "asx", x: "zsdc", c: "xdfv", v: "cfgb", b: "vghn", n: "bhjm", m: "njk",
};

/**
 * Optimal-string-alignment distance where dropping, doubling or inserting a letter, swapping two
 * neighbours and hitting a neighbouring key cost 1, and any other substitution 1.5.
 */
function typingDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      const substitution = x === y ? 0 : NEIGHBOURS[x]?.includes(y) || (VOWELS.has(x) && VOWELS.has(y)) ? 1 : 1.5;
      let cost = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + substitution);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) cost = Math.min(cost, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = cost;
    }
  }
  return d[rows * cols - 1]!;
}

const VOWELS = new Set("aeiou");

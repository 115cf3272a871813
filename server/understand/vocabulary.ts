import { SymSpell } from "mnemonist";
import type { TermStats } from "../store/term-stats.ts";
import { contentKeys } from "../text/query-tokens.ts";
import { fold } from "../text/fold.ts";
import { isVocabularyWord } from "../text/words.ts";

/*
 * The words spelling may correct into: those of the term statistics used by enough postings, and the
 * knowledge base's words as written, in a SymSpell index (mnemonist) for candidates within two edits.
 */

/** A correction must be in at least this many postings: rarer words are too thin evidence to correct into. */
export const MIN_DOCS_OF_CORRECTION = 20;

export interface Vocabulary {
  index: SymSpell;
  /** Postings holding each candidate word (for a knowledge-base word, those holding the word it is searched as). */
  docs: Map<string, number>;
  /** Knowledge-base words by their folded form, as written ("softwar" → "software"). */
  written: Map<string, string>;
  /** Folded words of company names and tags: never corrected. */
  protected: Set<string>;
}

/** Built once per term statistics (~0.3 s for 30k postings; a load writes new statistics). */
export function vocabularyOf(stats: TermStats, known: ReadonlySet<string>): Vocabulary {
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

/** The most postings any word is in: a word in more than this / ratio postings can have no correction. */
export function mostDocs(stats: TermStats): number {
  let most = MOST_DOCS.get(stats);
  if (most === undefined) {
    most = 0;
    for (const n of Object.values(stats.df)) if (n > most) most = n;
    MOST_DOCS.set(stats, most);
  }
  return most;
}

// --- internal ---

const VOCABULARIES = new WeakMap<TermStats, Vocabulary>();
const MOST_DOCS = new WeakMap<TermStats, number>();

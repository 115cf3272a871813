import { splitRankTerms, type RankingTerms, type RowTerms, type TermSet } from "../text/rank-terms.ts";
import { detached } from "../text/detach.ts";

/*
 * The ranking words of the postings the in-memory copy has decoded, held compactly: each distinct
 * word once, in a dictionary of the copy, and a posting's words as numbers in one shared pool.
 * As Sets of strings they cost ~13 KB a posting (114 words each, a string and a Set entry apiece:
 * 390 MB at 29.5k postings, bench/perf/memory-profile.ts); as numbers ~0.8 KB. The sets answer as
 * Sets do: `has`, `size`, and the words in their first-seen order.
 */

/** The words of one copy's decoded postings; encodes a posting's ranking terms into sets over it. */
export class TermDictionary {
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private pool = new Int32Array(1 << 16);
  private used = 0;
  /** Per word, the last set that met it (`stamp`): a set's duplicates are dropped without a Set. */
  private seen = new Int32Array(1 << 14);
  private stamp = 0;

  /** The posting's title, text and CJK words as sets, equal (as sets, in order) to rowTerms'. */
  encode(row: RankingTerms): RowTerms {
    const { title, text } = splitRankTerms(row.rank_terms);
    return { title: this.set(title), text: this.set(text), cjk: this.set(row.cjk_text === "" ? [] : row.cjk_text.split(" ")) };
  }

  /** Bytes held: the pool, the words and the dictionary's entries (roughly). */
  bytes(): number {
    return this.pool.byteLength + this.seen.byteLength + this.words.reduce((sum, word) => sum + 64 + word.length * 2, 0);
  }

  idOf(word: string): number | undefined {
    return this.ids.get(word);
  }

  word(id: number): string {
    return this.words[id]!;
  }

  /** The pool as it is now (it is replaced when it grows: sets read it through the dictionary). */
  ints(): Int32Array {
    return this.pool;
  }

  // --- internal ---

  private set(words: string[]): TermSet {
    // The ids in first-seen order, then (for a larger set) the same ids sorted, written straight into the pool.
    this.reserve(words.length * 2);
    const start = this.used;
    const stamp = ++this.stamp;
    let size = 0;
    for (const word of words) {
      const id = this.intern(word);
      if (this.seen[id] === stamp) continue;
      this.seen[id] = stamp;
      this.pool[start + size++] = id;
    }
    if (size > LINEAR_MAX) {
      this.pool.copyWithin(start + size, start, start + size);
      this.pool.subarray(start + size, start + 2 * size).sort();
    }
    this.used = start + (size > LINEAR_MAX ? 2 * size : size);
    return new CompactTermSet(this, start, size);
  }

  private intern(word: string): number {
    let id = this.ids.get(word);
    if (id === undefined) {
      // A word split from a longer string shares that string's memory (text/detach.ts).
      const own = detached(word);
      id = this.words.length;
      this.ids.set(own, id);
      this.words.push(own);
      if (id >= this.seen.length) {
        const grown = new Int32Array(this.seen.length * 2);
        grown.set(this.seen);
        this.seen = grown;
      }
    }
    return id;
  }

  private reserve(ints: number): void {
    if (this.used + ints <= this.pool.length) return;
    const grown = new Int32Array(Math.max(this.pool.length * 2, this.used + ints));
    grown.set(this.pool.subarray(0, this.used));
    this.pool = grown;
  }
}

// --- internal ---

/** Sets up to this size are searched in order; larger ones keep a sorted copy of their ids too. */
const LINEAR_MAX = 12;

class CompactTermSet implements TermSet {
  constructor(
    private readonly dictionary: TermDictionary,
    private readonly start: number,
    readonly size: number,
  ) {}

  has(word: string): boolean {
    const id = this.dictionary.idOf(word);
    if (id === undefined) return false;
    const ints = this.dictionary.ints();
    if (this.size <= LINEAR_MAX) {
      for (let i = this.start, end = this.start + this.size; i < end; i++) if (ints[i] === id) return true;
      return false;
    }
    let low = this.start + this.size;
    let high = low + this.size - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const at = ints[middle]!;
      if (at === id) return true;
      if (at < id) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  *[Symbol.iterator](): IterableIterator<string> {
    const ints = this.dictionary.ints();
    for (let i = this.start, end = this.start + this.size; i < end; i++) yield this.dictionary.word(ints[i]!);
  }
}

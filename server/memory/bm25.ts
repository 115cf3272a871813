import { detached } from "../text/detach.ts";
/*
 * BM25 over one text field held in memory: a postings list per token (documents and their term
 * weights). Scores as LanceDB's inverted index does (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5) / (n + 0.5)),
 * N and the average length over the documents whose field is set), so a clause ranks as it would there.
 */

export interface FieldIndex {
  /** Token → its list's number: list `n` is `docs`/`weights` from `starts[n]` to `starts[n + 1]`. */
  lists: Map<string, number>;
  starts: Uint32Array;
  /**
   * Every list's documents (ascending within a list) and each one's term weight, BM25 but for the idf:
   * (k1 + 1)·tf / (tf + k1·(1 − b + b·length/average)), computed once when the index is built. One
   * array each rather than two per token: 166k tokens' typed arrays cost ~200 B apiece more.
   */
  docs: Int32Array;
  weights: Float32Array;
  /** Documents whose field is set (the idf's N). */
  documents: number;
}

/**
 * Builds a field's index document by document (documents in ascending order). A null field, and one
 * without a token (an empty cjk_text: every posting not in a CJK script), counts, as in LanceDB,
 * neither in the number of documents nor in the average length (counting empty ones put the copy's
 * CJK scores up to 10× LanceDB's).
 */
export class FieldBuilder {
  private readonly docs = new Map<string, number[]>();
  private readonly counts = new Map<string, number[]>();
  private readonly lengths: number[] = [];
  private readonly seen = new Map<string, number>();
  private total = 0;
  private present = 0;

  add(doc: number, tokens: string[] | null): void {
    this.lengths[doc] = tokens?.length ?? 0;
    if (tokens === null || tokens.length === 0) return;
    this.present++;
    this.total += tokens.length;
    const seen = this.seen;
    seen.clear();
    for (const token of tokens) seen.set(token, (seen.get(token) ?? 0) + 1);
    for (const [token, n] of seen) {
      let list = this.docs.get(token);
      if (list === undefined) {
        list = [];
        // A token split from a description may share that description's memory: the index keeps its own copy.
        const own = detached(token);
        this.docs.set(own, list);
        this.counts.set(own, []);
      }
      list.push(doc);
      this.counts.get(token)!.push(Math.min(n, 65_535));
    }
  }

  finish(count: number): FieldIndex {
    const lengths = new Uint32Array(count);
    this.lengths.forEach((length, doc) => (lengths[doc] = length));
    const averageLength = this.present === 0 ? 0 : this.total / this.present;
    let entries = 0;
    for (const docs of this.docs.values()) entries += docs.length;
    const lists = new Map<string, number>();
    const starts = new Uint32Array(this.docs.size + 1);
    const allDocs = new Int32Array(entries);
    const weights = new Float32Array(entries);
    let at = 0;
    for (const [token, docs] of this.docs) {
      const counts = this.counts.get(token)!;
      starts[lists.size] = at;
      lists.set(token, lists.size);
      docs.forEach((doc, j) => {
        allDocs[at] = doc;
        weights[at++] = ((K1 + 1) * counts[j]!) / (counts[j]! + K1 * (1 - B + (B * lengths[doc]!) / averageLength));
      });
    }
    starts[lists.size] = at;
    this.docs.clear();
    this.counts.clear();
    return { lists, starts, docs: allDocs, weights, documents: this.present };
  }
}

/**
 * Adds `boost` × BM25 of `tokens` to `scores` for every document holding one of them that `allowed`
 * admits (all when undefined); `touched` collects each document the first time it scores.
 */
export function scoreField(
  field: FieldIndex,
  tokens: string[],
  boost: number,
  scores: Float64Array,
  touched: number[],
  allowed: Uint8Array | undefined,
): void {
  const { documents, docs, weights, starts } = field;
  for (const token of tokens) {
    const list = field.lists.get(token);
    if (list === undefined) continue;
    const from = starts[list]!;
    const to = starts[list + 1]!;
    const n = to - from;
    const scale = boost * Math.log(1 + (documents - n + 0.5) / (n + 0.5));
    for (let j = from; j < to; j++) {
      const doc = docs[j]!;
      if (allowed !== undefined && allowed[doc] === 0) continue;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc]! += scale * weights[j]!;
    }
  }
}

/** Bytes the index holds: what bounds the in-memory copy (see docs/performance.md). */
export function fieldBytes(field: FieldIndex): number {
  let bytes = field.starts.byteLength + field.docs.byteLength + field.weights.byteLength;
  for (const token of field.lists.keys()) bytes += token.length * 2 + 48;
  return bytes;
}

// --- internal ---

const K1 = 1.2;
const B = 0.75;

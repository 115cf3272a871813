/*
 * BM25 over one text field held in memory: a postings list per token (documents and their term
 * weights). Scores as LanceDB's inverted index does (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5) / (n + 0.5)),
 * N and the average length over the documents whose field is set), so a clause ranks as it would there.
 */

export interface FieldIndex {
  /**
   * Token → the documents holding it (ascending) and each one's term weight, BM25 but for the idf:
   * (k1 + 1)·tf / (tf + k1·(1 − b + b·length/average)), computed once when the index is built.
   */
  postings: Map<string, { docs: Int32Array; weights: Float32Array }>;
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
        this.docs.set(token, list);
        this.counts.set(token, []);
      }
      list.push(doc);
      this.counts.get(token)!.push(Math.min(n, 65_535));
    }
  }

  finish(count: number): FieldIndex {
    const lengths = new Uint32Array(count);
    this.lengths.forEach((length, doc) => (lengths[doc] = length));
    const averageLength = this.present === 0 ? 0 : this.total / this.present;
    const postings = new Map<string, { docs: Int32Array; weights: Float32Array }>();
    for (const [token, docs] of this.docs) {
      const counts = this.counts.get(token)!;
      const weights = new Float32Array(docs.length);
      docs.forEach((doc, j) => (weights[j] = ((K1 + 1) * counts[j]!) / (counts[j]! + K1 * (1 - B + (B * lengths[doc]!) / averageLength))));
      postings.set(token, { docs: Int32Array.from(docs), weights });
    }
    return { postings, documents: this.present };
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
  const { documents } = field;
  for (const token of tokens) {
    const list = field.postings.get(token);
    if (list === undefined) continue;
    const { docs, weights } = list;
    const n = docs.length;
    const scale = boost * Math.log(1 + (documents - n + 0.5) / (n + 0.5));
    for (let j = 0; j < n; j++) {
      const doc = docs[j]!;
      if (allowed !== undefined && allowed[doc] === 0) continue;
      if (scores[doc] === 0) touched.push(doc);
      scores[doc]! += scale * weights[j]!;
    }
  }
}

/** Bytes the index holds: what bounds the in-memory copy (see docs/performance.md). */
export function fieldBytes(field: FieldIndex): number {
  let bytes = 0;
  for (const [token, list] of field.postings) bytes += token.length * 2 + 64 + list.docs.byteLength + list.weights.byteLength;
  return bytes;
}

// --- internal ---

const K1 = 1.2;
const B = 0.75;

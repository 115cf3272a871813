/*
 * BM25 over one text field held in memory: postings lists (document numbers and term counts) per
 * token, and each document's length in tokens. Scores as LanceDB's inverted index does
 * (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5) / (n + 0.5))), so a clause scored here ranks as it would there.
 */

export interface FieldIndex {
  /** Token → the documents holding it (ascending) and how often each holds it. */
  postings: Map<string, { docs: Int32Array; counts: Uint16Array }>;
  lengths: Uint32Array;
  averageLength: number;
  documents: number;
}

/**
 * Builds a field's index document by document (documents in ascending order). A null field counts,
 * as in LanceDB, neither in the number of documents nor in the average length.
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
    if (tokens === null) return;
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
    const postings = new Map<string, { docs: Int32Array; counts: Uint16Array }>();
    for (const [token, list] of this.docs) postings.set(token, { docs: Int32Array.from(list), counts: Uint16Array.from(this.counts.get(token)!) });
    const lengths = new Uint32Array(count);
    this.lengths.forEach((length, doc) => (lengths[doc] = length));
    return { postings, lengths, averageLength: this.present === 0 ? 0 : this.total / this.present, documents: this.present };
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
  const { lengths, averageLength, documents } = field;
  for (const token of tokens) {
    const list = field.postings.get(token);
    if (list === undefined) continue;
    const n = list.docs.length;
    const idf = Math.log(1 + (documents - n + 0.5) / (n + 0.5));
    const weight = boost * idf * (K1 + 1);
    for (let j = 0; j < n; j++) {
      const doc = list.docs[j]!;
      if (allowed !== undefined && allowed[doc] === 0) continue;
      const tf = list.counts[j]!;
      const norm = K1 * (1 - B + (B * lengths[doc]!) / averageLength);
      if (scores[doc] === 0) touched.push(doc);
      scores[doc]! += (weight * tf) / (tf + norm);
    }
  }
}

/** Bytes the index holds: what bounds the in-memory path (see docs/performance.md). */
export function fieldBytes(field: FieldIndex): number {
  let bytes = field.lengths.byteLength;
  for (const [token, list] of field.postings) bytes += token.length * 2 + 64 + list.docs.byteLength + list.counts.byteLength;
  return bytes;
}

// --- internal ---

const K1 = 1.2;
const B = 0.75;

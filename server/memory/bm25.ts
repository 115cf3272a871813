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
 * Indexes `count` documents whose tokens `tokensOf(i)` gives; null = the field is null there, and
 * (as in LanceDB) the document then counts neither in the number of documents nor in the average length.
 */
export function indexField(count: number, tokensOf: (doc: number) => string[] | null): FieldIndex {
  const docs = new Map<string, number[]>();
  const counts = new Map<string, number[]>();
  const lengths = new Uint32Array(count);
  let total = 0;
  let present = 0;
  const seen = new Map<string, number>();
  for (let doc = 0; doc < count; doc++) {
    const tokens = tokensOf(doc);
    if (tokens === null) continue;
    present++;
    lengths[doc] = tokens.length;
    total += tokens.length;
    seen.clear();
    for (const token of tokens) seen.set(token, (seen.get(token) ?? 0) + 1);
    for (const [token, n] of seen) {
      let list = docs.get(token);
      if (list === undefined) {
        list = [];
        docs.set(token, list);
        counts.set(token, []);
      }
      list.push(doc);
      counts.get(token)!.push(Math.min(n, 65_535));
    }
  }
  const postings = new Map<string, { docs: Int32Array; counts: Uint16Array }>();
  for (const [token, list] of docs) postings.set(token, { docs: Int32Array.from(list), counts: Uint16Array.from(counts.get(token)!) });
  return { postings, lengths, averageLength: present === 0 ? 0 : total / present, documents: present };
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

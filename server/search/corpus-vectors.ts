import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as lancedb from "@lancedb/lancedb";
import { splitRankTerms } from "./ranking.ts";

const FILE = "corpus-vectors.bin";
const MAGIC = 0x43564543; // "CVEC" little-endian
const VERSION = 1;
/** Header: magic, version, vocabulary, dimension, vocabulary bytes, token total (uint32 each). */
const HEADER = 6;
/** Enough for every word of a few hundred thousand postings; pair keys (i·V + j) must fit in a uint32. */
const MAX_VOCABULARY = 30_000;
/** Context-distribution smoothing (Levy et al.): keeps rare contexts from getting huge PMI. */
const SMOOTHING = 0.75;
/** Extra random directions and power iterations of the randomized SVD (Halko et al.). */
const OVERSAMPLE = 16;
const POWER_ITERATIONS = 2;
const SEED = 0x5eed;
/** Five or more CJK characters in a row: a phrase or clause, not a word. */
const LONG_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{5}/u;
/** SIF's a: a word as common as 1 in 1,000 tokens counts half. */
const SIF_A = 1e-3;

/** Word vectors learnt from the ingested postings: they know this corpus's words and what goes with what. */
export interface CorpusVectors {
  dimension: number;
  vocabulary: number;
  /** unit-length SIF-weighted mean of the known tokens' vectors; undefined when no token is known */
  embed(tokens: string[]): Float32Array | undefined;
  /** The `k` words nearest to `token` (cosine, best first); empty when the token is unknown. */
  neighbours(token: string, k: number): Array<{ word: string; similarity: number }>;
}

/**
 * Builds word vectors from token lists (one per posting: the `text` half of rank_terms) by PPMI over a
 * sliding window and a truncated randomized SVD, and writes `<dataDir>/corpus-vectors.bin` atomically.
 * Deterministic: the same documents give the same file.
 */
export async function buildCorpusVectors(
  documents: AsyncIterable<string[]> | Iterable<string[]>,
  dataDir: string,
  options: { dimension?: number; minCount?: number; window?: number; log?: (m: string) => void } = {},
): Promise<{ vocabulary: number; dimension: number; ms: number }> {
  const start = performance.now();
  const { minCount = 5, window = 5, log } = options;
  const corpus = await readCorpus(documents);
  const { words, counts, ids } = chooseVocabulary(corpus, minCount);
  const dimension = Math.max(1, Math.min(options.dimension ?? 128, words.length));
  const ppmi = buildPpmi(corpus, ids, words.length, window);
  const counted = performance.now();
  const vectors = words.length === 0 ? new Float32Array(0) : embedWords(ppmi, dimension);
  const svdMs = Math.round(performance.now() - counted);
  writeVectors(join(dataDir, FILE), words, counts, corpus.total, dimension, vectors);
  const ms = Math.round(performance.now() - start);
  log?.(`corpus vectors: ${words.length} words × ${dimension} from ${corpus.offsets.length - 1} postings (${ppmi.values.length} PPMI cells) in ${ms} ms (SVD ${svdMs} ms)`);
  return { vocabulary: words.length, dimension, ms };
}

/**
 * The corpus vectors of `dataDir`, re-read when a load rewrote them (checked at most once a second).
 * Undefined until a first load wrote them; throws when the file is not a corpus-vectors file.
 */
export function corpusVectorsReader(dataDir: string): () => CorpusVectors | undefined {
  const path = join(dataDir, FILE);
  let cached: { stamp: string; vectors: CorpusVectors } | undefined;
  let checkedAt = 0;
  return () => {
    const now = Date.now();
    if (cached && now - checkedAt < 1000) return cached.vectors;
    checkedAt = now;
    if (!existsSync(path)) return cached?.vectors;
    const { mtimeMs, ino, size } = statSync(path);
    const stamp = `${mtimeMs}:${ino}:${size}`;
    if (cached?.stamp !== stamp) cached = { stamp, vectors: readVectors(readFileSync(path)) };
    return cached.vectors;
  };
}

/** Builds the corpus vectors from every posting's `rank_terms` in `table`. Run after every load. */
export async function writeCorpusVectors(table: lancedb.Table, dataDir: string): Promise<{ vocabulary: number; dimension: number; ms: number }> {
  async function* texts() {
    for await (const batch of table.query().select(["rank_terms"])) {
      const column = batch.getChild("rank_terms")!;
      for (let i = 0; i < batch.numRows; i++) yield splitRankTerms(String(column.get(i))).text;
    }
  }
  return buildCorpusVectors(texts(), dataDir);
}

// --- internal ---

/** Every document as interned token ids, end to end, so a one-pass iterable can be read twice. */
interface Corpus {
  tokens: string[];
  counts: number[];
  sequence: Uint32Array;
  offsets: number[];
  total: number;
}

/** A square sparse matrix in CSR form: row i's cells are columns[rows[i]..rows[i+1]). */
interface Sparse {
  size: number;
  rows: Uint32Array;
  columns: Uint32Array;
  values: Float32Array;
}

async function readCorpus(documents: AsyncIterable<string[]> | Iterable<string[]>): Promise<Corpus> {
  const interned = new Map<string, number>();
  const tokens: string[] = [];
  const counts: number[] = [];
  const sequence = growable();
  const offsets = [0];
  for await (const document of documents) {
    for (const token of document) {
      let id = interned.get(token);
      if (id === undefined) {
        id = tokens.length;
        interned.set(token, id);
        tokens.push(token);
        counts.push(0);
      }
      counts[id]!++;
      sequence.push(id);
    }
    offsets.push(sequence.length);
  }
  return { tokens, counts, sequence: sequence.array(), offsets, total: sequence.length };
}

/**
 * The most frequent words seen at least `minCount` times. Numbers are left out, and so are CJK runs
 * longer than a word: the tokenizer keeps a whole unspaced clause as one token, and a reposted
 * clause would otherwise become a "word" that is everything's neighbour.
 */
function chooseVocabulary(corpus: Corpus, minCount: number) {
  const chosen = corpus.tokens
    .map((_, id) => id)
    .filter((id) => corpus.counts[id]! >= minCount && !/^\d+$|\n/.test(corpus.tokens[id]!) && !LONG_CJK.test(corpus.tokens[id]!))
    .sort((a, b) => corpus.counts[b]! - corpus.counts[a]! || (corpus.tokens[a]! < corpus.tokens[b]! ? -1 : 1))
    .slice(0, MAX_VOCABULARY);
  const ids = new Int32Array(corpus.tokens.length).fill(-1);
  chosen.forEach((id, index) => (ids[id] = index));
  return { words: chosen.map((id) => corpus.tokens[id]!), counts: Uint32Array.from(chosen, (id) => corpus.counts[id]!), ids };
}

/** Counts word pairs within `window` positions (out-of-vocabulary words removed) and turns them into PPMI. */
function buildPpmi(corpus: Corpus, ids: Int32Array, size: number, window: number): Sparse {
  const keys = growable();
  const known: number[] = [];
  for (let d = 0; d + 1 < corpus.offsets.length; d++) {
    known.length = 0;
    for (let p = corpus.offsets[d]!; p < corpus.offsets[d + 1]!; p++) if (ids[corpus.sequence[p]!]! >= 0) known.push(ids[corpus.sequence[p]!]!);
    for (let p = 0; p < known.length; p++) {
      for (let q = p + 1; q <= p + window && q < known.length; q++) {
        const a = known[p]!;
        const b = known[q]!;
        if (a !== b) keys.push(a < b ? a * size + b : b * size + a);
      }
    }
  }
  const sorted = keys.array().sort();
  // Unique pairs (i < j) with their counts, and each word's row sum over the symmetric matrix.
  const pairs = growable();
  const pairCounts = growable();
  const rowSums = new Float64Array(size);
  const degree = new Uint32Array(size + 1);
  for (let k = 0; k < sorted.length; ) {
    let end = k;
    while (end < sorted.length && sorted[end] === sorted[k]) end++;
    const i = Math.floor(sorted[k]! / size);
    const j = sorted[k]! - i * size;
    pairs.push(sorted[k]!);
    pairCounts.push(end - k);
    rowSums[i]! += end - k;
    rowSums[j]! += end - k;
    degree[i + 1]!++;
    degree[j + 1]!++;
    k = end;
  }
  let z = 0;
  for (const sum of rowSums) z += sum ** SMOOTHING;
  const smoothed = rowSums.map((sum) => sum ** SMOOTHING);
  const rows = new Uint32Array(size + 1);
  for (let i = 0; i < size; i++) rows[i + 1] = rows[i]! + degree[i + 1]!;
  const fill = rows.slice(0, size);
  const columns = new Uint32Array(rows[size]!);
  const values = new Float32Array(rows[size]!);
  const keyArray = pairs.array();
  const countArray = pairCounts.array();
  for (let k = 0; k < keyArray.length; k++) {
    const i = Math.floor(keyArray[k]! / size);
    const j = keyArray[k]! - i * size;
    const count = countArray[k]!;
    const ij = Math.log((count * z) / (rowSums[i]! * smoothed[j]!));
    const ji = Math.log((count * z) / (rowSums[j]! * smoothed[i]!));
    if (ij > 0) (columns[fill[i]!] = j), (values[fill[i]!++] = ij);
    if (ji > 0) (columns[fill[j]!] = i), (values[fill[j]!++] = ji);
  }
  return compact({ size, rows, columns, values }, fill);
}

/** Drops the unused tail of each row (cells whose PMI was not positive). */
function compact(matrix: Sparse, ends: Uint32Array): Sparse {
  const rows = new Uint32Array(matrix.size + 1);
  for (let i = 0; i < matrix.size; i++) rows[i + 1] = rows[i]! + ends[i]! - matrix.rows[i]!;
  const columns = new Uint32Array(rows[matrix.size]!);
  const values = new Float32Array(rows[matrix.size]!);
  for (let i = 0; i < matrix.size; i++) {
    columns.set(matrix.columns.subarray(matrix.rows[i]!, ends[i]!), rows[i]!);
    values.set(matrix.values.subarray(matrix.rows[i]!, ends[i]!), rows[i]!);
  }
  return { size: matrix.size, rows, columns, values };
}

/**
 * Rank-`dimension` truncated SVD M ≈ U Σ Vᵀ by randomized range finding with power iterations
 * (Halko, Martinsson & Tropp 2011); returns the rows of U Σ^½, each of unit length.
 */
function embedWords(matrix: Sparse, dimension: number): Float32Array {
  const n = matrix.size;
  const width = Math.min(dimension + OVERSAMPLE, n);
  const random = gaussian(SEED);
  const test = new Float64Array(n * width).map(random);
  let basis = orthonormalize(multiply(matrix, test, width, false), n, width);
  for (let i = 0; i < POWER_ITERATIONS; i++) {
    basis = orthonormalize(multiply(matrix, basis, width, true), n, width);
    basis = orthonormalize(multiply(matrix, basis, width, false), n, width);
  }
  // B = Qᵀ M is small (width × n); the eigenvectors of B Bᵀ rotate Q onto M's left singular vectors.
  const bt = multiply(matrix, basis, width, true);
  const { values, vectors } = symmetricEigen(gram(bt, n, width), width);
  const order = [...values.keys()].sort((a, b) => values[b]! - values[a]!).slice(0, dimension);
  const scale = order.map((m) => Math.max(values[m]!, 0) ** 0.25);
  const out = new Float32Array(n * dimension);
  const row = new Float64Array(dimension);
  for (let i = 0; i < n; i++) {
    row.fill(0);
    for (let c = 0; c < width; c++) {
      const q = basis[i * width + c]!;
      for (let m = 0; m < dimension; m++) row[m]! += q * vectors[c * width + order[m]!]!;
    }
    let norm = 0;
    for (let m = 0; m < dimension; m++) norm += (row[m]! *= scale[m]!) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let m = 0; m < dimension; m++) out[i * dimension + m] = row[m]! / norm;
  }
  return out;
}

/** M·X (or Mᵀ·X) for a row-major n × width dense X. */
function multiply(matrix: Sparse, x: Float64Array, width: number, transposed: boolean): Float64Array {
  const y = new Float64Array(matrix.size * width);
  for (let i = 0; i < matrix.size; i++) {
    for (let k = matrix.rows[i]!; k < matrix.rows[i + 1]!; k++) {
      const v = matrix.values[k]!;
      const from = (transposed ? i : matrix.columns[k]!) * width;
      const to = (transposed ? matrix.columns[k]! : i) * width;
      for (let c = 0; c < width; c++) y[to + c]! += v * x[from + c]!;
    }
  }
  return y;
}

/** Orthonormal columns spanning those of a row-major n × width matrix (modified Gram-Schmidt). */
function orthonormalize(a: Float64Array, n: number, width: number): Float64Array {
  const columns = Array.from({ length: width }, (_, c) => {
    const column = new Float64Array(n);
    for (let i = 0; i < n; i++) column[i] = a[i * width + c]!;
    return column;
  });
  for (let c = 0; c < width; c++) {
    const v = columns[c]!;
    for (let p = 0; p < c; p++) {
      const u = columns[p]!;
      let dot = 0;
      for (let i = 0; i < n; i++) dot += u[i]! * v[i]!;
      for (let i = 0; i < n; i++) v[i]! -= dot * u[i]!;
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += v[i]! * v[i]!;
    // A column in the span of the earlier ones carries no direction: zero it rather than amplify noise.
    const inverse = norm > 1e-20 ? 1 / Math.sqrt(norm) : 0;
    for (let i = 0; i < n; i++) a[i * width + c] = v[i]! *= inverse;
  }
  return a;
}

/** Aᵀ·A for a row-major n × width matrix. */
function gram(a: Float64Array, n: number, width: number): Float64Array {
  const g = new Float64Array(width * width);
  for (let i = 0; i < n; i++) {
    const o = i * width;
    for (let r = 0; r < width; r++) {
      const v = a[o + r]!;
      if (v !== 0) for (let c = r; c < width; c++) g[r * width + c]! += v * a[o + c]!;
    }
  }
  for (let r = 0; r < width; r++) for (let c = 0; c < r; c++) g[r * width + c] = g[c * width + r]!;
  return g;
}

/** Eigenvalues and eigenvectors (columns, row-major) of a small symmetric matrix by cyclic Jacobi rotations. */
function symmetricEigen(a: Float64Array, n: number): { values: number[]; vectors: Float64Array } {
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let scale = 0;
  for (const x of a) scale += x * x;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off <= 1e-24 * scale) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!;
          const akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!;
          const aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
          const vkp = v[k * n + p]!;
          const vkq = v[k * n + q]!;
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Array.from({ length: n }, (_, i) => a[i * n + i]!), vectors: v };
}

/** Standard normal samples from a seeded mulberry32 generator (Box-Muller). */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 0.5) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** An append-only uint32 list. */
function growable() {
  let data = new Uint32Array(1024);
  let length = 0;
  return {
    get length() {
      return length;
    },
    push(value: number) {
      if (length === data.length) {
        const bigger = new Uint32Array(data.length * 2);
        bigger.set(data);
        data = bigger;
      }
      data[length++] = value;
    },
    array: () => data.subarray(0, length),
  };
}

function writeVectors(path: string, words: string[], counts: Uint32Array, total: number, dimension: number, vectors: Float32Array): void {
  const vocabulary = new TextEncoder().encode(words.join("\n"));
  const padded = Math.ceil(vocabulary.length / 4) * 4;
  const bytes = new Uint8Array(HEADER * 4 + padded + counts.byteLength + vectors.byteLength);
  bytes.set(new Uint8Array(Uint32Array.of(MAGIC, VERSION, words.length, dimension, vocabulary.length, total).buffer), 0);
  bytes.set(vocabulary, HEADER * 4);
  bytes.set(new Uint8Array(counts.buffer, counts.byteOffset, counts.byteLength), HEADER * 4 + padded);
  bytes.set(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength), HEADER * 4 + padded + counts.byteLength);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, path);
}

function readVectors(file: Uint8Array): CorpusVectors {
  // Typed-array views need 4-byte alignment; a copy is cheap next to the read.
  const bytes = file.byteOffset % 4 === 0 ? file : file.slice();
  const header = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER);
  const [magic, version, vocabulary = 0, dimension = 0, vocabularyBytes = 0, total = 0] = header;
  if (magic !== MAGIC || version !== VERSION) throw new Error(`not a corpus-vectors file (version ${VERSION})`);
  const text = new TextDecoder().decode(bytes.subarray(HEADER * 4, HEADER * 4 + vocabularyBytes));
  const index = new Map<string, number>();
  const words = vocabulary > 0 ? text.split("\n") : [];
  words.forEach((word, i) => index.set(word, i));
  const countsAt = bytes.byteOffset + HEADER * 4 + Math.ceil(vocabularyBytes / 4) * 4;
  const counts = new Uint32Array(bytes.buffer, countsAt, vocabulary);
  const matrix = new Float32Array(bytes.buffer, countsAt + counts.byteLength, vocabulary * dimension);
  const weights = Float32Array.from(counts, (count) => SIF_A / (SIF_A + count / Math.max(total, 1)));
  return {
    dimension,
    vocabulary,
    neighbours(token, k) {
      const i = index.get(token);
      if (i === undefined) return [];
      const best: Array<{ word: string; similarity: number }> = [];
      const o = i * dimension;
      for (let j = 0; j < vocabulary; j++) {
        if (j === i) continue;
        let dot = 0;
        const p = j * dimension;
        for (let m = 0; m < dimension; m++) dot += matrix[o + m]! * matrix[p + m]!;
        if (best.length < k || dot > best[best.length - 1]!.similarity) {
          best.push({ word: words[j]!, similarity: dot });
          best.sort((a, b) => b.similarity - a.similarity);
          if (best.length > k) best.pop();
        }
      }
      return best;
    },
    embed(tokens) {
      const sum = new Float32Array(dimension);
      let known = false;
      for (const token of tokens) {
        const i = index.get(token);
        if (i === undefined) continue;
        known = true;
        const w = weights[i]!;
        const o = i * dimension;
        for (let m = 0; m < dimension; m++) sum[m]! += w * matrix[o + m]!;
      }
      let norm = 0;
      for (let m = 0; m < dimension; m++) norm += sum[m]! * sum[m]!;
      if (!known || norm === 0) return undefined;
      const inverse = 1 / Math.sqrt(norm);
      for (let m = 0; m < dimension; m++) sum[m]! *= inverse;
      return sum;
    },
  };
}

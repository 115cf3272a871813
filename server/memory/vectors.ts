/*
 * Nearest vectors held in memory: unit vectors row after row in one array, grouped into
 * partitions by k-means (an inverted file, as LanceDB's IVF). A search ranks the partitions by their
 * centroid and reads the nearest ones until it has looked at enough rows; a narrow filter's rows are
 * read exactly instead. Dot product = cosine (every vector has unit length).
 */

export interface VectorIndex {
  dimension: number;
  count: number;
  /** The vectors as doubles: JavaScript multiplies these a third faster than floats. */
  vectors: Float64Array;
  centroids: Float64Array;
  /** The rows of each partition. */
  lists: Int32Array[];
}

/** Groups `count` vectors into about √count partitions (k-means on a seeded sample, then every row assigned). */
export function indexVectors(floats: Float32Array, count: number, dimension: number): VectorIndex {
  const vectors = Float64Array.from(floats);
  const partitions = Math.max(1, Math.min(MAX_PARTITIONS, Math.round(Math.sqrt(count))));
  const sample = sampleRows(count, Math.min(count, partitions * SAMPLE_PER_PARTITION));
  const centroids = new Float64Array(partitions * dimension);
  sample.slice(0, partitions).forEach((row, p) => centroids.set(vectors.subarray(row * dimension, (row + 1) * dimension), p * dimension));
  const assigned = new Int32Array(sample.length);
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    sample.forEach((row, i) => (assigned[i] = nearestCentroid(centroids, partitions, vectors, row * dimension, dimension)));
    const sums = new Float64Array(partitions * dimension);
    sample.forEach((row, i) => {
      const at = assigned[i]! * dimension;
      for (let d = 0; d < dimension; d++) sums[at + d]! += vectors[row * dimension + d]!;
    });
    for (let p = 0; p < partitions; p++) {
      let norm = 0;
      for (let d = 0; d < dimension; d++) norm += sums[p * dimension + d]! ** 2;
      if (norm === 0) continue; // an empty partition keeps its centroid
      const scale = 1 / Math.sqrt(norm);
      for (let d = 0; d < dimension; d++) centroids[p * dimension + d] = sums[p * dimension + d]! * scale;
    }
  }
  const members: number[][] = Array.from({ length: partitions }, () => []);
  for (let row = 0; row < count; row++) members[nearestCentroid(centroids, partitions, vectors, row * dimension, dimension)]!.push(row);
  return { dimension, count, vectors, centroids, lists: members.map((m) => Int32Array.from(m)) };
}

/**
 * The `limit` rows nearest `query` among those `allowed` admits (every row when undefined), best
 * first, ties by row. `allowedRows` lists the admitted rows: when few, they are all read (exact).
 */
export function nearestRows(
  index: VectorIndex,
  floats: Float32Array,
  limit: number,
  allowed?: { mask: Uint8Array; rows: Int32Array },
): Array<{ row: number; cosine: number }> {
  const query = Float64Array.from(floats);
  const best = new TopK(limit);
  if (allowed !== undefined && allowed.rows.length <= EXACT_ROWS) {
    for (const row of allowed.rows) best.offer(row, dotAt(index.vectors, row * index.dimension, query, index.dimension));
    return best.sorted();
  }
  const { centroids, lists, dimension } = index;
  const order = lists.map((_, p) => ({ p, score: dotAt(centroids, p * dimension, query, dimension) })).sort((a, b) => b.score - a.score);
  // Rows to look at: a share of those the filter admits, and never fewer than the limit allows.
  const admitted = allowed?.rows.length ?? index.count;
  const want = Math.max(MIN_SCANNED, limit * SCANNED_PER_RESULT, admitted * PROBE_SHARE);
  let scanned = 0;
  for (const { p } of order) {
    for (const row of lists[p]!) {
      if (allowed !== undefined && allowed.mask[row] === 0) continue;
      best.offer(row, dotAt(index.vectors, row * dimension, query, dimension));
      scanned++;
    }
    if (scanned >= want) break;
  }
  return best.sorted();
}

// --- internal ---

const MAX_PARTITIONS = 1024;
const SAMPLE_PER_PARTITION = 48;
const KMEANS_ROUNDS = 8;
/** A filter admitting this many rows or fewer is read exactly. */
const EXACT_ROWS = 4096;
/** The share of admitted rows a search reads (nearest partitions first). */
const PROBE_SHARE = 0.12;
const MIN_SCANNED = 2048;
const SCANNED_PER_RESULT = 20;

/** The dot product of the vector at `at` and `query`, four lanes at a time (the JIT keeps them in registers). */
function dotAt(vectors: Float64Array, at: number, query: Float64Array, dimension: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dimension; d += 4) {
    s0 += vectors[at + d]! * query[d]!;
    s1 += vectors[at + d + 1]! * query[d + 1]!;
    s2 += vectors[at + d + 2]! * query[d + 2]!;
    s3 += vectors[at + d + 3]! * query[d + 3]!;
  }
  for (; d < dimension; d++) s0 += vectors[at + d]! * query[d]!;
  return s0 + s1 + s2 + s3;
}

function nearestCentroid(centroids: Float64Array, partitions: number, vectors: Float64Array, at: number, dimension: number): number {
  let best = 0;
  let bestScore = -Infinity;
  const query = vectors.subarray(at, at + dimension);
  for (let p = 0; p < partitions; p++) {
    const score = dotAt(centroids, p * dimension, query, dimension);
    if (score > bestScore) {
      bestScore = score;
      best = p;
    }
  }
  return best;
}

/** `size` distinct rows of `count`, by a seeded shuffle (the same table gives the same partitions). */
function sampleRows(count: number, size: number): number[] {
  const rows = Array.from({ length: count }, (_, i) => i);
  let seed = 20_261_125;
  for (let i = 0; i < size; i++) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    const j = i + (seed % (count - i));
    [rows[i], rows[j]] = [rows[j]!, rows[i]!];
  }
  return rows.slice(0, size);
}

/** The best `size` (row, score) pairs offered: a min-heap on score (ties: the larger row drops first). */
export class TopK {
  private rows: number[] = [];
  private scores: number[] = [];
  constructor(private readonly size: number) {}

  offer(row: number, score: number): void {
    if (this.size <= 0) return;
    if (this.rows.length < this.size) {
      this.rows.push(row);
      this.scores.push(score);
      this.up(this.rows.length - 1);
    } else if (this.worse(0, row, score)) {
      this.rows[0] = row;
      this.scores[0] = score;
      this.down(0);
    }
  }

  sorted(): Array<{ row: number; cosine: number }> {
    return this.rows.map((row, i) => ({ row, cosine: this.scores[i]! })).sort((a, b) => b.cosine - a.cosine || a.row - b.row);
  }

  /** Whether the held entry `i` ranks below (row, score). */
  private worse(i: number, row: number, score: number): boolean {
    return this.scores[i]! < score || (this.scores[i] === score && this.rows[i]! > row);
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, this.rows[parent]!, this.scores[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let low = i;
      if (left < this.rows.length && this.worse(left, this.rows[low]!, this.scores[low]!)) low = left;
      if (right < this.rows.length && this.worse(right, this.rows[low]!, this.scores[low]!)) low = right;
      if (low === i) return;
      this.swap(i, low);
      i = low;
    }
  }

  private swap(a: number, b: number): void {
    [this.rows[a], this.rows[b]] = [this.rows[b]!, this.rows[a]!];
    [this.scores[a], this.scores[b]] = [this.scores[b]!, this.scores[a]!];
  }
}

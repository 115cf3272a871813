import { dotKernel, type DotKernel } from "./dot-wasm.ts";

/*
 * Nearest vectors held in memory, found exactly: every stored vector (unit length, so the dot
 * product is the cosine) lies in one WebAssembly memory, and a search takes its dot product with
 * each admitted row, four lanes and four rows at a time (dot.wat), then keeps the best. 29.5k
 * postings × 100 dimensions take ~0.4–0.6 ms (memory-bound: 12 MB read); a filter's rows only their share.
 */

export interface VectorIndex {
  dimension: number;
  count: number;
  /** The vector of a row (a view into the index's memory, not a copy). */
  vector(row: number): Float32Array;
  /** The dot product of `query` with every row (`rows` given: with those rows), in a reused array. */
  scores(query: Float32Array, rows?: Int32Array): Float32Array;
}

/** Copies `count` vectors of `dimension` floats into the kernel's memory. */
export function indexVectors(floats: Float32Array, count: number, dimension: number): VectorIndex {
  // Rows padded to whole lanes; the query region, the scores and a row list after the vectors.
  const padded = Math.ceil(dimension / 4) * 4;
  const vectorsAt = 0;
  const queryAt = count * padded * 4;
  const scoresAt = queryAt + padded * 4;
  const rowsAt = scoresAt + count * 4;
  const { kernel, memory } = dotKernel(rowsAt + count * 4);
  const all = new Float32Array(memory.buffer);
  for (let row = 0; row < count; row++) all.set(floats.subarray(row * dimension, (row + 1) * dimension), (vectorsAt / 4) + row * padded);
  const query = new Float32Array(memory.buffer, queryAt, padded);
  const rowList = new Int32Array(memory.buffer, rowsAt, count);
  const out = new Float32Array(memory.buffer, scoresAt, count);
  return {
    dimension,
    count,
    vector: (row) => new Float32Array(memory.buffer, vectorsAt + row * padded * 4, dimension),
    scores(vector, rows) {
      query.set(vector);
      if (rows === undefined) {
        (kernel as DotKernel).scan(vectorsAt, queryAt, padded, count, scoresAt);
        return out;
      }
      rowList.set(rows);
      kernel.scanRows(vectorsAt, queryAt, padded, rowsAt, rows.length, scoresAt);
      return out.subarray(0, rows.length);
    },
  };
}

/** The `limit` rows nearest `query` among `rows` (every row when undefined), best first, ties by `order` (TopK). */
export function nearestRows(index: VectorIndex, query: Float32Array, limit: number, rows?: Int32Array, order?: Int32Array): Array<{ row: number; cosine: number }> {
  const scores = index.scores(query, rows);
  const best = new TopK(limit, order);
  // Most rows score below the worst kept once the heap is full: they are passed over here, without a call.
  let floor = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (score < floor) continue;
    best.offer(rows === undefined ? i : rows[i]!, score);
    floor = best.floor();
  }
  return best.sorted();
}

/**
 * The best `size` (row, score) pairs offered: a min-heap on score. Among equal scores the row placed
 * later by `order` (each row's place; the row number itself when absent) drops first.
 */
export class TopK {
  private readonly rows: Int32Array;
  private readonly scores: Float64Array;
  private held = 0;
  constructor(private readonly size: number, private readonly order?: Int32Array) {
    this.rows = new Int32Array(Math.max(0, size));
    this.scores = new Float64Array(Math.max(0, size));
  }

  offer(row: number, score: number): void {
    if (this.size <= 0) return;
    if (this.held === this.size) {
      if (score < this.scores[0]! || (score === this.scores[0] && this.later(row, this.rows[0]!))) return;
      this.sift(0, row, score);
      return;
    }
    // Up from a new leaf.
    let i = this.held++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!(score < this.scores[parent]! || (score === this.scores[parent] && this.later(row, this.rows[parent]!)))) break;
      this.rows[i] = this.rows[parent]!;
      this.scores[i] = this.scores[parent]!;
      i = parent;
    }
    this.rows[i] = row;
    this.scores[i] = score;
  }

  /** The lowest score kept once `size` are held (a lower one is never kept); -Infinity before. */
  floor(): number {
    return this.held === this.size && this.size > 0 ? this.scores[0]! : -Infinity;
  }

  sorted(): Array<{ row: number; cosine: number }> {
    const out: Array<{ row: number; cosine: number }> = [];
    for (let i = 0; i < this.held; i++) out.push({ row: this.rows[i]!, cosine: this.scores[i]! });
    return out.sort((a, b) => b.cosine - a.cosine || (this.later(a.row, b.row) ? 1 : -1));
  }

  /** Whether row `a` comes after row `b` among equal scores. */
  private later(a: number, b: number): boolean {
    return this.order === undefined ? a > b : this.order[a]! > this.order[b]!;
  }

  /** Puts (row, score) at `i` and moves it down to its place. */
  private sift(i: number, row: number, score: number): void {
    const { rows, scores, held } = this;
    for (;;) {
      let low = 2 * i + 1;
      if (low >= held) break;
      const right = low + 1;
      if (right < held && (scores[right]! < scores[low]! || (scores[right] === scores[low] && this.later(rows[right]!, rows[low]!)))) low = right;
      if (!(scores[low]! < score || (scores[low] === score && this.later(rows[low]!, row)))) break;
      rows[i] = rows[low]!;
      scores[i] = scores[low]!;
      i = low;
    }
    rows[i] = row;
    scores[i] = score;
  }
}

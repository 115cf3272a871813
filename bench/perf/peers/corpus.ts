import * as lancedb from "@lancedb/lancedb";
import { DIMENSION_KEY, MODEL_KEY, TABLE_NAME } from "../../../server/store/schema.ts";
import { percentile, seededRandom } from "../suite/stats.ts";

/*
 * What every peer is measured on: the benchmark table's search columns in plain arrays, query vectors
 * made from them, the exact top-k by brute force, and recall and latency against it.
 */

/** The benchmark table's search columns, held in plain arrays: what every peer indexes. */
export interface Corpus {
  modelId: string;
  dimension: number;
  ids: string[];
  /** Row-major, `dimension` floats per posting, unit length. */
  vectors: Float32Array;
  city: Array<string | null>;
  country: Array<string | null>;
  source: string[];
  publishTs: Float64Array;
  title: string[];
  description: string[];
  /** Row numbers per city and per country, as the table's bitmap indexes hold them. */
  byCity: Map<string, Int32Array>;
  byCountry: Map<string, Int32Array>;
}

export interface PeerQuery {
  vector: Float32Array;
  /** The posting the vector was perturbed from: its city or country is the filter, its title the hybrid text. */
  origin: number;
  filter: { city: string } | { country: string };
}

export interface Latency {
  p50: number;
  p99: number;
}

export const K = 20;

/** Reads id, vector, filter and text columns of the table in `dataDir`. */
export async function loadCorpus(dataDir: string): Promise<Corpus> {
  const db = await lancedb.connect(dataDir);
  const table = await db.openTable(TABLE_NAME);
  try {
    const metadata = (await table.schema()).metadata;
    const dimension = Number(metadata.get(DIMENSION_KEY));
    const columns = ["id", "vector", "city", "country", "data_source", "publish_ts", "job_title", "job_description"];
    const rows = await table.query().select(columns).toArray();
    const vectors = new Float32Array(rows.length * dimension);
    rows.forEach((row, i) => vectors.set(Float32Array.from(row.vector as ArrayLike<number>), i * dimension));
    const city = rows.map((r) => r.city as string | null);
    const country = rows.map((r) => r.country as string | null);
    return {
      modelId: metadata.get(MODEL_KEY) ?? "",
      dimension,
      ids: rows.map((r) => r.id as string),
      vectors,
      city,
      country,
      source: rows.map((r) => r.data_source as string),
      publishTs: Float64Array.from(rows, (r) => r.publish_ts as number),
      title: rows.map((r) => (r.job_title as string | null) ?? ""),
      description: rows.map((r) => r.job_description as string),
      byCity: groupRows(city),
      byCountry: groupRows(country),
    };
  } finally {
    table.close();
    db.close();
  }
}

/** `count` stored vectors of random postings, perturbed slightly (cosine ≈ 0.98), alternating a city and a country filter. */
export function makeQueries(corpus: Corpus, count: number, seed = 6): PeerQuery[] {
  const random = seededRandom(seed);
  const queries: PeerQuery[] = [];
  while (queries.length < count) {
    const origin = Math.floor(random() * corpus.ids.length);
    const city = corpus.city[origin];
    const country = corpus.country[origin];
    if (!city || !country) continue;
    const filter = queries.length % 2 === 0 ? { city } : { country };
    queries.push({ vector: perturb(corpus.vectors.subarray(origin * corpus.dimension, (origin + 1) * corpus.dimension), 0.02, random), origin, filter });
  }
  return queries;
}

/** A unit vector near `v`: Gaussian noise of deviation `sigma` per dimension, renormalized. */
export function perturb(v: Float32Array, sigma: number, random: () => number): Float32Array {
  const out = new Float32Array(v.length);
  let norm = 0;
  for (let i = 0; i < v.length; i++) {
    const gauss = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    out[i] = v[i]! + sigma * gauss;
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) out[i]! /= norm;
  return out;
}

/** Exact top-k by dot distance (1 − dot) over all rows, or over `rows` (a filter's row list), of those `admit` lets through. */
export function exactNearest(corpus: Corpus, q: Float32Array, k: number, rows?: Int32Array, admit?: (row: number) => boolean): Array<{ index: number; distance: number }> {
  const { vectors, dimension } = corpus;
  const n = rows ? rows.length : corpus.ids.length;
  const best = new Int32Array(k).fill(-1);
  const dots = new Float64Array(k).fill(-Infinity);
  for (let j = 0; j < n; j++) {
    const row = rows ? rows[j]! : j;
    if (admit && !admit(row)) continue;
    let dot = 0;
    for (let d = 0, o = row * dimension; d < dimension; d++) dot += q[d]! * vectors[o + d]!;
    if (dot <= dots[k - 1]!) continue;
    let i = k - 1;
    while (i > 0 && dots[i - 1]! < dot) {
      dots[i] = dots[i - 1]!;
      best[i] = best[i - 1]!;
      i--;
    }
    dots[i] = dot;
    best[i] = row;
  }
  const out: Array<{ index: number; distance: number }> = [];
  for (let i = 0; i < k && best[i]! >= 0; i++) out.push({ index: best[i]!, distance: 1 - dots[i]! });
  return out;
}

/** The rows a query's filter keeps (empty when none match). */
export function filterRows(corpus: Corpus, filter: PeerQuery["filter"]): Int32Array {
  const rows = "city" in filter ? corpus.byCity.get(filter.city) : corpus.byCountry.get(filter.country);
  return rows ?? new Int32Array();
}

/** The store's nearest postings as dot distances (1 − cosine), the form LanceDB's exact search reports. */
export function asDistances(rows: Array<{ cosine: number }>): Array<{ distance: number }> {
  return rows.map(({ cosine }) => ({ distance: 1 - cosine }));
}

/**
 * Share of the exact top-k that `found` holds, ties counted: a result as close as the exact k-th
 * (within float error) is a hit even when its id differs (many postings share a text, so a vector).
 */
export function recallAt(exact: Array<{ distance: number }>, found: Array<{ distance: number }>, k: number): number {
  if (exact.length === 0) return 1;
  const kth = exact[Math.min(k, exact.length) - 1]!.distance;
  const hits = found.slice(0, k).filter((f) => f.distance <= kth + 1e-4).length;
  return Math.min(hits, exact.length) / Math.min(k, exact.length);
}

/** Times `run` once per query after a short warm-up; milliseconds. */
export async function timeQueries<T>(queries: T[], run: (q: T, i: number) => unknown): Promise<Latency> {
  for (let i = 0; i < Math.min(10, queries.length); i++) await run(queries[i]!, i);
  const times: number[] = [];
  for (let i = 0; i < queries.length; i++) {
    const started = performance.now();
    await run(queries[i]!, i);
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

// --- internal ---

function groupRows(values: Array<string | null>): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  values.forEach((value, i) => {
    if (value === null) return;
    const list = lists.get(value);
    if (list) list.push(i);
    else lists.set(value, [i]);
  });
  return new Map([...lists].map(([key, rows]) => [key, Int32Array.from(rows)]));
}

import * as lancedb from "@lancedb/lancedb";
import { create, insertMultiple, search, type AnyOrama } from "@orama/orama";
import { DIMENSION_KEY, MODEL_KEY, TABLE_NAME } from "../../../server/store/schema.ts";
import { openStore } from "../../../server/store/store.ts";
import { percentile } from "../suite/stats.ts";

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

export interface PeersResult {
  postings: number;
  queries: number;
  k: number;
  exact: { none: Latency; filtered: Latency };
  orama: { buildSeconds: number; rssDeltaMb: number; vector: Latency; filtered: Latency; hybrid: Latency; recall: number };
  lance: { none: Latency; filtered: Latency; recall: number; recallFiltered: number; recallById: number };
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

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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

export function rssMb(): number {
  Bun.gc(true);
  return process.memoryUsage().rss / 1048576;
}

/** Which postings an Orama db holds: `count` of them, the i-th with this id and vector (its other fields those of row i mod n). */
export interface OramaRows {
  count: number;
  idOf(i: number): string;
  vectorOf(i: number): Float32Array;
}

/** An Orama db of the corpus (vector, filter fields, and title/description text unless `text` is false); build time and RSS growth. */
export async function buildOrama(corpus: Corpus, rows: OramaRows = corpusRows(corpus), text = true): Promise<{ db: AnyOrama; seconds: number; rssDeltaMb: number }> {
  const before = rssMb();
  const started = performance.now();
  const db = create({
    schema: {
      ...(text ? { title: "string", description: "string" } : {}),
      city: "enum",
      country: "enum",
      source: "enum",
      publish_ts: "number",
      vector: `vector[${corpus.dimension}]`,
    } as const,
  }) as AnyOrama;
  const n = corpus.ids.length;
  for (let start = 0; start < rows.count; start += 2000) {
    const docs = [];
    for (let i = start; i < Math.min(rows.count, start + 2000); i++) {
      const r = i % n;
      docs.push({
        id: rows.idOf(i),
        ...(text ? { title: corpus.title[r]!, description: corpus.description[r]! } : {}),
        ...(corpus.city[r] ? { city: corpus.city[r]! } : {}),
        ...(corpus.country[r] ? { country: corpus.country[r]! } : {}),
        source: corpus.source[r]!,
        publish_ts: corpus.publishTs[r]!,
        vector: Array.from(rows.vectorOf(i)),
      });
    }
    await insertMultiple(db, docs, 2000);
  }
  return { db, seconds: (performance.now() - started) / 1000, rssDeltaMb: rssMb() - before };
}

/** Orama's vector-mode top-k for a query (no similarity floor), with dot distances for recall. */
export async function oramaNearest(db: AnyOrama, q: PeerQuery, k: number, filtered: boolean): Promise<Array<{ id: string; distance: number }>> {
  const result = await search(db, {
    mode: "vector",
    vector: { value: Array.from(q.vector), property: "vector" },
    similarity: -1,
    limit: k,
    ...(filtered ? { where: oramaWhere(q.filter) } : {}),
  });
  return result.hits.map((hit) => ({ id: hit.id, distance: 1 - hit.score }));
}

/** Brute force in JS, Orama, and our store's `nearest` on the same vectors and filters. */
export async function measurePeers(dataDir: string, corpus: Corpus, queryCount: number): Promise<PeersResult> {
  const queries = makeQueries(corpus, queryCount);
  const filtered = queries.map((q) => filterRows(corpus, q.filter));

  const exactNone = queries.map((q) => exactNearest(corpus, q.vector, K));
  const exactFiltered = queries.map((q, i) => exactNearest(corpus, q.vector, K, filtered[i]));
  const exact = {
    none: await timeQueries(queries, (q) => exactNearest(corpus, q.vector, K)),
    filtered: await timeQueries(queries, (q, i) => exactNearest(corpus, q.vector, K, filterRows(corpus, queries[i]!.filter))),
  };

  const built = await buildOrama(corpus);
  const oramaFound = await Promise.all(queries.map((q) => oramaNearest(built.db, q, K, false)));
  const orama = {
    buildSeconds: built.seconds,
    rssDeltaMb: built.rssDeltaMb,
    vector: await timeQueries(queries, (q) => oramaNearest(built.db, q, K, false)),
    filtered: await timeQueries(queries, (q) => oramaNearest(built.db, q, K, true)),
    hybrid: await timeQueries(queries, (q) =>
      search(built.db, {
        mode: "hybrid",
        term: corpus.title[q.origin]!,
        vector: { value: Array.from(q.vector), property: "vector" },
        similarity: -1,
        limit: K,
        where: oramaWhere(q.filter),
      }),
    ),
    recall: mean(queries.map((_, i) => recallAt(exactNone[i]!, oramaFound[i]!, K))),
  };

  const store = await openStore({ dataDir, modelId: corpus.modelId, dimension: corpus.dimension });
  try {
    const none = await Promise.all(queries.map((q) => store.nearest(q.vector, {}, K, false)));
    const inFilter = await Promise.all(queries.map((q) => store.nearest(q.vector, q.filter, K, false)));
    const exactIds = exactNone.map((list) => new Set(list.map((e) => corpus.ids[e.index])));
    const lance = {
      none: await timeQueries(queries, (q) => store.nearest(q.vector, {}, K, false)),
      filtered: await timeQueries(queries, (q) => store.nearest(q.vector, q.filter, K, false)),
      recall: mean(queries.map((_, i) => recallAt(exactNone[i]!, asDistances(none[i]!), K))),
      recallFiltered: mean(queries.map((_, i) => recallAt(exactFiltered[i]!, asDistances(inFilter[i]!), K))),
      recallById: mean(none.map((list, i) => list.filter((r) => exactIds[i]!.has(r.row.id)).length / Math.min(K, exactIds[i]!.size))),
    };
    return { postings: corpus.ids.length, queries: queries.length, k: K, exact, orama, lance };
  } finally {
    store.close();
  }
}

/** Markdown rows (what, figure, target, mark) in the suite's table style. */
export function peerRows(r: PeersResult): string[][] {
  const lat = (l: Latency) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}`;
  const ratio = (ours: number, theirs: number) => `${(ours / theirs).toFixed(2)}×`;
  const of = `${r.postings.toLocaleString("en-US")} postings, ${r.queries} queries, k=${r.k}`;
  const { exact, orama, lance } = r;
  return [
    [`Peers (${of}): exact brute force, JS Float32Array, no filter / city-or-country`, `${lat(exact.none)} / ${lat(exact.filtered)}`, "", ""],
    [`Peers: Orama 3 build (vector + enums + number + title/description text)`, `${orama.buildSeconds.toFixed(1)} s, RSS +${Math.round(orama.rssDeltaMb)} MB`, "", ""],
    [`Peers: Orama vector / vector + where / hybrid (title) + where`, `${lat(orama.vector)} / ${lat(orama.filtered)} / ${lat(orama.hybrid)}; recall@${r.k} ${orama.recall.toFixed(3)}`, "", ""],
    [`Peers: our store.nearest (LanceDB ANN), no filter / city-or-country`, `${lat(lance.none)} / ${lat(lance.filtered)}; recall@${r.k} ${lance.recall.toFixed(3)} / ${lance.recallFiltered.toFixed(3)} (ties counted; by id ${lance.recallById.toFixed(3)})`, "", ""],
    [
      `Peers: our p50 as a ratio (no filter / filtered)`,
      `${ratio(lance.none.p50, exact.none.p50)} / ${ratio(lance.filtered.p50, exact.filtered.p50)} exact JS; ${ratio(lance.none.p50, orama.vector.p50)} / ${ratio(lance.filtered.p50, orama.filtered.p50)} Orama vector`,
      "",
      "",
    ],
  ];
}

// --- internal ---

const ms = (n: number) => `${n.toFixed(n < 1 ? 2 : 1)} ms`;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

function oramaWhere(filter: PeerQuery["filter"]): Record<string, { eq: string }> {
  return "city" in filter ? { city: { eq: filter.city } } : { country: { eq: filter.country } };
}

function corpusRows(corpus: Corpus): OramaRows {
  const { dimension } = corpus;
  return { count: corpus.ids.length, idOf: (i) => corpus.ids[i]!, vectorOf: (i) => corpus.vectors.subarray(i * dimension, (i + 1) * dimension) };
}

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

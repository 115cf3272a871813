import { create, insertMultiple, search, type AnyOrama } from "@orama/orama";
import { NO_FILTERS, filterSet } from "../../../server/store/filter-set.ts";
import { openStore } from "../../../server/store/store.ts";
import { asDistances, exactNearest, filterRows, K, makeQueries, recallAt, timeQueries, type Corpus, type Latency, type PeerQuery } from "./corpus.ts";

/*
 * The in-process comparison (run.ts --peers): exact brute force in JS, Orama, and our store's
 * `nearest` on the same vectors and filters, in one process.
 */

export interface PeersResult {
  postings: number;
  queries: number;
  k: number;
  exact: { none: Latency; filtered: Latency };
  orama: { buildSeconds: number; rssDeltaMb: number; vector: Latency; filtered: Latency; hybrid: Latency; recall: number };
  lance: { none: Latency; filtered: Latency; recall: number; recallFiltered: number; recallById: number };
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
    const none = await Promise.all(queries.map((q) => store.nearest(q.vector, NO_FILTERS, K)));
    const inFilter = await Promise.all(queries.map((q) => store.nearest(q.vector, filterSet(q.filter), K)));
    const exactIds = exactNone.map((list) => new Set(list.map((e) => corpus.ids[e.index])));
    const lance = {
      none: await timeQueries(queries, (q) => store.nearest(q.vector, NO_FILTERS, K)),
      filtered: await timeQueries(queries, (q) => store.nearest(q.vector, filterSet(q.filter), K)),
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

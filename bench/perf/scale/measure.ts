import { filterSet } from "../../../server/store/filter-set.ts";
import type * as lancedb from "@lancedb/lancedb";
import { buildWhere } from "../../../server/store/filter.ts";
import { K, recallAt, timeQueries, type Latency } from "../peers/corpus.ts";
import type { ScaleQuery } from "./queries.ts";

type Distances = Array<{ distance: number }>;

/** LanceDB's exact top-k (bypassVectorIndex) of every query, without and with its filter, and their latency. */
export interface ExactLists {
  none: Distances[];
  filtered: Distances[];
  latency: { none: Latency; filtered: Latency };
}

/** What a way of searching gives on the queries: latency, recall@K against the exact lists, and short answers. */
export interface NearestFigures {
  none: Latency;
  filtered: Latency;
  recall: number;
  recallFiltered: number;
  /** Filtered queries answered with fewer than K rows where the exact search has K. */
  short: number;
}

/** A search under test: the K nearest of `q` (with its filter when `filtered`) as dot distances. */
export type NearestRun = (q: ScaleQuery, filtered: boolean) => Promise<Distances>;

export async function exactLists(table: lancedb.Table, queries: ScaleQuery[]): Promise<ExactLists> {
  const run = (q: ScaleQuery, filtered: boolean) => {
    let query = table.query().nearestTo(q.vector).distanceType("dot").bypassVectorIndex().select(["id", "_distance"]).limit(K);
    const where = buildWhere(filterSet(q.filter));
    if (filtered && where !== undefined) query = query.where(where);
    return query.toArray().then((rows) => rows.map((r) => ({ distance: r._distance as number })));
  };
  const none: Distances[] = [];
  const filtered: Distances[] = [];
  for (const q of queries) {
    none.push(await run(q, false));
    filtered.push(await run(q, true));
  }
  // Exact search reads every admitted row: a few queries tell its latency.
  const sample = queries.slice(0, 20);
  return { none, filtered, latency: { none: await timeQueries(sample, (q) => run(q, false)), filtered: await timeQueries(sample, (q) => run(q, true)) } };
}

/** Times `run` on every query, without and with its filter, and scores it against `exact`. */
export async function nearestFigures(queries: ScaleQuery[], exact: ExactLists, run: NearestRun): Promise<NearestFigures> {
  const found: Distances[] = [];
  const foundFiltered: Distances[] = [];
  for (const q of queries) {
    found.push(await run(q, false));
    foundFiltered.push(await run(q, true));
  }
  const short = queries.filter((_, i) => foundFiltered[i]!.length < Math.min(K, exact.filtered[i]!.length)).length;
  return {
    none: await timeQueries(queries, (q) => run(q, false)),
    filtered: await timeQueries(queries, (q) => run(q, true)),
    recall: mean(queries.map((_, i) => recallAt(exact.none[i]!, found[i]!, K))),
    recallFiltered: mean(queries.map((_, i) => recallAt(exact.filtered[i]!, foundFiltered[i]!, K))),
    short,
  };
}

/** One line of figures, for logs and the alternatives' table. */
export function describeFigures(f: NearestFigures): string {
  return (
    `p50 ${f.none.p50.toFixed(1)} / ${f.filtered.p50.toFixed(1)} ms, p99 ${f.none.p99.toFixed(1)} / ${f.filtered.p99.toFixed(1)} ms, ` +
    `recall@${K} ${f.recall.toFixed(3)} / ${f.recallFiltered.toFixed(3)}${f.short > 0 ? `, ${f.short} filtered answers short` : ""}`
  );
}

// --- internal ---

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

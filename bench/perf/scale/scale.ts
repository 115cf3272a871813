import { filterSet } from "../../../server/store/filter-set.ts";
import { join } from "node:path";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { openStore } from "../../../server/store/store.ts";
import { MODELS_DIR, ROOT } from "../suite/dataset.ts";
import { asDistances, K, type Corpus, type Latency } from "../peers/corpus.ts";
import { ensureScaleTable, type ScaleBuild } from "./build.ts";
import { exactLists, nearestFigures, type NearestFigures } from "./measure.ts";
import { measureServerMemory, type ScaleMemory } from "./memory.ts";
import { makeScaleQueries, SCALE_FILTERS } from "./queries.ts";
import { buildWhere } from "../../../server/store/filter.ts";

export interface ScaleResult {
  postings: number;
  /** What the table is made of. */
  set: string;
  queries: number;
  build: ScaleBuild;
  /** The vector index the store built (LanceDB's type and the store's parameters). */
  indexType: string;
  indexSeconds: number;
  exact: { none: Latency; filtered: Latency };
  nearest: NearestFigures;
  /** Each filter of the filtered queries and the postings it admits. */
  filters: Array<{ filter: string; postings: number }>;
  memory?: ScaleMemory;
  /** This (bench) process after the queries. */
  rssMb: number;
}

/**
 * Builds (once) a table of `postings` recombined postings embedded by the service's embedder in
 * bench/.data/scale-N (build.ts), times the store's ANN index build, store.nearest with and
 * without a filter and its recall@20 against LanceDB's exact search on `queryCount` query texts that
 * are no posting of the set (queries.ts), and the server's memory on the table.
 */
export async function measureScale(sourceDir: string, corpus: Corpus, postings: number, queryCount: number, log: (line: string) => void = console.error): Promise<ScaleResult> {
  const dir = join(ROOT, `bench/.data/scale-${postings}`);
  const build = await ensureScaleTable(sourceDir, dir, postings, corpus.modelId, corpus.dimension, log);
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const queries = await makeScaleQueries(embedder, queryCount);

  const store = await openStore({ dataDir: dir, modelId: corpus.modelId, dimension: corpus.dimension });
  let result: ScaleResult;
  try {
    log(`scale: building the vector index on ${postings.toLocaleString("en-US")} postings`);
    const started = performance.now();
    if (!(await store.ensureVectorIndex(1))) throw new Error(`no vector index built in ${dir}`);
    const indexSeconds = (performance.now() - started) / 1000;
    const vectorIndex = (await store.indexes()).find((index) => index.kind === "vector");

    log(`scale: exact lists and store.nearest, ${queries.length} queries`);
    const exact = await exactLists(store.table, queries);
    const nearest = await nearestFigures(queries, exact, (q, filtered) => store.nearest(q.vector, filterSet(filtered ? q.filter : {}), K).then(asDistances));
    log(`scale: ${r3(nearest.none.p50)} / ${r3(nearest.filtered.p50)} ms p50, recall@${K} ${nearest.recall.toFixed(3)} / ${nearest.recallFiltered.toFixed(3)}, index ${indexSeconds.toFixed(1)} s`);
    const filters = await Promise.all(SCALE_FILTERS.map(async (f) => ({ filter: JSON.stringify(f), postings: await store.table.countRows(buildWhere(filterSet(f))!) })));
    result = {
      postings,
      set: "recombined, embedded",
      queries: queries.length,
      build,
      indexType: vectorIndex?.type ?? "none",
      indexSeconds,
      exact: exact.latency,
      nearest,
      filters,
      rssMb: process.memoryUsage().rss / 1048576,
    };
  } finally {
    store.close();
  }
  log("scale: server memory, empty and on the scale table");
  result.memory = await measureServerMemory(dir, postings, queries);
  return result;
}

/** Markdown rows (what, figure, target, mark) in the suite's table style. */
export function scaleRows(r: ScaleResult): string[][] {
  const n = r.postings.toLocaleString("en-US");
  const lat = (l: Latency) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}`;
  const b = r.build;
  const f = r.nearest;
  const rows = [
    [
      `Scale ${n} (${r.set}): write (recombine, embed, rows; ${b.workers} workers) / scalar+text indexes / ANN index build (${r.indexType})`,
      `${b.writeSeconds.toFixed(0)} s (embedding ${Math.round(b.postings / b.embedSeconds)}/s per worker) / ${b.scalarIndexSeconds.toFixed(0)} s / **${r.indexSeconds.toFixed(1)} s**`,
      "",
      "",
    ],
    [
      `Scale ${n}: store.nearest, no filter / filtered (${r.queries} query texts, not from the set)`,
      `**p50 ${ms(f.none.p50)}** / ${ms(f.filtered.p50)}; p99 ${ms(f.none.p99)} / ${ms(f.filtered.p99)}; recall@${K} ${f.recall.toFixed(3)} / ${f.recallFiltered.toFixed(3)}` +
        (f.short > 0 ? `; ${f.short} filtered answers short of ${K}` : ""),
      "",
      "",
    ],
    [`Scale ${n}: LanceDB exact (bypassVectorIndex), no filter / filtered (20 queries)`, `${lat(r.exact.none)} / ${lat(r.exact.filtered)}`, "", ""],
    [`Scale ${n}: filters (postings admitted)`, r.filters.map((x) => `${x.filter} ${x.postings.toLocaleString("en-US")}`).join("; "), "", ""],
  ];
  const m = r.memory;
  if (m) {
    rows.push([
      `Scale ${n}: server RSS, empty DATA_DIR / after start / after ${r.queries * 2} searches`,
      `${Math.round(m.emptyMb)} / ${Math.round(m.afterStartMb)} / **${Math.round(m.afterQueriesMb)} MB**; ${Math.round(m.bytesPerPosting)} B/posting in RSS; ` +
        `on disk ${Math.round(m.diskBytesPerPosting)} B/posting, of which the vector index ${Math.round(m.vectorIndexBytesPerPosting)}`,
      "",
      "",
    ]);
  }
  return rows;
}

// --- internal ---

const r3 = (n: number) => n.toFixed(1);
const ms = (n: number) => `${n.toFixed(n < 1 ? 2 : 1)} ms`;

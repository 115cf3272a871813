/**
 * Vector index choices on the scale table (bench/.data/scale-N, built by `bun run bench --scale N`):
 * for each index config, its build time, then per query setting p50/p99 without and with a filter and
 * recall@20 against LanceDB's exact search, the way store.nearest searches (candidate columns read,
 * re-ranked by exact dot). Prints one markdown table; writes bench/results/scale-indexes-N.json.
 *   bun bench/perf/scale-indexes.ts --postings 1000000 [--only ivf_hnsw_sq_64,ivf_flat]
 */
import { filterSet } from "../../server/store/filter-set.ts";
import { defineCommand, runMain } from "citty";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { loadEmbedder } from "../../server/embedding/embedder.ts";
import { buildWhere } from "../../server/store/filter.ts";
import { TABLE_NAME } from "../../server/store/schema.ts";
import { dot } from "../../server/embedding/vector.ts";
import { MODELS_DIR, ROOT } from "./suite/dataset.ts";
import { K } from "./peers/corpus.ts";
import { describeFigures, exactLists, nearestFigures, type ExactLists, type NearestFigures } from "./scale/measure.ts";
import { makeScaleQueries, type ScaleQuery } from "./scale/queries.ts";

interface Setting {
  name: string;
  nprobes?: number;
  /** nprobes of the filtered queries, when not `nprobes`. */
  filteredNprobes?: number;
  maxNprobes?: number;
  ef?: number;
  refineFactor?: number;
  /** Candidates fetched per result before the exact re-rank (store.nearest: 1.4). */
  overfetch: number;
}

const dotIndex = { distanceType: "dot" as const };
/** Index configs by name; `root` is √rows, LanceDB's default partition count for IVF. */
const CONFIGS: Record<string, (root: number) => { index: lancedb.Index; settings: Setting[]; distance?: "l2" | "cosine" }> = {
  hnsw_sq_1: () => ({ index: lancedb.Index.hnswSq({ ...dotIndex, numPartitions: 1 }), settings: hnsw([2, 4]) }),
  ivf_hnsw_sq_16: () => ({ index: lancedb.Index.hnswSq({ ...dotIndex, numPartitions: 16 }), settings: hnswIvf([4, 8, 16], [2, 4]) }),
  ivf_hnsw_sq_64: () => ({ index: lancedb.Index.hnswSq({ ...dotIndex, numPartitions: 64 }), settings: hnswIvf([8, 16, 32], [2, 4]) }),
  ivf_flat: (root) => ({ index: lancedb.Index.ivfFlat({ ...dotIndex, numPartitions: root }), settings: [...ivf([20, 40, 80, 120, 160]), ...filteredMore([80, 120], [2, 4])] }),
  // k-means on dot distance leaves clusters empty here; l2 on unit vectors ranks as dot does.
  ivf_flat_l2: (root) => ({ index: lancedb.Index.ivfFlat({ distanceType: "l2", numPartitions: root }), settings: [...ivf([60, 80, 120]), ...filteredMore([60, 80], [2, 3])], distance: "l2" }),
  ivf_pq_l2: (root) => ({ index: lancedb.Index.ivfPq({ distanceType: "l2", numPartitions: root, numSubVectors: 25 }), settings: ivf([80, 160], [5]), distance: "l2" }),
  // IVF_RQ (RaBitQ) refuses this model: "vector dimension must be divisible by 8" (100 dimensions).
};

const main = defineCommand({
  meta: { name: "scale-indexes", description: "Vector index choices on the scale table: build time, latency, recall" },
  args: {
    postings: { type: "string", default: "1000000" },
    only: { type: "string", description: "Comma-separated config names (default: all)" },
    queries: { type: "string", default: "200" },
  },
  async run({ args }) {
    const dir = join(ROOT, `bench/.data/scale-${args.postings}`);
    const db = await lancedb.connect(dir);
    const table = await db.openTable(TABLE_NAME);
    const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
    const queries = await makeScaleQueries(embedder, Number(args.queries));
    console.error(`${queries.length} queries; exact lists…`);
    // The exact lists depend on the queries and the table only: kept beside the table between runs.
    const key = Bun.hash(JSON.stringify([queries.map((q) => [q.text, q.filter]), await table.countRows()])).toString(36);
    const cached = join(dir, `exact-${key}.json`);
    const exact: ExactLists = existsSync(cached) ? JSON.parse(readFileSync(cached, "utf8")) : await exactLists(table, queries);
    writeFileSync(cached, JSON.stringify(exact));
    console.error(`exact: p50 ${exact.latency.none.p50.toFixed(1)} / ${exact.latency.filtered.p50.toFixed(1)} ms`);
    const names = args.only ? args.only.split(",") : Object.keys(CONFIGS);
    const results: Array<{ config: string; buildSeconds: number; setting: Setting; figures: NearestFigures }> = [];
    for (const name of names) {
      const config = CONFIGS[name]?.(Math.round(Math.sqrt(await table.countRows())));
      if (!config) throw new Error(`unknown config ${name}; known: ${Object.keys(CONFIGS).join(", ")}`);
      for (const index of await table.listIndices()) if (index.columns.includes("vector")) await table.dropIndex(index.name);
      const started = performance.now();
      await table.createIndex("vector", { config: config.index });
      const buildSeconds = (performance.now() - started) / 1000;
      console.error(`${name}: built in ${buildSeconds.toFixed(1)} s`);
      for (const setting of config.settings) {
        const figures = await nearestFigures(queries, exact, (q, filtered) => nearest(table, q, filtered, setting, config.distance));
        console.error(`  ${setting.name}: ${describeFigures(figures)}`);
        results.push({ config: name, buildSeconds, setting, figures });
      }
    }
    mkdirSync(join(ROOT, "bench/results"), { recursive: true });
    writeFileSync(join(ROOT, `bench/results/scale-indexes-${args.postings}.json`), `${JSON.stringify({ date: new Date().toISOString(), results }, null, 2)}\n`);
    console.log(`| index | build | query | p50 none / filtered | p99 none / filtered | recall@${K} none / filtered | short |\n|---|---|---|---|---|---|---|`);
    for (const r of results) {
      const f = r.figures;
      console.log(`| ${r.config} | ${r.buildSeconds.toFixed(0)} s | ${r.setting.name} | ${f.none.p50.toFixed(1)} / ${f.filtered.p50.toFixed(1)} ms | ${f.none.p99.toFixed(1)} / ${f.filtered.p99.toFixed(1)} ms | ${f.recall.toFixed(3)} / ${f.recallFiltered.toFixed(3)} | ${f.short} |`);
    }
    table.close();
    db.close();
  },
});

await runMain(main);

// --- internal ---

function hnsw(efFactors: number[]): Setting[] {
  return efFactors.map((f) => ({ name: `ef ${f}×fetch`, ef: f, overfetch: 1.4 }));
}

function hnswIvf(nprobes: number[], efFactors: number[]): Setting[] {
  return nprobes.flatMap((n) => efFactors.map((f) => ({ name: `nprobes ${n}, ef ${f}×fetch`, nprobes: n, ef: f, overfetch: 1.4 })));
}

function ivf(nprobes: number[], refine: Array<number | undefined> = [undefined], maxNprobes?: number): Setting[] {
  const max = maxNprobes === undefined ? "" : `, max ${maxNprobes}`;
  return nprobes.flatMap((n) => refine.map((r) => ({ name: `nprobes ${n}${max}${r ? `, refine ${r}` : ""}`, nprobes: n, maxNprobes, refineFactor: r, overfetch: r ? 1 : 1.4 })));
}

/** nprobes n without a filter, n × factor with one (the admitted rows are a part of each partition). */
function filteredMore(nprobes: number[], factors: number[]): Setting[] {
  return nprobes.flatMap((n) => factors.map((f) => ({ name: `nprobes ${n}, filtered ${n * f}`, nprobes: n, filteredNprobes: n * f, overfetch: 1.4 })));
}

/** store.nearest's query with the setting's knobs: candidate columns, then the exact re-rank. */
async function nearest(table: lancedb.Table, q: ScaleQuery, filtered: boolean, s: Setting, distance: "dot" | "l2" | "cosine" = "dot"): Promise<Array<{ distance: number }>> {
  const fetch = Math.ceil(K * s.overfetch);
  let query = table.query().nearestTo(q.vector).distanceType(distance).select(["content_hash", "result_json", "vector", "_distance"]).limit(fetch);
  // nprobes(n) searches exactly n partitions; with a larger maximum, more only while fewer than `limit` rows were found.
  const nprobes = filtered ? (s.filteredNprobes ?? s.nprobes) : s.nprobes;
  if (s.maxNprobes !== undefined) query = query.maximumNprobes(s.maxNprobes).minimumNprobes(nprobes ?? 1);
  else if (nprobes !== undefined) query = query.nprobes(nprobes);
  if (s.ef !== undefined) query = query.ef(fetch * s.ef);
  if (s.refineFactor !== undefined) query = query.refineFactor(s.refineFactor);
  const where = buildWhere(filterSet(q.filter));
  if (filtered && where !== undefined) query = query.where(where);
  const batch = await query.toArrow();
  const vectors = batch.getChild("vector")!;
  const json = batch.getChild("result_json")!;
  const cosines: number[] = [];
  for (let i = 0; i < batch.numRows; i++) {
    JSON.parse(json.get(i) as string); // store.nearest decodes each candidate (cached by hash after the first time)
    cosines.push(dot(q.vector, Float32Array.from(vectors.get(i).toArray() as Float32Array)));
  }
  return cosines.sort((a, b) => b - a).slice(0, K).map((c) => ({ distance: 1 - c }));
}

import { existsSync, rmSync } from "node:fs";
import { freemem } from "node:os";
import { join } from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { Float32, makeData, RecordBatch, Struct, Table as ArrowTable, Utf8, vectorFromArray, type Data, type FixedSizeList } from "apache-arrow";
import { buildWhere } from "../../server/store/filter.ts";
import { jobsSchema, TABLE_NAME } from "../../server/store/schema.ts";
import { openStore } from "../../server/store/store.ts";
import { ROOT } from "./dataset.ts";
import {
  asDistances, buildOrama, K, makeQueries, oramaNearest, perturb, recallAt, rssMb, seededRandom, timeQueries,
  type Corpus, type Latency, type OramaRows,
} from "./peers.ts";

export interface ScaleResult {
  postings: number;
  queries: number;
  writeSeconds: number;
  indexSeconds: number;
  exact: { none: Latency; filtered: Latency };
  nearest: { none: Latency; filtered: Latency; recall: number; recallFiltered: number };
  orama?: { buildSeconds: number; rssDeltaMb: number; vector: Latency; filtered: Latency; recall: number };
  oramaSkipped?: string;
  rssMb: number;
}

/** Postings above which Orama is not tried: its vectors are JS arrays in this process's heap. */
const ORAMA_MAX = 300_000;

/**
 * Replicates the bench table's rows into bench/.data/scale-N (new ids, perturbed unit vectors),
 * then times the ANN index build, `nearest` with and without a filter, and recall@20 against
 * LanceDB's exact search; Orama on the same vectors up to 300k.
 */
export async function measureScale(sourceDir: string, corpus: Corpus, postings: number, queryCount: number): Promise<ScaleResult> {
  const dir = join(ROOT, `bench/.data/scale-${postings}`);
  const replicas = replicaRows(corpus, postings);
  const writeSeconds = await writeReplicas(sourceDir, dir, corpus, replicas);

  const store = await openStore({ dataDir: dir, modelId: corpus.modelId, dimension: corpus.dimension });
  try {
    const started = performance.now();
    if (!(await store.ensureVectorIndex(1))) throw new Error(`no vector index built in ${dir}`);
    const indexSeconds = (performance.now() - started) / 1000;

    const queries = makeQueries(corpus, queryCount, 60);
    const exactOf = (q: (typeof queries)[number], filtered: boolean) => {
      let query = store.table.query().nearestTo(q.vector).distanceType("dot").bypassVectorIndex().select(["id", "_distance"]).limit(K);
      if (filtered) query = query.where(buildWhere(q.filter)!);
      return query.toArray() as Promise<Array<{ id: string; _distance: number }>>;
    };
    const exactNone = await Promise.all(queries.map((q) => exactOf(q, false)));
    const exactFiltered = await Promise.all(queries.map((q) => exactOf(q, true)));
    const found = await Promise.all(queries.map((q) => store.nearest(q.vector, {}, K, false).then(asDistances)));
    const foundFiltered = await Promise.all(queries.map((q) => store.nearest(q.vector, q.filter, K, false).then(asDistances)));
    const distances = (rows: Array<{ _distance: number }>) => rows.map((r) => ({ distance: r._distance }));
    const result: ScaleResult = {
      postings,
      queries: queries.length,
      writeSeconds,
      indexSeconds,
      exact: { none: await timeQueries(queries, (q) => exactOf(q, false)), filtered: await timeQueries(queries, (q) => exactOf(q, true)) },
      nearest: {
        none: await timeQueries(queries, (q) => store.nearest(q.vector, {}, K, false)),
        filtered: await timeQueries(queries, (q) => store.nearest(q.vector, q.filter, K, false)),
        recall: mean(queries.map((_, i) => recallAt(distances(exactNone[i]!), found[i]!, K))),
        recallFiltered: mean(queries.map((_, i) => recallAt(distances(exactFiltered[i]!), foundFiltered[i]!, K))),
      },
      rssMb: rssMb(),
    };

    if (postings > ORAMA_MAX) {
      result.oramaSkipped = `not tried above ${ORAMA_MAX.toLocaleString("en-US")} postings (all vectors as JS arrays in this heap)`;
    } else {
      const built = await buildOrama(corpus, replicas, false);
      const oramaFound = await Promise.all(queries.map((q) => oramaNearest(built.db, q, K, false)));
      result.orama = {
        buildSeconds: built.seconds,
        rssDeltaMb: built.rssDeltaMb,
        vector: await timeQueries(queries, (q) => oramaNearest(built.db, q, K, false)),
        filtered: await timeQueries(queries, (q) => oramaNearest(built.db, q, K, true)),
        recall: mean(queries.map((_, i) => recallAt(distances(exactNone[i]!), oramaFound[i]!, K))),
      };
      result.rssMb = rssMb();
      if (freemem() < 512 * 1048576) result.oramaSkipped = `built, but free memory fell to ${Math.round(freemem() / 1048576)} MB`;
    }
    return result;
  } finally {
    store.close();
  }
}

/** Markdown rows (what, figure, target, mark) in the suite's table style. */
export function scaleRows(r: ScaleResult): string[][] {
  const n = r.postings.toLocaleString("en-US");
  const lat = (l: Latency) => `p50 ${ms(l.p50)}, p99 ${ms(l.p99)}`;
  const rows = [
    [`Scale ${n} (replicated, perturbed vectors): write / ANN index build (HNSW-SQ)`, `${r.writeSeconds.toFixed(1)} s / **${r.indexSeconds.toFixed(1)} s**`, "", ""],
    [
      `Scale ${n}: store.nearest, no filter / city-or-country (${r.queries} queries)`,
      `**p50 ${ms(r.nearest.none.p50)}** / ${ms(r.nearest.filtered.p50)}; p99 ${ms(r.nearest.none.p99)} / ${ms(r.nearest.filtered.p99)}; ` +
        `recall@${K} ${r.nearest.recall.toFixed(3)} / ${r.nearest.recallFiltered.toFixed(3)}`,
      "",
      "",
    ],
    [`Scale ${n}: LanceDB exact (bypassVectorIndex), no filter / city-or-country`, `${lat(r.exact.none)} / ${lat(r.exact.filtered)}`, "", ""],
  ];
  if (r.orama) {
    const o = r.orama;
    rows.push([
      `Scale ${n}: Orama (vector + enums, no text) build; vector / + where`,
      `${o.buildSeconds.toFixed(1)} s, RSS +${Math.round(o.rssDeltaMb)} MB; ${lat(o.vector)} / ${lat(o.filtered)}; recall@${K} ${o.recall.toFixed(3)}; ` +
        `ours ${(r.nearest.none.p50 / o.vector.p50).toFixed(2)}× / ${(r.nearest.filtered.p50 / o.filtered.p50).toFixed(2)}×`,
      "",
      "",
    ]);
  }
  if (r.oramaSkipped) rows.push([`Scale ${n}: Orama`, r.oramaSkipped, "", ""]);
  return rows;
}

// --- internal ---

const ms = (n: number) => `${n.toFixed(n < 1 ? 2 : 1)} ms`;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

/** Posting i is row i mod n of copy ⌊i / n⌋: copy 0 the real posting, later ones a new id and a perturbed vector. */
function replicaRows(corpus: Corpus, count: number): OramaRows {
  const n = corpus.ids.length;
  const { dimension } = corpus;
  return {
    count,
    idOf: (i) => (i < n ? corpus.ids[i]! : `${corpus.ids[i % n]}~${Math.floor(i / n)}`),
    vectorOf: (i) => {
      const v = corpus.vectors.subarray((i % n) * dimension, ((i % n) + 1) * dimension);
      return i < n ? v : perturb(v, 0.02, seededRandom(i));
    },
  };
}

/** Writes the replicas as Arrow batches of the jobs schema (no embedding); reuses a complete table, dropping its vector index. */
async function writeReplicas(sourceDir: string, dir: string, corpus: Corpus, replicas: OramaRows): Promise<number> {
  const started = performance.now();
  if (existsSync(dir)) {
    const db = await lancedb.connect(dir);
    const table = await db.openTable(TABLE_NAME);
    const complete = (await table.countRows()) === replicas.count;
    if (complete) {
      for (const index of await table.listIndices()) if (index.columns.includes("vector")) await table.dropIndex(index.name);
    }
    table.close();
    db.close();
    if (complete) return 0;
    rmSync(dir, { recursive: true, force: true });
  }
  const sourceDb = await lancedb.connect(sourceDir);
  const source = await sourceDb.openTable(TABLE_NAME);
  const original = (await source.query().toArrow()) as unknown as ArrowTable;
  source.close();
  sourceDb.close();

  const schema = jobsSchema(corpus.modelId, corpus.dimension);
  const db = await lancedb.connect(dir);
  const table = await db.createEmptyTable(TABLE_NAME, schema, { mode: "create" });
  const vectorType = schema.fields.find((f) => f.name === "vector")!.type as FixedSizeList;
  for (let first = 0; first < replicas.count; ) {
    const batches: RecordBatch[] = [];
    // Each source batch becomes one batch of the copy: its columns as they are, id, result_json and vector replaced.
    for (const sourceBatch of original.batches) {
      const rows = Math.min(sourceBatch.numRows, replicas.count - first);
      if (rows <= 0) break;
      const part = rows === sourceBatch.numRows ? sourceBatch : sourceBatch.slice(0, rows);
      const ids = Array.from({ length: rows }, (_, r) => replicas.idOf(first + r));
      const json = part.getChild("result_json")!;
      const resultJson = ids.map((id, r) => JSON.stringify({ ...JSON.parse(json.get(r) as string), id }));
      const floats = new Float32Array(rows * corpus.dimension);
      for (let r = 0; r < rows; r++) floats.set(replicas.vectorOf(first + r), r * corpus.dimension);
      const replaced: Record<string, Data> = {
        id: vectorFromArray(ids, new Utf8()).data[0]!,
        result_json: vectorFromArray(resultJson, new Utf8()).data[0]!,
        vector: makeData({ type: vectorType, length: rows, nullCount: 0, child: makeData({ type: new Float32(), length: rows * corpus.dimension, data: floats }) }),
      };
      const columns = schema.fields.map((f) => replaced[f.name] ?? part.getChild(f.name)!.data[0]!);
      const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows, nullCount: 0, children: columns }));
      batches.push(batch);
      first += rows;
    }
    await table.add(new ArrowTable(schema, batches) as never);
  }
  for (const column of ["city", "country"]) await table.createIndex(column, { config: lancedb.Index.bitmap() });
  table.close();
  db.close();
  return (performance.now() - started) / 1000;
}

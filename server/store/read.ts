import * as lancedb from "@lancedb/lancedb";
import type { Table as ArrowTable } from "apache-arrow";
import { LRUCache } from "lru-cache";
import { dot } from "../embedding/vector.ts";
import { rowTerms, type RankingTerms, type RowTerms } from "../text/rank-terms.ts";
import { COSINE_ROUNDING, byScoreThenId, fetchSettled } from "./cut.ts";
import { buildWhere, idIn } from "./filter.ts";
import { vectorIndexPresence, type IndexDistance } from "./indexes.ts";
import type { FilterValues } from "../../shared/search.ts";
import { clusterReader, hasClusterColumns, type ClusterFactsCache } from "./clusters.ts";
import { readCountries, readFilterValues, readPosting } from "./postings.ts";
import { CANDIDATE_COLUMNS } from "./schema.ts";
import type { CandidateRow, Checkpoint, Facets, JobRow, KeywordClause, StoreReader, MemoryCopyHolder } from "./store.ts";
import type { termStatsReader } from "./term-stats.ts";

/**
 * The searches' view of the table: nearest vectors and keyword matches among the postings a filter
 * admits (the filter runs inside LanceDB), decoded postings kept by content hash, and the facets.
 * `table` follows the latest version; `view()` gives a reader pinned to the version current now
 * (versionViews below), opened through `openAt`, which a request reads throughout.
 */
export function createReader(
  table: lancedb.Table,
  termStats: ReturnType<typeof termStatsReader>,
  vectorIndex: () => Promise<IndexDistance | undefined>,
  copies: MemoryCopyHolder | undefined,
  openAt: (version: number) => Promise<lancedb.Table>,
): StoreReader {
  const caches = readerCaches();
  const view = versionViews(table, async (version) => {
    const pinned = await openAt(version);
    const reader: StoreReader = { ...readerOver(pinned, termStats, vectorIndexPresence(pinned), copies, caches), view: async () => reader };
    return reader;
  });
  return { ...readerOver(table, termStats, vectorIndex, copies, caches), view };
}

/** What readers of every version share, each entry keyed by content hash or by version. */
function readerCaches() {
  return {
    decoded: new LRUCache<string, CandidateRow>({ max: POSTING_CACHE_SIZE }),
    // Rows a predicate admits, per table version: counted once (~1–2 ms with the bitmap indexes).
    admitted: new LRUCache<string, number>({ max: 1000 }),
    facets: undefined as { version: number; facets: Facets } | undefined,
    values: undefined as { version: number; values: Promise<FilterValues> } | undefined,
    clusters: {} as ClusterFactsCache,
  };
}

/** A reader over one table handle: the latest version's, or one checked out at a version. */
function readerOver(
  table: lancedb.Table,
  termStats: ReturnType<typeof termStatsReader>,
  vectorIndex: () => Promise<IndexDistance | undefined>,
  copies: MemoryCopyHolder | undefined,
  caches: ReturnType<typeof readerCaches>,
): Omit<StoreReader, "view"> {
  const { decoded, admitted } = caches;
  const admittedRows = async (where: string) => {
    const key = `${await table.version()}\u0000${where}`;
    let count = admitted.get(key);
    if (count === undefined) admitted.set(key, (count = await table.countRows(where)));
    return count;
  };
  // Every filter's values, every tag included: read once per table version.
  const allValues = async () => {
    const version = await table.version();
    if (caches.values?.version !== version) caches.values = { version, values: readFilterValues(table, Number.POSITIVE_INFINITY) };
    return caches.values.values;
  };
  return {
    async refresh() {
      await table.checkoutLatest();
      await termStats.refresh();
    },
    count: () => table.countRows(),
    version: () => table.version(),
    termStats: termStats.get,

    warm: async () => copies?.warm(),
    memoryCopy: () => copies?.state(),

    async nearest(vector, filters, limit, checkpoint = () => {}) {
      const copy = copies?.at(await table.version());
      if (copy) return copy.nearest(vector, filters, limit, checkpoint);
      // Every stored and query vector has unit length, so the dot product is the cosine, and cheaper.
      // With the ANN index, 1.4× the candidates come from the quantized index and are re-ranked here by
      // exact distance on the vectors read with them (recall@50 0.993; LanceDB's own refine step, which
      // reads the vectors a second time, cost 50% more for 0.998). Deep pages stay exact (see ANN_MAX_LIMIT).
      const indexDistance = limit <= ANN_MAX_LIMIT ? await vectorIndex() : undefined;
      const where = buildWhere(filters);
      const search = (distance: IndexDistance | undefined, fetch: number) =>
        nearestRows(table, vector, where, fetch, distance).then(async (batch) => (await candidateRows(batch, decoded, checkpoint)).map((row) => ({ row, cosine: dot(vector, row.vector) })));
      // Exact: the cut is the in-memory copy's (cut.ts), whichever rows LanceDB kept among equal ones.
      const exact = () => fetchSettled((fetch) => search(undefined, fetch), limit, (hit) => hit.cosine, COSINE_ROUNDING);
      if (indexDistance === undefined) return exact();
      // A partitioned index probes the partitions nearest the query: a narrow filter's nearest rows lie
      // anywhere, while the exact search over the few rows it admits is cheap.
      const partitionedFilter = indexDistance === "l2" && where !== undefined;
      if (partitionedFilter && (await admittedRows(where)) <= ANN_EXACT_FILTER_ROWS) return exact();
      const found = await search(indexDistance, Math.ceil(limit * ANN_OVERFETCH));
      // And a wider one may still admit fewer rows there than asked for.
      if (partitionedFilter && found.length < Math.ceil(limit * ANN_OVERFETCH)) return exact();
      return found.sort(byScoreThenId((hit) => hit.cosine)).slice(0, limit);
    },

    async keyword(clauses, filters, limit, checkpoint = () => {}) {
      const copy = copies?.at(await table.version());
      if (copy) return copy.keyword(clauses, filters, limit, checkpoint);
      // Each clause runs as its own query and scores add up, as SHOULD clauses do: a BooleanQuery
      // of the same clauses measured 5-6 times slower here. Each clause's list ends as cut.ts says.
      const where = buildWhere(filters);
      const lists = await Promise.all(
        clauses.map((clause) =>
          fetchSettled(async (fetch) => {
            let query = table.query().fullTextSearch(fullTextQuery(clause)).select([...CANDIDATE_COLUMNS, "_score"]).limit(fetch);
            if (where !== undefined) query = query.where(where);
            const batch = await query.toArrow();
            const scores = batch.getChild("_score")!;
            return (await candidateRows(batch, decoded, checkpoint)).map((row, i) => ({ row, score: scores.get(i) as number }));
          }, limit, (hit) => hit.score, 0),
        ),
      );
      const merged = new Map<string, { row: CandidateRow; score: number }>();
      for (const list of lists) {
        for (const { row, score } of list) {
          const known = merged.get(row.id);
          if (known) known.score += score;
          else merged.set(row.id, { row, score });
        }
      }
      return [...merged.values()].sort(byScoreThenId((hit) => hit.score)).slice(0, limit);
    },

    async facets() {
      const version = await table.version();
      if (caches.facets?.version === version) return caches.facets.facets;
      // Tables loaded before cities were located have no lat column: every city counts as placed there.
      const hasLat = (await table.schema()).fields.some((field) => field.name === "lat");
      const rows = await table.query().select(["city", "country", "data_source", "company_name", ...(hasLat ? ["lat"] : [])]).toArray();
      const located = new Set<string>();
      const byCity = new Map<string, { postings: number; countries: Map<string, number> }>();
      const byCompany = new Map<string, number>();
      const sources = new Set<string>();
      for (const row of rows) {
        sources.add(row.data_source);
        if (row.company_name) byCompany.set(row.company_name, (byCompany.get(row.company_name) ?? 0) + 1);
        if (!row.city) continue;
        if (!hasLat || (row.lat !== null && row.lat !== undefined)) located.add(row.city);
        const entry = byCity.get(row.city) ?? { postings: 0, countries: new Map<string, number>() };
        entry.postings++;
        if (row.country) entry.countries.set(row.country, (entry.countries.get(row.country) ?? 0) + 1);
        byCity.set(row.city, entry);
      }
      const cityCounts = [...byCity].map(([city, { postings, countries }]) => ({
        city,
        country: [...countries].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null,
        postings,
      }));
      cityCounts.sort((a, b) => b.postings - a.postings || (a.city < b.city ? -1 : 1));
      const companies = [...byCompany].map(([name, postings]) => ({ name, postings })).sort((a, b) => b.postings - a.postings || (a.name < b.name ? -1 : 1));
      const facets = { cities: [...byCity.keys()].sort(), cityCounts, sources: [...sources].sort(), located, companies };
      caches.facets = { version, facets };
      return facets;
    },

    descriptions: (ids) => readDescriptions(table, ids),
    posting: async (id) => readPosting(table, id, await hasClusterColumns(table)),
    countries: (ids) => readCountries(table, ids),
    async filterValues() {
      const values = await allValues();
      return { ...values, tags: values.tags.slice(0, TOP_TAGS) };
    },
    tagCounts: async () => (await allValues()).tags,
    ...clusterReader(table, caches.clusters),
  };
}

/**
 * One table version per answer. The store's own table follows the latest version (it looks for
 * other processes' writes every READ_CONSISTENCY_MS), so two reads of one request could straddle a
 * load or a delete: a page from one version and its facets from the next. A request therefore reads
 * through a view: a handle checked out at the version current when the request began, whose every
 * read (nearest, keyword, facets, descriptions, postings) answers from that version. Views are
 * opened once per version and shared, so at any moment every endpoint reads the same version, and a
 * deleted or replaced posting leaves all of them at once.
 */
export function versionViews(latest: lancedb.Table, openAt: (version: number) => Promise<StoreReader>): () => Promise<StoreReader> {
  const views = new Map<number, Promise<StoreReader>>();
  return async () => {
    const version = await latest.version();
    let view = views.get(version);
    if (view === undefined) {
      view = openAt(version);
      views.set(version, view);
      // A failed opening (the version cleaned up meanwhile) is not kept: the next request opens again.
      view.catch(() => views.get(version) === view && views.delete(version));
      // Requests under way keep the older views they hold; new ones get this one.
      for (const held of [...views.keys()].sort((a, b) => a - b).slice(0, -KEPT_VERSIONS)) views.delete(held);
    }
    return view;
  };
}

/** Views kept open: the current version's and the one before (requests that began on it are finishing). */
const KEPT_VERSIONS = 2;

/** A candidate from its stored result_json (fields and ranking terms) and its vector; `encode` makes its term sets. */
export function decodeCandidate(json: string, vector: Float32Array, encode: (terms: RankingTerms) => RowTerms = rowTerms): CandidateRow {
  const { rank_terms, cjk_text, ...fields } = JSON.parse(json) as JobRow & RankingTerms;
  return { ...fields, vector, terms: encode({ rank_terms, cjk_text }) };
}

// --- internal ---

/**
 * The candidates of a query result, decoded. Decoding (JSON, term sets, vector copy) is the costliest
 * part of a search in JavaScript, so decoded postings are kept by content hash: the same hash is the
 * same content, so a kept posting is never stale, and a re-ingested one gets a new entry.
 */
async function candidateRows(batch: ArrowTable, decoded: LRUCache<string, CandidateRow>, checkpoint: Checkpoint): Promise<CandidateRow[]> {
  await checkpoint();
  const hashes = batch.getChild("content_hash")!;
  const json = batch.getChild("result_json")!;
  const vectors = batch.getChild("vector")!;
  const rows: CandidateRow[] = [];
  for (let i = 0; i < batch.numRows; i++) {
    if (i % CHECK_EVERY === CHECK_EVERY - 1) await checkpoint();
    const hash = hashes.get(i) as string;
    let row = decoded.get(hash);
    if (row === undefined) {
      row = decodeCandidate(json.get(i) as string, Float32Array.from(vectors.get(i).toArray() as Float32Array));
      decoded.set(hash, row);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The `fetch` nearest rows' candidate columns: exact without an index (`distance` undefined), else
 * from the index. A partitioned index (large tables) was trained on l2, which ranks unit vectors as
 * dot does; ef drives HNSW, nprobes a partitioned index, each ignored by the other kind.
 */
function nearestRows(table: lancedb.Table, vector: Float32Array, where: string | undefined, fetch: number, distance: IndexDistance | undefined): Promise<ArrowTable> {
  let query = table.query().nearestTo(vector).distanceType(distance ?? "dot").select([...CANDIDATE_COLUMNS, "_distance"]).limit(fetch);
  query = distance === undefined ? query.bypassVectorIndex() : query.ef(fetch * 2).nprobes(where === undefined ? ANN_NPROBES : ANN_NPROBES_FILTERED);
  if (where !== undefined) query = query.where(where);
  return query.toArrow() as Promise<ArrowTable>;
}

async function readDescriptions(table: lancedb.Table, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await table.query().where(idIn(ids)).select(["id", "job_description"]).toArray();
  return new Map(rows.map((row) => [row.id as string, String(row.job_description ?? "")]));
}

/** Candidate lists longer than this skip the ANN index: it gains little there (ef must be ≥ the candidates). */
export const ANN_MAX_LIMIT = 200;
/** The ANN index fetches this many times the candidates; the best by exact distance are kept. */
const ANN_OVERFETCH = 1.4;
/**
 * IVF partitions a search probes when the table's index is partitioned (store/indexes.ts, from
 * PARTITIONED_FROM rows: √rows partitions); with one partition (smaller tables) they change nothing.
 * On 1M recombined postings (bench/perf, scale-indexes): 60 probes recall@20 0.953,
 * 80 0.966–0.970 at p50 ~9 ms, 120 0.977–0.982 at ~11 ms.
 */
const ANN_NPROBES = 80;
/**
 * With a filter: it admits a part of each partition's rows, so more partitions are probed for as many
 * candidates (80 probes: recall@20 0.903; 160: 0.965–0.969 at p50 ~15 ms; 240: 0.984–0.987 at ~19 ms).
 */
const ANN_NPROBES_FILTERED = 160;
/**
 * With a partitioned index, a filter admitting at most this many rows is searched exactly: its nearest
 * rows lie in any partition (at 1M, recall@20 at 160 probes was 0.63 for 150–300 admitted rows),
 * and LanceDB's exact search reads only the admitted rows (8–10 ms there, ~12 ms for 1,000).
 */
const ANN_EXACT_FILTER_ROWS = 1_000;

/** Candidates decoded between two checkpoints (~20 µs each: a few ms). */
export const CHECK_EVERY = 128;

/** Tags list_filters names: the most used ones. */
const TOP_TAGS = 100;

/** Decoded postings kept per process (~2–4 KB each). */
const POSTING_CACHE_SIZE = 20_000;

/** A clause as LanceDB's full-text query: one column matched, or several (a row scores its best, boosted). */
function fullTextQuery(clause: KeywordClause): lancedb.FullTextQuery {
  const [first, ...others] = clause.fields;
  if (first === undefined) throw new Error("a keyword clause names no column");
  if (others.length === 0) return new lancedb.MatchQuery(clause.text, first.column, { boost: first.boost });
  return new lancedb.MultiMatchQuery(clause.text, clause.fields.map((f) => f.column), { boosts: clause.fields.map((f) => f.boost) });
}

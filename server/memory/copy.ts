import type * as lancedb from "@lancedb/lancedb";
import type { FixedSizeList } from "apache-arrow";
import { LRUCache } from "lru-cache";
import { dot } from "../embedding/vector.ts";
import { COSINE_ROUNDING, CUT_MARGIN_ROWS, settledCut } from "../store/cut.ts";
import { rowTests, type FilterColumns } from "../store/filter.ts";
import type { FilterSet } from "../store/filter-set.ts";
import type { CandidateRow, Checkpoint, KeywordClause, MemoryCopy } from "../store/store.ts";
import { CHECK_EVERY, decodeCandidate } from "../store/read.ts";
import { FieldBuilder, fieldBytes, scoreField, type FieldIndex } from "./bm25.ts";
import { lanceTokens, whitespaceTokens } from "../text/lance-tokens.ts";
import { TermDictionary } from "./terms.ts";
import { indexVectors, nearestRows, TopK, type VectorIndex } from "./vectors.ts";

/*
 * One table version held in memory: every posting's filter columns, vector and keyword index, read
 * from the table in one pass. It answers `nearest` and `keyword` as the table would (the same
 * filters, BM25 with the same tokenizer and clauses), without a LanceDB call. It is a cache: built
 * from a version, replaced whole when the table moves on (memory/hot-path.ts), never written to.
 */

/** Reads every posting of the table at `version` (the caller checks no write came between) and indexes it. */
export async function buildMemoryCopy(table: lancedb.Table, version: number): Promise<MemoryCopy> {
  const text: Record<string, Array<string | null>> = Object.fromEntries(KEPT_TEXT.map((c) => [c, []]));
  const numbers: Record<string, number[]> = Object.fromEntries(NUMBER_COLUMNS.map((c) => [c, []]));
  const tags: string[][] = [];
  const chunks: Float32Array[] = [];
  const builders = { title: new FieldBuilder(), description: new FieldBuilder(), cjk: new FieldBuilder() };
  let count = 0;
  // Cities, countries, sources and tags repeat: one string each (a string per row cost ~40 B a column).
  const strings = new Map<string, string>();
  const intern = (value: string | null) => {
    if (value === null) return null;
    const known = strings.get(value);
    if (known !== undefined) return known;
    strings.set(value, value);
    return value;
  };
  const columns = [...KEPT_TEXT, "job_description", "cjk_text", ...NUMBER_COLUMNS, "tag_keys", "vector"];
  // Batch by batch: descriptions are tokenized as they arrive and not kept, and searches run in between.
  for await (const batch of table.query().select(columns)) {
    const get = (column: string) => batch.getChild(column)!;
    for (const column of KEPT_TEXT) {
      const child = get(column);
      const shared = INTERNED.has(column) ? intern : (value: string | null) => value;
      for (let i = 0; i < batch.numRows; i++) text[column]!.push(shared((child.get(i) as string | null) ?? null));
    }
    for (const column of NUMBER_COLUMNS) {
      const child = get(column);
      for (let i = 0; i < batch.numRows; i++) numbers[column]!.push((child.get(i) as number | null) ?? Number.NaN);
    }
    const [tagChild, vectors, descriptions, cjk] = [get("tag_keys"), get("vector"), get("job_description"), get("cjk_text")];
    for (let i = 0; i < batch.numRows; i++, count++) {
      tags.push([...((tagChild.get(i)?.toArray() as string[] | undefined) ?? [])].map((tag) => intern(String(tag))!));
      chunks.push(Float32Array.from(vectors.get(i).toArray() as Float32Array));
      builders.title.add(count, tokensOf(text.job_title![count]!, lanceTokens));
      builders.description.add(count, tokensOf(descriptions.get(i) as string | null, lanceTokens));
      builders.cjk.add(count, tokensOf(cjk.get(i) as string | null, whitespaceTokens));
      if (count % YIELD_EVERY === 0) await Bun.sleep(0);
    }
  }
  // From the schema, not the rows: an empty table still answers a search (with nothing).
  const dimension = ((await table.schema()).fields.find((f) => f.name === "vector")!.type as FixedSizeList).listSize;
  const vectors = new Float32Array(count * dimension);
  chunks.forEach((chunk, row) => vectors.set(chunk, row * dimension));
  const numberArrays = new Map<string, Float64Array>(NUMBER_COLUMNS.map((c) => [c, Float64Array.from(numbers[c]!)]));
  const filterColumns: FilterColumns = {
    text: (column) => text[column] ?? missing(column),
    number: (column) => numberArrays.get(column) ?? missing(column),
    tags,
  };
  const fields = { title: builders.title.finish(count), description: builders.description.finish(count), cjk: builders.cjk.finish(count) };
  const index = indexVectors(vectors, count, dimension);
  // Equal scores rank by id, as LanceDB's answers are ordered (store/cut.ts): each row's place in id order.
  const ids = text.id!;
  const byId = Int32Array.from({ length: count }, (_, row) => row).sort((a, b) => (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0));
  const idOrder = new Int32Array(count);
  byId.forEach((row, place) => (idOrder[row] = place));
  const textBytes = KEPT_TEXT.reduce((sum, c) => sum + text[c]!.reduce((s, v) => s + (v?.length ?? 0) * 2, 0), 0);
  const bytes = selectionBytes(count) + textBytes + vectors.byteLength + fieldBytes(fields.title) + fieldBytes(fields.description) + fieldBytes(fields.cjk) + idOrder.byteLength + count * PER_ROW_BYTES;
  return new MemoryCopyOfVersion(version, count, bytes, text, filterColumns, index, fields, idOrder);
}

// --- internal ---

/** Text columns kept: the filters' and what a candidate is decoded from (descriptions are not: see `keyword`). */
const KEPT_TEXT = ["id", "city", "country", "data_source", "company_name", "seniority_level", "employment_type", "job_title", "result_json"] as const;
/** The kept columns whose values repeat across postings: held once per distinct value. */
const INTERNED = new Set<string>(["city", "country", "data_source", "company_name", "seniority_level", "employment_type"]);
const NUMBER_COLUMNS = ["publish_ts", "lat", "lon", "salary_min_usd", "salary_max_usd"] as const;
/** The keyword index of each column a clause can match. */
const FIELD_OF = { job_title: "title", job_description: "description", cjk_text: "cjk" } as const;
/**
 * Arrays' slots, numbers, tag lists, the decoded candidate once read (its fields ~1 KB, its words
 * as numbers ~0.7 KB, memory/terms.ts): per posting, roughly.
 */
const PER_ROW_BYTES = 2_000;
/**
 * Bytes of filters' admitted rows kept per copy (a mask and a list each: 1–5 bytes a posting): room for
 * ~200 filters' rows, at most 64 MB (a fixed 64 MB was 2 KB a posting at 29.5k postings).
 */
function selectionBytes(postings: number): number {
  return Math.min(64 * 2 ** 20, Math.max(4 * 2 ** 20, postings * 600));
}

/** Rows a filter admits, as a mask (1 = admitted) and a list. */
interface Selection {
  mask: Uint8Array;
  rows: Int32Array;
}

/** The rows of `among` (every row when undefined) that pass `test`. */
function selectRows(postings: number, test: (row: number) => boolean, among?: Int32Array): Selection {
  const mask = new Uint8Array(postings);
  const rows: number[] = [];
  const count = among?.length ?? postings;
  for (let i = 0; i < count; i++) {
    const row = among === undefined ? i : among[i]!;
    if (test(row)) {
      mask[row] = 1;
      rows.push(row);
    }
  }
  return { mask, rows: Int32Array.from(rows) };
}
/**
 * Postings indexed between two yields to the event loop (~0.4 ms of work): a search running beside the
 * build waits that long at each of its steps. 64 (~3 ms) made a server's first search after a start
 * 1.31–1.38 s instead of 1.10–1.11 s on 29,513 postings; the build took as long (14.4–14.9 s both ways).
 */
const YIELD_EVERY = 8;

function missing(column: string): never {
  throw new Error(`column ${column} is not held in memory`);
}

function tokensOf(value: string | null, tokenize: (text: string) => string[]): string[] | null {
  return value === null ? null : tokenize(value);
}

class MemoryCopyOfVersion implements MemoryCopy {
  private readonly decoded: Array<CandidateRow | undefined>;
  private readonly terms = new TermDictionary();
  private readonly selections: LRUCache<string, Selection>;
  private readonly scratch: Float64Array[];
  private readonly lastSelection = new WeakMap<FilterSet, Selection | undefined | "none">();

  constructor(
    readonly version: number,
    readonly postings: number,
    readonly bytes: number,
    private readonly text: Record<string, Array<string | null>>,
    private readonly columns: FilterColumns,
    private readonly index: VectorIndex,
    private readonly fields: Record<"title" | "description" | "cjk", FieldIndex>,
    private readonly idOrder: Int32Array,
  ) {
    this.decoded = new Array(postings);
    this.selections = new LRUCache({ maxSize: selectionBytes(postings), sizeCalculation: (selection) => selection.mask.byteLength + selection.rows.byteLength + 100 });
    this.scratch = [new Float64Array(postings), new Float64Array(postings)];
  }

  async nearest(vector: Float32Array, filters: FilterSet, limit: number, checkpoint: Checkpoint = () => {}) {
    const allowed = this.select(filters);
    if (allowed === "none") return [];
    // The kernel's float32 cosines choose; the exact ones (as LanceDB's path computes them) order and cut.
    for (let fetch = limit + CUT_MARGIN_ROWS; ; fetch *= 2) {
      const rows = await this.candidates(nearestRows(this.index, vector, fetch, allowed?.rows, this.idOrder), checkpoint);
      const hits = rows.map((candidate) => ({ row: candidate, cosine: dot(vector, candidate.vector) }));
      const settled = settledCut(hits, limit, fetch, (hit) => hit.cosine, COSINE_ROUNDING);
      if (settled !== undefined) return settled;
    }
  }

  async keyword(clauses: KeywordClause[], filters: FilterSet, limit: number, checkpoint: Checkpoint = () => {}) {
    const allowed = this.select(filters);
    if (allowed === "none") return [];
    const mask = allowed?.mask;
    const merged = new Map<number, number>();
    // The clauses of rank/keyword-query.ts, as LanceDB runs them: each its own top `limit`, scores summed.
    for (const clause of clauses) {
      const [first, second] = clause.fields.map(({ column, boost }): [FieldIndex, string[], number] => {
        const field = this.fields[FIELD_OF[column]];
        return [field, column === "cjk_text" ? whitespaceTokens(clause.text) : lanceTokens(clause.text, false), boost];
      });
      if (first === undefined || clause.fields.length > 2) throw new Error("a keyword clause matches one or two columns");
      for (const { row, cosine: score } of this.bestOf(limit, mask, [first], second && [second])) merged.set(row, (merged.get(row) ?? 0) + score);
    }
    const best = new TopK(limit, this.idOrder);
    for (const [row, score] of merged) best.offer(row, score);
    await checkpoint();
    const sorted = best.sorted();
    const rows = await this.candidates(sorted, checkpoint);
    return rows.map((row, i) => ({ row, score: sorted[i]!.cosine }));
  }

  /** The candidates of `hits`, decoded where not yet; the checkpoint awaited every CHECK_EVERY. */
  private async candidates(hits: Array<{ row: number }>, checkpoint: Checkpoint): Promise<CandidateRow[]> {
    const rows: CandidateRow[] = [];
    for (let i = 0; i < hits.length; i++) {
      if (i % CHECK_EVERY === CHECK_EVERY - 1) await checkpoint();
      rows.push(this.candidate(hits[i]!.row));
    }
    return rows;
  }

  /**
   * The best `limit` rows of one clause: the sum of the first group's fields, or of the larger of
   * the two groups per row (a multi-field match scores a row by its best field, as LanceDB's does).
   */
  private bestOf(limit: number, mask: Uint8Array | undefined, first: Array<[FieldIndex, string[], number]>, second?: Array<[FieldIndex, string[], number]>) {
    const [a, b] = this.scratch as [Float64Array, Float64Array];
    const touchedA: number[] = [];
    const touchedB: number[] = [];
    for (const [field, tokens, boost] of first) scoreField(field, tokens, boost, a, touchedA, mask);
    for (const [field, tokens, boost] of second ?? []) scoreField(field, tokens, boost, b, touchedB, mask);
    const best = new TopK(limit, this.idOrder);
    for (const row of touchedA) best.offer(row, Math.max(a[row]!, b[row]!));
    for (const row of touchedB) if (a[row] === 0) best.offer(row, b[row]!);
    for (const row of touchedA) a[row] = 0;
    for (const row of touchedB) b[row] = 0;
    return best.sorted();
  }

  /**
   * The rows the filters admit; undefined = every row; "none" = no row. Each filter's own rows are
   * kept (a city, a notion read from the words: the next search with it reads no row), and a
   * combination is the intersection, walked from its smallest filter.
   */
  private select(filters: FilterSet): Selection | undefined | "none" {
    // Both retrievers of one search ask with the same object: the second gets the first's answer.
    let selection = this.lastSelection.get(filters);
    if (selection === undefined && !this.lastSelection.has(filters)) {
      selection = this.selectNew(filters);
      this.lastSelection.set(filters, selection);
    }
    return selection;
  }

  private selectNew(filters: FilterSet): Selection | undefined | "none" {
    const tests = rowTests(filters, this.columns);
    if (tests.length === 0) return undefined;
    const parts = tests.map(({ key, test }) => {
      let part = this.selections.get(key);
      if (part === undefined) {
        part = selectRows(this.postings, test);
        this.selections.set(key, part);
      }
      return part;
    });
    if (parts.some((part) => part.rows.length === 0)) return "none";
    if (parts.length === 1) return parts[0]!;
    parts.sort((a, b) => a.rows.length - b.rows.length);
    const [smallest, ...others] = parts as [Selection, ...Selection[]];
    return selectRows(this.postings, (row) => others.every((part) => part.mask[row] === 1), smallest.rows);
  }

  /**
   * A posting as ranking reads it, decoded on first use and kept: its words as compact sets over the
   * copy's dictionary (memory/terms.ts), its JSON let go once decoded.
   */
  private candidate(row: number): CandidateRow {
    let decoded = this.decoded[row];
    if (decoded === undefined) {
      const json = this.text.result_json!;
      decoded = decodeCandidate(json[row]!, this.index.vector(row), (terms) => this.terms.encode(terms));
      this.decoded[row] = decoded;
      json[row] = null;
    }
    return decoded;
  }
}

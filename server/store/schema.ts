import { TEXT_FORMAT } from "../text/fold.ts";
import { createRequire } from "node:module";
import type { Schema as ArrowSchema } from "apache-arrow";

/**
 * Arrow's classes from the CommonJS build LanceDB itself requires: importing the package's ES module build
 * would load a second copy of Arrow into every process (~0.1–0.25 s of CPU at start on this machine).
 */
const { Field, FixedSizeList, Float32, Float64, List, Schema, Utf8 } = createRequire(import.meta.url)("apache-arrow") as typeof import("apache-arrow");

export const TABLE_NAME = "jobs";
export const MODEL_KEY = "jobsearch.embedding_model";
export const DIMENSION_KEY = "jobsearch.embedding_dimension";
/** The text normaliser's format the stored ranking terms were made with (relevance/text.ts TEXT_FORMAT). */
export const TEXT_FORMAT_KEY = "jobsearch.text_format";

/** A posting as the `jobs` table stores it: the result fields plus id, country, numeric time, hash and vector. */
export interface StoredJob {
  id: string;
  job_title: string | null;
  company_name: string | null;
  city: string | null;
  country: string | null;
  publish_time: string;
  /** Epoch seconds (UTC) of publish_time, for range filters. */
  publish_ts: number;
  base_salary: string | null;
  /** base_salary per year (see ingest/salary.ts): its currency, amounts in it and in USD; null when unknown. */
  salary_currency: string | null;
  salary_min: number | null;
  salary_max: number | null;
  salary_min_usd: number | null;
  salary_max_usd: number | null;
  /** Where the city is (server/geo/gazetteer.ts); null when unknown. */
  lat: number | null;
  lon: number | null;
  job_url: string;
  job_tags: string[];
  /** job_tags lowercased: what the tags and remote filters compare with. */
  tag_keys: string[];
  data_source: string;
  seniority_level: string | null;
  employment_type: string | null;
  job_description: string;
  /** Hash of every field above, so a re-run load can tell unchanged postings from updated ones. */
  content_hash: string;
  /** Character pairs of the CJK text in title and description (space-separated), for keyword search in Chinese. */
  cjk_text: string;
  /**
   * What ranking compares query words with, tokenized once at ingest: the title's folded words and
   * those of title and description start, space-separated, the two joined by a newline.
   */
  rank_terms: string;
  /**
   * What a search reads of a candidate, as JSON: id, the result fields (job-search-service.md §2.1 order, unknown ones
   * absent), rank_terms and cjk_text. One column instead of fifteen: each column read costs ~1 ms.
   */
  result_json: string;
  /** The same job's cluster (server/ingest/clusters.ts; store/clusters.ts reads it): also in result_json. */
  cluster_id: string;
  /** What the posting is compared by for the same job (ingest/same-job.ts encodeSignature). */
  same_job_sig: string;
  /** When a load first stored this id (epoch ms; kept when the id is loaded again); null for tables loaded before it was recorded. See postings.ts firstLoadedAt. */
  loaded_at: number | null;
  vector: Float32Array;
}

/** What a search reads of each candidate: few columns, since every column read costs about a millisecond. */
export const CANDIDATE_COLUMNS = ["content_hash", "result_json", "vector"] as const;

/** The table's Arrow schema; the embedding model travels with it as schema metadata. */
export function jobsSchema(modelId: string, dimension: number): ArrowSchema {
  const text = (name: string, nullable = true) => new Field(name, new Utf8(), nullable);
  const fields = [
    text("id", false),
    text("job_title"),
    text("company_name"),
    text("city"),
    text("country"),
    text("publish_time", false),
    new Field("publish_ts", new Float64(), false),
    text("base_salary"),
    text("salary_currency"),
    new Field("salary_min", new Float64(), true),
    new Field("salary_max", new Float64(), true),
    new Field("salary_min_usd", new Float64(), true),
    new Field("salary_max_usd", new Float64(), true),
    new Field("lat", new Float64(), true),
    new Field("lon", new Float64(), true),
    text("job_url", false),
    new Field("job_tags", new List(new Field("item", new Utf8(), true)), true),
    new Field("tag_keys", new List(new Field("item", new Utf8(), true)), false),
    text("data_source", false),
    text("seniority_level"),
    text("employment_type"),
    text("job_description", false),
    text("content_hash", false),
    text("cjk_text", false),
    text("rank_terms", false),
    text("result_json", false),
    text("cluster_id", false),
    text("same_job_sig", false),
    new Field("loaded_at", new Float64(), true),
    new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), false),
  ];
  const metadata = new Map([
    [MODEL_KEY, modelId],
    [DIMENSION_KEY, String(dimension)],
    [TEXT_FORMAT_KEY, TEXT_FORMAT],
  ]);
  return new Schema(fields, metadata);
}

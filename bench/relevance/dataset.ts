import { memoryCopyUpTo } from "../../server/memory/holder.ts";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadConfig, type Config } from "../../server/config.ts";
import { formatSummary, ingestFile } from "../../server/ingest/ingest.ts";
import { readRecords } from "../../server/ingest/read.ts";
import { loadEmbedder, type Embedder } from "../../server/embedding/embedder.ts";
import { TABLE_NAME } from "../../server/store/schema.ts";
import { openStore, type JobStore } from "../../server/store/store.ts";
import { codeFingerprint, INGEST_MODULES } from "./fingerprint.ts";
import type { FilterableRecord, JudgedPosting } from "./judge.ts";

const ROOT = resolve(import.meta.dir, "../..");
/** The shared postings, beside the checkout (never copied into the repository). */
export const SHARED_DATA = resolve(ROOT, "../shared/data/jobs.jsonl.gz");
/** The table the evaluation builds for itself when DATA_DIR does not hold the shared postings (git-ignored). */
const EVAL_DATA_DIR = join(ROOT, "bench/.data/eval");
/** The modules whose code decides what an ingest stores; the table is rebuilt when any of them changes. */
/** Holds the fingerprint of the code that built the evaluation table. */
const BUILD_MARKER = "eval-build.txt";
/** The offline model the tests build once per machine; reused so the evaluation needs no build of its own. */
const TEST_MODELS_DIR = join(ROOT, "tests/.cache/models");
/** Where the offline model is built when the tests have not built it yet. */
const EVAL_MODELS_DIR = join(ROOT, "bench/.data/models");

export type EvalRecord = FilterableRecord & JudgedPosting & { id: string; job_url: string };

export interface EvalData {
  store: JobStore;
  embedder: Embedder;
  dataDir: string;
  /** Every posting of the shared data file, for counting the relevant postings of each query. */
  records: EvalRecord[];
}

/**
 * Opens a table holding every posting of ../shared/data/jobs.jsonl.gz: DATA_DIR when it already
 * does (it is never written to), else bench/.data/eval, ingested with the project's own code and
 * config the first time and again whenever that code changes (or with `rebuild`).
 */
export async function openEvalData(env: Record<string, string | undefined>, options: { rebuild?: boolean } = {}): Promise<EvalData> {
  const records = (await readRecords(SHARED_DATA)).map((raw) => raw.value as EvalRecord);
  const withModels = { ...env, MODELS_DIR: env.MODELS_DIR || (existsSync(TEST_MODELS_DIR) ? TEST_MODELS_DIR : EVAL_MODELS_DIR) };
  const given = loadConfig(withModels);
  const embedder = await loadEmbedder(given.embedding, (message) => console.error(message));

  // Only a DATA_DIR the caller named is considered, never the server's default ./data.
  if (env.DATA_DIR) {
    const existing = await openIfComplete(given, embedder, records.length);
    if (existing) return { store: existing, embedder, dataDir: given.dataDir, records };
    console.error(`DATA_DIR ${given.dataDir} does not hold the ${records.length} shared postings; using the evaluation's own table`);
  }

  const ownDir = given.embedding.model === "static" ? EVAL_DATA_DIR : `${EVAL_DATA_DIR}-${slug(embedder.modelId)}`;
  const config = loadConfig({ ...withModels, DATA_DIR: ownDir });
  const marker = join(config.dataDir, BUILD_MARKER);
  const fingerprint = codeFingerprint(ROOT, INGEST_MODULES, [embedder.modelId, String(records.length)]);
  const built = existsSync(marker) ? readFileSync(marker, "utf8").trim() : undefined;
  if (options.rebuild || built !== fingerprint) {
    if (built !== undefined) console.error(`the ingest code changed since ${config.dataDir} was built: rebuilding it`);
    rmSync(config.dataDir, { recursive: true, force: true });
  }
  const store = await openStore({ dataDir: config.dataDir, modelId: embedder.modelId, dimension: embedder.dimension, memoryCopy: memoryCopyUpTo(config.memoryCopyMaxPostings) });
  if ((await store.count()) !== records.length) {
    console.error(`ingesting ${SHARED_DATA} into ${config.dataDir} (one time, ~20 s)`);
    console.error(formatSummary(await ingestFile({ store, embedder }, SHARED_DATA)));
  }
  writeFileSync(marker, `${fingerprint}\n`);
  // Judged as the server answers: from memory (HOT_PATH_MAX_POSTINGS=0 judges LanceDB's answers).
  await store.warm();
  return { store, embedder, dataDir: config.dataDir, records };
}

// --- internal ---

/** DATA_DIR's table when it holds exactly the shared postings with this model; undefined otherwise, untouched. */
async function openIfComplete(config: Config, embedder: Embedder, expected: number): Promise<JobStore | undefined> {
  if (!existsSync(join(config.dataDir, `${TABLE_NAME}.lance`))) return undefined;
  const store = await openStore({ dataDir: config.dataDir, modelId: embedder.modelId, dimension: embedder.dimension, memoryCopy: memoryCopyUpTo(config.memoryCopyMaxPostings) }).catch(
    (error: unknown) => {
      console.error(`not using ${config.dataDir}: ${error instanceof Error ? error.message : error}`);
      return undefined;
    },
  );
  if (store === undefined) return undefined;
  if ((await store.count()) === expected) {
    await store.warm();
    return store;
  }
  store.close();
  return undefined;
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, "_");
}

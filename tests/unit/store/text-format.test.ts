import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import { Schema } from "apache-arrow";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { IRREGULAR, KEEP_E, fingerprintOf } from "../../../server/knowledge/knowledge.ts";
import { FOLD_LISTS, TEXT_FORMAT } from "../../../server/text/fold.ts";
import { DIMENSION_KEY, MODEL_KEY, TABLE_NAME, TEXT_FORMAT_KEY, jobsSchema } from "../../../server/store/schema.ts";
import { openStore } from "../../../server/store/store.ts";
import { MODELS_DIR, tempDir } from "../../support/helpers.ts";

/** Stored ranking terms and query terms come from one normaliser; a table written by another format asks for a reload. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test("the fold's word lists are those TEXT_FORMAT names (they are data: a change needs a new format)", () => {
  const current = fingerprintOf({ IRREGULAR, KEEP_E });
  expect(
    current,
    "the fold's lists (IRREGULAR, KEEP_E in server/knowledge/words.json) changed, so terms stored under " +
      `"${TEXT_FORMAT}" no longer match the query's: bump TEXT_FORMAT in server/text/fold.ts and set FOLD_LISTS there to "${current}"`,
  ).toBe(FOLD_LISTS);
});

test("a new table records the text format; one without it (or with another) is refused with the reload to do", async () => {
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const fresh = tempDir();
  dirs.push(fresh);
  const store = await openStore({ dataDir: fresh, modelId: embedder.modelId, dimension: embedder.dimension });
  expect((await store.table.schema()).metadata.get(TEXT_FORMAT_KEY)).toBe(TEXT_FORMAT);
  store.close();

  const old = tempDir();
  dirs.push(old);
  const db = await lancedb.connect(old);
  const schema = jobsSchema(embedder.modelId, embedder.dimension);
  const metadata = new Map([[MODEL_KEY, embedder.modelId], [DIMENSION_KEY, String(embedder.dimension)]]);
  (await db.createEmptyTable(TABLE_NAME, new Schema(schema.fields, metadata))).close();
  db.close();
  const refused = await openStore({ dataDir: old, modelId: embedder.modelId, dimension: embedder.dimension }).catch((e: unknown) => e);
  expect((refused as Error).message).toBe(
    `the jobs table in ${old} holds ranking terms of text format "text-1", this version reads "${TEXT_FORMAT}": ` +
      "load the postings again into an empty DATA_DIR (bun run cli ingest FILE), then point the server at it",
  );
});

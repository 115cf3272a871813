import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { deletePostings } from "../../../server/ingest/lifecycle.ts";
import { NO_FILTERS } from "../../../server/store/filter-set.ts";
import { openStore } from "../../../server/store/store.ts";
import { fixturePostings } from "../../support/fixtures/postings.ts";
import { MODELS_DIR, tempDir } from "../../support/helpers.ts";
import { loadDataDir } from "../../support/stores.ts";

/*
 * One table version per answer (store/read.ts versionViews): a view keeps reading the version it was opened
 * at while loads and deletes move the table on; a view opened after the write reads the new one.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function loadedDir(): Promise<string> {
  const dir = tempDir();
  dirs.push(dir);
  await loadDataDir(dir, fixturePostings());
  return dir;
}

test("a view reads the version it was opened at, whatever another process writes meanwhile", async () => {
  const dataDir = await loadedDir();
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const options = { dataDir, modelId: embedder.modelId, dimension: embedder.dimension, readConsistencyMs: 0 };
  const reader = await openStore(options);
  const writer = await openStore(options);
  try {
    const view = await reader.view();
    const version = await view.version();
    expect(await view.view()).toBe(view);
    const vector = await embedder.embedQuery("registered nurse");
    const before = (await view.nearest(vector, NO_FILTERS, 20)).map((hit) => hit.row.id);
    const gone = before[0]!;
    const cities = (await view.facets()).cityCounts;

    expect((await deletePostings({ store: writer }, { ids: [gone] })).deleted).toBe(1);
    // The store itself follows the write; the view does not.
    expect(await reader.version()).toBeGreaterThan(version);
    expect(await view.version()).toBe(version);
    expect((await view.nearest(vector, NO_FILTERS, 20)).map((hit) => hit.row.id)).toEqual(before);
    expect((await view.posting(gone))?.posting.id).toBe(gone);
    expect((await view.facets()).cityCounts).toEqual(cities);

    // A view opened now reads the new version: the posting is gone from all of its reads.
    const now = await reader.view();
    expect(await now.version()).toBe(await reader.version());
    expect((await now.nearest(vector, NO_FILTERS, 20)).map((hit) => hit.row.id)).not.toContain(gone);
    expect(await now.posting(gone)).toBeUndefined();
    expect(await reader.view()).toBe(now);
  } finally {
    reader.close();
    writer.close();
  }
}, 60_000);

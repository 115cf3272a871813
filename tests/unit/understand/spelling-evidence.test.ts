import { beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadEmbedder } from "../../../server/embedding/embedder.ts";
import { ingestRecords } from "../../../server/ingest/ingest.ts";
import { openStore } from "../../../server/store/store.ts";
import type { TermStats } from "../../../server/store/term-stats.ts";
import { understandQuery } from "../../../server/understand/understand.ts";
import { MODELS_DIR, tempDir } from "../../support/helpers.ts";
import { sharedRecords } from "../../support/stores.ts";

/**
 * Spelling by evidence on real term statistics: those a load of every 4th posting of the shared data
 * (~7,400) writes, plus a few postings that use a misspelling and a rare real word more often than a typo
 * would be. Only the statistics are read: no server is started over them.
 */
let stats: TermStats;

beforeAll(async () => {
  const all = await sharedRecords();
  const picked = all.filter((_, i) => i % 4 === 0).map((record) => record.value as Record<string, any>);
  const base = picked[0]!;
  const extra = Array.from({ length: 8 }, (_, i) => ({
    ...base,
    id: `extra-${i}`,
    job_url: `https://jobs.example.com/extra-${i}`,
    job_title: i < 6 ? "Senior Engineeer" : "Powder Coating Technician",
    company_name: i === 0 ? "Enginar Labs" : `Extra ${i}`,
    job_description: i < 6 ? "An engineeer for our platform team." : "Powder coating of metal parts; powder handling.",
  }));
  const powder = extra.slice(6).map((p, i) => ({ ...p, id: `powder-${i}`, job_url: `https://jobs.example.com/powder-${i}` }));
  const records = [...picked, ...extra, ...powder, ...powder.map((p) => ({ ...p, id: `${p.id}b`, job_url: `${p.job_url}b` }))];
  const dataDir = tempDir();
  const embedder = await loadEmbedder({ model: "static", allowRemote: false, modelsDir: MODELS_DIR });
  const store = await openStore({ dataDir, modelId: embedder.modelId, dimension: embedder.dimension });
  try {
    await ingestRecords({ store, embedder }, records.map((value, i) => ({ ref: `record ${i + 1}`, value })));
    stats = store.termStats()!;
  } finally {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 300_000);

const understand = (q: string) => understandQuery(q, {}, { facets: { cityCounts: [], located: new Set() }, stats, now: new Date() });

describe("spelling by evidence", () => {
  test("a misspelling some postings use is corrected when the right word is used far more", () => {
    expect(stats.df.engineeer).toBeGreaterThan(5);
    const u = understand("engineeer");
    expect(u.corrected).toBe("engineer");
    expect(u.hints).toEqual(['searched for "engineer" instead of "engineeer"']);
  });

  test("a real word some postings use stays, though a similar word is commoner", () => {
    expect(stats.df.powder).toBeGreaterThan(5);
    expect(understand("powder coating").corrected).toBeNull();
  });

  test("words typed apart that the postings write as one are joined; a pair titles use stays apart", () => {
    const u = understand("type script developer");
    expect(u.corrected).toBe("typescript developer");
    expect(u.hints).toEqual(['searched for "typescript" instead of "type script"']);
    expect(understand("front end developer").corrected).toBeNull();
  });

  test.each([
    ["graphicsprogrammer", "graphics programmer"],
    ["projectmanager jobs", "project manager jobs"],
  ])("a word run together is searched as its words: %p → %p", (q, corrected) => {
    const u = understand(q);
    expect(u.corrected).toBe(corrected);
    expect(u.hints[0]).toBe(`searched for "${corrected.replace(/ jobs$/, "")}" instead of "${q.split(" ")[0]}"`);
  });

  test("company names, knowledge-base words and acronyms the postings use are never changed", () => {
    expect(understand("enginar").corrected).toBeNull();
    expect(understand("scala developer").corrected).toBeNull();
    expect(understand("SRE").corrected).toBeNull();
    expect(understand("senior developer with kubernetes").corrected).toBeNull();
  });
});

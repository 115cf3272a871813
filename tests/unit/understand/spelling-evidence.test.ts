import { beforeAll, describe, expect, test } from "bun:test";
import type { ValidJobRecord } from "../../../shared/job.ts";
import { contentHash, toStoredJob } from "../../../server/ingest/rows.ts";
import { signature } from "../../../server/ingest/same-job.ts";
import { keepPlacesIndexIn } from "../../../server/places/gazetteer.ts";
import { acceptRecord } from "../../../server/ingest/validate.ts";
import { countTermStats, type TermStats } from "../../../server/store/term-stats.ts";
import { understandQuery } from "../../../server/understand/understand.ts";
import { MODELS_DIR } from "../../support/helpers.ts";
import { sharedRecords } from "../../support/stores.ts";

/**
 * Spelling by evidence on real term statistics: those a load of every 4th posting of the shared data
 * (~7,400) writes, plus a few postings that use a misspelling and a rare real word more often than a typo
 * would be. Only the statistics are read, so they are counted as the store counts them after a load
 * (countTermStats, writeTermStats's counting) over the rows the load would write (toStoredJob), without
 * embedding and writing ~7,400 postings to a table first (16 s of the suite).
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
  stats = countTermStats(storedRows([...picked, ...extra, ...powder, ...powder.map((p) => ({ ...p, id: `${p.id}b`, job_url: `${p.job_url}b` }))]));
});

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

// --- internal ---

/** The rows a load of `values` leaves in the table, as ingest makes them: the valid records, an id's last copy each (no vectors). */
function storedRows(values: object[]) {
  const summary = { invalid: 0, problems: [], citiesCleaned: 0 };
  const byId = new Map<string, ValidJobRecord>();
  values.forEach((value, i) => {
    const record = acceptRecord({ ref: `record ${i + 1}`, value }, summary);
    if (record === undefined) return;
    byId.delete(record.id);
    byId.set(record.id, record);
  });
  // A row places its city: the places index kept with the model, as a server started by a test reads it.
  keepPlacesIndexIn(MODELS_DIR);
  const vector = new Float32Array(0);
  return [...byId.values()].map((record) => toStoredJob(record, contentHash(record), vector, { clusterId: record.id, sig: signature(record) }));
}

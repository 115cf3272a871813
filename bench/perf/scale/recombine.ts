import * as lancedb from "@lancedb/lancedb";
import type { ValidJobRecord } from "../../../shared/job.ts";
import { TABLE_NAME } from "../../../server/store/schema.ts";
import { seededRandom } from "../suite/stats.ts";

/** The real postings a synthetic set is recombined from: each one's fields and description sentences. */
export interface SourcePostings {
  records: ValidJobRecord[];
  /** Per posting, its description cut into sentences (those of 12–400 characters). */
  sentences: string[][];
  /** Row numbers per data_source: sentences come from postings written in the same language. */
  bySource: Map<string, number[]>;
}

/** Reads the real postings of the table in `dataDir` (the bench table) as ingest records. */
export async function loadSourcePostings(dataDir: string): Promise<SourcePostings> {
  const db = await lancedb.connect(dataDir);
  const table = await db.openTable(TABLE_NAME);
  try {
    const rows = await table.query().select([...RECORD_FIELDS]).toArray();
    const records = rows.map((row): ValidJobRecord => {
      const record = Object.fromEntries(RECORD_FIELDS.map((field) => [field, row[field] ?? null])) as ValidJobRecord;
      return { ...record, job_tags: row.job_tags ? [...(row.job_tags as Iterable<string>)] : [] };
    });
    const bySource = new Map<string, number[]>();
    records.forEach((record, i) => {
      const rows = bySource.get(record.data_source) ?? [];
      rows.push(i);
      bySource.set(record.data_source, rows);
    });
    return { records, sentences: records.map((r) => splitSentences(r.job_description)), bySource };
  } finally {
    table.close();
    db.close();
  }
}

/**
 * Synthetic posting `i` (deterministic): the title, company, place, seniority, employment type,
 * salary, tags, date and source of one real posting (the donor), and a description of runs of 1–3
 * consecutive sentences from 2–5 other postings of the donor's source, up to ~1,500 characters (what
 * the embedder reads of a description). Its vector is the embedder's, so it is nobody's copy.
 */
export function recombinedRecord(source: SourcePostings, i: number): ValidJobRecord {
  const random = seededRandom(0x5eed + i * 7919);
  const { records, sentences, bySource } = source;
  const donorRow = Math.floor(random() * records.length);
  const donor = records[donorRow]!;
  const peers = bySource.get(donor.data_source)!;
  const parts: string[] = [];
  let length = 0;
  const wanted = 2 + Math.floor(random() * 4);
  for (let tries = 0, used = 0; used < wanted && length < DESCRIPTION_CHARS && tries < 20; tries++) {
    const row = peers[Math.floor(random() * peers.length)]!;
    const own = sentences[row]!;
    if (row === donorRow || own.length === 0) continue;
    const start = Math.floor(random() * own.length);
    for (const sentence of own.slice(start, start + 1 + Math.floor(random() * 3))) {
      parts.push(sentence);
      length += sentence.length + 1;
    }
    used++;
  }
  const id = `r${i}`;
  const job_description = parts.length > 0 ? parts.join(" ") : donor.job_description;
  return { ...donor, id, job_url: `${donor.job_url}#${id}`, job_description };
}

// --- internal ---

const RECORD_FIELDS = [
  "id", "job_title", "company_name", "city", "country", "publish_time", "base_salary", "job_url", "job_tags", "data_source",
  "seniority_level", "employment_type", "job_description",
] as const;

/** What documentText embeds of a description; longer synthetic descriptions would add nothing to the vector. */
const DESCRIPTION_CHARS = 1500;

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|(?<=[。！？])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 12 && s.length <= 400);
}

import { createHash } from "node:crypto";
import { JobRecordSchema, type ValidJobRecord } from "../../shared/job.ts";
import { cleanRecordCity } from "./city.ts";
import type { IngestSummary } from "./ingest.ts";
import type { RawRecord } from "./read.ts";

export type Validation = { ok: true; record: ValidJobRecord } | { ok: false; problem: string };

/**
 * Checks one raw record against the posting schema. A missing id is derived from job_url
 * (`url-` + 16 hex digits of its SHA-256), so the same posting always gets the same id.
 * The problem text names each bad field, e.g. `publish_time must be YYYY-MM-DD HH:MM:SS`.
 */
export function validateRecord(raw: RawRecord): Validation {
  if (raw.parseError !== undefined) return { ok: false, problem: raw.parseError };
  if (typeof raw.value !== "object" || raw.value === null || Array.isArray(raw.value)) {
    return { ok: false, problem: "not a JSON object" };
  }
  const parsed = JobRecordSchema.safeParse(withoutNul(raw.value as Record<string, unknown>));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "record"} ${issue.message}`);
    return { ok: false, problem: problems.join("; ") };
  }
  const record = parsed.data;
  const id = record.id ?? `url-${createHash("sha256").update(record.job_url).digest("hex").slice(0, 16)}`;
  return { ok: true, record: { ...record, id } };
}

// --- internal ---

/**
 * The record with NUL removed from its texts: a filter value cannot hold NUL (it would match
 * nothing), so "Berlin\u0000" is stored, and found, as "Berlin".
 */
function withoutNul(value: Record<string, unknown>): Record<string, unknown> {
  const clean = (text: unknown) => (typeof text === "string" && text.includes("\u0000") ? text.replaceAll("\u0000", "") : text);
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[key] = Array.isArray(field) ? field.map(clean) : clean(field);
  return out;
}

/** Invalid records a summary lists (the count is exact), so a file of garbage cannot fill memory. */
export const PROBLEMS_KEPT = 1000;

/** The record, validated and its city cleaned (city.ts), or undefined when invalid (counted, and kept as a problem). */
export function acceptRecord(raw: RawRecord, summary: Pick<IngestSummary, "invalid" | "problems" | "citiesCleaned">): ValidJobRecord | undefined {
  const checked = validateRecord(raw);
  if (!checked.ok) {
    summary.invalid++;
    if (summary.problems.length < PROBLEMS_KEPT) summary.problems.push({ ref: raw.ref, problem: checked.problem });
    return undefined;
  }
  if (cleanRecordCity(checked.record)) summary.citiesCleaned++;
  return checked.record;
}

import type { SearchFilters } from "../../shared/search.ts";
import { parseDateTime } from "../../shared/time.ts";
import type { FieldJudge } from "./sets/constraint-queries.ts";
import type { JudgedQuery } from "./sets/queries.ts";

/** What a judge reads of a posting: the same fields on a search result and on a record of the data file. */
export interface JudgedPosting {
  job_title?: string | null;
  job_description?: string | null;
  job_tags?: string[] | null;
  city?: string | null;
  country?: string | null;
  seniority_level?: string | null;
  employment_type?: string | null;
  publish_time?: string;
}

/** The part of a posting a reader decides on: its title and the start of its description. */
export const JUDGED_DESCRIPTION_CHARS = 300;

/** Whether `posting` is relevant to `query` by the query's transparent judge. */
export function isRelevant(query: JudgedQuery, posting: JudgedPosting): boolean {
  if (query.fields !== undefined && !meetsFields(query.fields, posting)) return false;
  if (query.relevant.test(judgedText(posting))) return true;
  return query.tags !== undefined && (posting.job_tags ?? []).some((tag) => wholeMatch(query.tags!, tag));
}

/** Whether the posting's raw fields meet every condition of a constraint query. */
export function meetsFields(fields: FieldJudge, posting: JudgedPosting): boolean {
  const tags = (posting.job_tags ?? []).map((tag) => tag.toLowerCase());
  if (fields.cities && !fields.cities.includes(posting.city ?? "")) return false;
  if (fields.countries && !fields.countries.includes(posting.country ?? "")) return false;
  if (fields.remote !== undefined && tags.includes("remote") !== fields.remote) return false;
  if (fields.seniority && !fields.seniority.includes(posting.seniority_level ?? "") && !fields.seniorityTitle?.test(posting.job_title ?? "")) return false;
  if (fields.employment && !fields.employment.includes(posting.employment_type ?? "") && !(fields.employmentTags ?? []).some((tag) => tags.includes(tag))) {
    return false;
  }
  if (fields.internship && !isInternship(posting, tags)) return false;
  if (fields.year !== undefined && !String(posting.publish_time ?? "").startsWith(String(fields.year))) return false;
  return true;
}

function isInternship(posting: JudgedPosting, tags: string[]): boolean {
  return posting.seniority_level === "intern" || posting.employment_type === "INTERN" || tags.includes("internship") || /\bintern(ship)?s?\b/i.test(posting.job_title ?? "");
}

export function judgedText(posting: JudgedPosting): string {
  return `${posting.job_title ?? ""}\n${(posting.job_description ?? "").slice(0, JUDGED_DESCRIPTION_CHARS)}`;
}

/** Throws when a judge could give different answers for the same text (g/y flags) or is case-sensitive. */
export function checkJudge(query: JudgedQuery): void {
  for (const regex of [query.relevant, query.tags]) {
    if (regex === undefined) continue;
    if (!regex.flags.includes("i") || regex.global || regex.sticky) {
      throw new Error(`judge of "${query.query}" must be case-insensitive and without g/y flags: ${regex}`);
    }
  }
}

/** A record of the data file as the search filters see it (same semantics as search/filter.ts). */
export interface FilterableRecord {
  city?: string | null;
  country?: string | null;
  data_source: string;
  publish_time: string;
}

export function matchesFilters(filters: SearchFilters, record: FilterableRecord): boolean {
  if (filters.city !== undefined && record.city !== filters.city) return false;
  if (filters.country !== undefined && record.country !== filters.country) return false;
  if (filters.source !== undefined && record.data_source !== filters.source) return false;
  if (filters.since === undefined && filters.until === undefined) return true;
  const published = parseDateTime(record.publish_time) ?? Number.NaN;
  if (filters.since !== undefined && !(published > filters.since)) return false;
  if (filters.until !== undefined && !(published < filters.until)) return false;
  return true;
}

// --- internal ---

function wholeMatch(regex: RegExp, text: string): boolean {
  return new RegExp(`^(?:${regex.source})$`, regex.flags).test(text);
}

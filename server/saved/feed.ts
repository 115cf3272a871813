import type { JobResult } from "../../shared/job.ts";
import type { SearchDeps } from "../search/search.ts";
import { newMatchesSince, type LoadTimes } from "./new-jobs.ts";
import type { SavedRecord } from "./store.ts";

/*
 * A saved search as an Atom 1.0 feed (RFC 4287), at GET /v1/feeds/{token}: the postings first loaded
 * since it was saved, in the last FEED_WINDOW_DAYS, that match it, best first. Reading it moves no cursor (a feed reader
 * keeps its own, by entry id); the token in the URL is the only credential, so it is long and random,
 * and dies with the saved search or when rotated. Pages are kept per table version (a feed reader
 * polls; the answer changes only with a load).
 */

export const FEED_WINDOW_DAYS = 14;

/** The feed's XML for `record`; `selfUrl` is its own absolute URL. */
export async function savedSearchFeed(deps: SearchDeps & { loads: LoadTimes }, record: SavedRecord, selfUrl: string): Promise<string> {
  const version = await deps.store.version();
  const key = `${record.id}:${record.feedToken}:${version}:${JSON.stringify(record.params)}`;
  const day = Math.floor(Date.now() / 86_400_000);
  const cached = FEEDS.get(key);
  if (cached && cached.day === day) return cached.xml;
  const since = Math.max(0, Date.parse(record.createdAt) || 0, Date.now() - FEED_WINDOW_DAYS * 86_400_000);
  const found = await newMatchesSince(deps, record, since);
  const xml = atom(record, selfUrl, found.results, found.loadedAt);
  FEEDS.set(key, { xml, day });
  if (FEEDS.size > FEEDS_KEPT) FEEDS.delete(FEEDS.keys().next().value!);
  return xml;
}

/** The stable URN of a posting: the same entry id in every feed and every poll. */
export function postingUrn(id: string): string {
  return `urn:jobsearch:job:${encodeURIComponent(id)}`;
}

// --- internal ---

const FEEDS = new Map<string, { xml: string; day: number }>();
const FEEDS_KEPT = 500;

function atom(record: SavedRecord, selfUrl: string, results: JobResult[], loadedAt: Map<string, number>): string {
  const times = results.map((result) => loadedAt.get(result.id) ?? 0);
  const updated = new Date(Math.max(record.cursor, Date.parse(record.createdAt) || 0, ...times)).toISOString();
  const entries = results.map((result, i) => entry(result, new Date(times[i]! || Date.parse(record.createdAt) || 0).toISOString()));
  return [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `  <id>urn:jobsearch:saved-search:${encodeURIComponent(record.id)}</id>`,
    `  <title>${text(`New jobs: ${record.name}`)}</title>`,
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${text(selfUrl)}"/>`,
    `  <author><name>jobsearch</name></author>`,
    `  <generator>jobsearch</generator>`,
    ...entries,
    `</feed>`,
    "",
  ].join("\n");
}

function entry(result: JobResult, updated: string): string {
  const title = [result.job_title ?? "Job", result.company_name, result.city].filter(Boolean).join(" · ");
  const summary = [
    result.company_name, result.city, result.base_salary, result.seniority_level, result.employment_type,
    result.job_tags.length > 0 ? result.job_tags.join(", ") : undefined, `published ${result.publish_time} UTC`, `via ${result.data_source}`,
  ].filter(Boolean).join(" · ");
  const published = result.publish_time.replace(" ", "T") + "Z";
  return [
    `  <entry>`,
    `    <id>${postingUrn(result.id)}</id>`,
    `    <title>${text(title)}</title>`,
    `    <updated>${updated}</updated>`,
    `    <published>${published}</published>`,
    `    <link rel="alternate" type="text/html" href="${text(result.job_url)}"/>`,
    `    <summary>${text(summary)}</summary>`,
    `  </entry>`,
  ].join("\n");
}

/** Text as XML character data or an attribute value: escaped, and without what XML 1.0 may not hold. */
function text(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

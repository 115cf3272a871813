import { AppError } from "../../shared/errors.ts";
import { formatCursor, NEW_JOBS_MAX, type NewJobs } from "../../shared/saved.ts";
import { parseSearchRequest } from "../../shared/search.ts";
import { searchJobs, type SearchDeps, type SearchOutcome } from "../search/search.ts";
import type * as lancedb from "@lancedb/lancedb";
import { latestLoad, loadedAfter } from "../store/postings.ts";
import type { SavedRecord, SavedSearchStore } from "./store.ts";

/*
 * What is new for a saved search: the postings first loaded after its cursor (store/postings.ts) whose
 * job was not loaded before (no earlier posting of their cluster: a repost or a copy is not news) that
 * match it, best first; the cursor moves past all of them. "Match" is the saved search run over those postings alone: its filters, and a
 * score of at least its min_score, or 0.5 (a plausible match, what facets count) without one.
 */

/** When postings were first loaded (store/postings.ts), read from the whole table (requests read through views that cannot). */
export interface LoadTimes {
  /** The postings first loaded after `cursor` (epoch ms), with their times; `seen`: their job (cluster) was loaded before. */
  after(cursor: number): Promise<Array<{ id: string; loadedAt: number; seen: boolean }>>;
  /** The latest first-load time, 0 for none. */
  latest(): Promise<number>;
}

export function loadTimesOf(table: lancedb.Table): LoadTimes {
  return { after: (cursor) => loadedAfter(table, cursor), latest: () => latestLoad(table) };
}

export interface NewMatches extends SearchOutcome {
  /** The cursor looked from, and the one after (the latest first-load time among the postings looked at). */
  since: number;
  cursor: number;
  /** When each result was first loaded (epoch ms): a feed entry's `updated`, a webhook's order. */
  loadedAt: Map<string, number>;
}

/** Up to how many times a check tries again when another check moved the cursor first. */
const CLAIM_ATTEMPTS = 5;

/** The new matches since `since` (a client's own cursor), nothing stored or moved. */
export async function newMatchesSince(deps: SearchDeps & { loads: LoadTimes }, record: SavedRecord, since: number): Promise<NewMatches> {
  const fresh = await deps.loads.after(since);
  const cursor = fresh.reduce((latest, posting) => Math.max(latest, posting.loadedAt), since);
  return { ...(await matching(deps, record, unseen(fresh))), since, cursor, loadedAt: timesOf(fresh) };
}

/**
 * The new matches since the stored cursor (`which`: the `new` checks' or the webhook's), and the
 * cursor moved past every posting looked at. The range is claimed before it is searched (compare-and-set),
 * so two checks at once never both return a posting: the second finds the cursor moved and looks
 * from there. A search that fails gives the range back when nothing moved the cursor since.
 */
export async function claimNewMatches(
  deps: SearchDeps & { saved: SavedSearchStore; loads: LoadTimes }, record: SavedRecord, which: "poll" | "webhook" = "poll",
): Promise<NewMatches> {
  let current: SavedRecord | undefined = record;
  for (let attempt = 1; ; attempt++) {
    const since = which === "poll" ? current.cursor : (current.webhook?.cursor ?? current.cursor);
    const fresh = await deps.loads.after(since);
    const cursor = fresh.reduce((latest, posting) => Math.max(latest, posting.loadedAt), since);
    if (cursor === since) return { ...(await matching(deps, current, [])), since, cursor, loadedAt: new Map() };
    if (await deps.saved.advance(current.id, which, since, cursor)) {
      try {
        return { ...(await matching(deps, current, unseen(fresh))), since, cursor, loadedAt: timesOf(fresh) };
      } catch (error) {
        await deps.saved.advance(current.id, which, cursor, since).catch(() => {});
        throw error;
      }
    }
    current = await deps.saved.get(record.owner, record.id);
    if (!current) throw new AppError("NOT_FOUND", "saved search not found");
    if (attempt >= CLAIM_ATTEMPTS) throw new AppError("SERVICE_UNAVAILABLE", "saved search checked by too many at once; try again", { retryAfter: 1 });
  }
}

/** A check's answer in the search response's shape, with the cursors as clients see them. */
export function newJobsBody(found: NewMatches): NewJobs {
  return { total: found.results.length, results: found.results, query: found.query, since: formatCursor(found.since), cursor: formatCursor(found.cursor) };
}

// --- internal ---

/** The saved search run over `ids` alone: best first, at most NEW_JOBS_MAX, above its threshold. */
async function matching(deps: SearchDeps, record: SavedRecord, ids: string[]): Promise<SearchOutcome> {
  const request = parseSearchRequest(record.params, "post");
  return searchJobs(deps, {
    ...request,
    onlyIds: ids,
    topK: NEW_JOBS_MAX,
    offset: 0,
    sort: "relevance",
    minScore: request.facetMinScore,
    facets: [],
  });
}

/** The ids of the postings whose job is new. */
function unseen(fresh: Array<{ id: string; seen: boolean }>): string[] {
  return fresh.filter((posting) => !posting.seen).map((posting) => posting.id);
}

function timesOf(fresh: Array<{ id: string; loadedAt: number }>): Map<string, number> {
  return new Map(fresh.map((posting) => [posting.id, posting.loadedAt]));
}

import { AppError } from "../../shared/errors.ts";
import { formatCursor, parseSavedSearch, type CreatedSavedSearch, type DeliveryView, type SavedSearch } from "../../shared/saved.ts";
import type { Interface } from "../../shared/search.ts";
import type { Config } from "../config.ts";
import type { SearchDeps } from "../search/search.ts";
import type { LoadTimes } from "./new-jobs.ts";
import type { Delivery } from "./outbox.ts";
import type { SavedRecord, SavedSearchStore } from "./store.ts";
import { checkWebhookTarget } from "./webhook-target.ts";

/*
 * Saved searches as the interfaces offer them (REST routes/saved.ts, the MCP tools): each call is
 * one principal's (`owner`, a principal id), and another owner's saved search is NOT_FOUND, as if it
 * did not exist. `base` is the service's public base URL, for the absolute feed_url.
 */

export interface SavedDeps extends SearchDeps {
  saved: SavedSearchStore;
  loads: LoadTimes;
  config: Config;
}

/** Creates one from a flat body (see parseSavedSearch); its cursors start at the latest load, so only later postings are new. */
export async function createSavedSearch(deps: SavedDeps, owner: string, raw: Record<string, unknown>, via: Interface, base: string): Promise<CreatedSavedSearch> {
  const input = parseSavedSearch(raw, via);
  if (input.webhookUrl !== undefined) await checkWebhookTarget(input.webhookUrl, deps.config.saved.webhooks.allowPrivate);
  const cursor = await deps.loads.latest();
  const record = await deps.saved.create(owner, input, { cursor, maxPerOwner: deps.config.saved.maxPerOwner });
  return { ...savedView(record, base), ...(record.webhook ? { webhook_secret: record.webhook.secret } : {}) };
}

export async function listSavedSearches(deps: SavedDeps, owner: string, base: string): Promise<SavedSearch[]> {
  return (await deps.saved.list(owner)).map((record) => savedView(record, base));
}

/** The owner's saved search with this id; NOT_FOUND otherwise (another owner's included). */
export async function findSavedSearch(deps: Pick<SavedDeps, "saved">, owner: string, id: string): Promise<SavedRecord> {
  const record = await deps.saved.get(owner, id);
  if (!record) throw notFound();
  return record;
}

export async function deleteSavedSearch(deps: Pick<SavedDeps, "saved">, owner: string, id: string): Promise<void> {
  if (!(await deps.saved.remove(owner, id))) throw notFound();
}

/** A new feed URL; the old one stops working at once. */
export async function rotateFeedToken(deps: Pick<SavedDeps, "saved">, owner: string, id: string, base: string): Promise<SavedSearch> {
  const token = await deps.saved.rotateFeedToken(owner, id);
  if (token === undefined) throw notFound();
  return savedView(await findSavedSearch(deps, owner, id), base);
}

/** The wire shape (no webhook secret, no owner). */
export function savedView(record: SavedRecord, base: string): SavedSearch {
  return {
    id: record.id,
    name: record.name,
    params: record.params,
    feed_url: feedUrl(base, record.feedToken),
    webhook_url: record.webhook?.url ?? null,
    created_at: record.createdAt,
    cursor: formatCursor(record.cursor),
  };
}

/** A delivery as its log shows it (no body, no secret). */
export function deliveryView(d: Delivery): DeliveryView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: d.id, status: d.status, attempts: d.attempts, postings: (JSON.parse(d.body) as { total: number }).total,
    since: formatCursor(d.since), cursor: formatCursor(d.cursor), created_at: new Date(d.createdAt).toISOString(),
    delivered_at: iso(d.deliveredAt), next_attempt_at: d.status === "pending" ? iso(d.nextAt) : null, last_status: d.lastStatus, last_error: d.lastError,
  };
}

export function feedUrl(base: string, token: string): string {
  return `${base}/v1/feeds/${token}`;
}

// --- internal ---

function notFound(): AppError {
  return new AppError("NOT_FOUND", "saved search not found");
}

import { z } from "zod";
import { AppError, invalidParameter } from "./errors.ts";
import { JobResultSchema } from "./job.ts";
import { QueryEchoSchema } from "./search.ts";
import { parseSearchRequest, type Interface } from "./search.ts";
import { SEARCH_PARAMS, wireName, type ParamSpec, type SearchParamName } from "./search-params.ts";

/*
 * Saved searches (an extension of the spec, docs/api.md "Extensions"): a name and the parameters of a
 * search, read by the declarations of search-params.ts and so validated exactly as /v1/search
 * validates them. The wire shapes live here, for the REST routes, the MCP tools and the CLI.
 */

export const SAVED_NAME_MAX = 100;
export const WEBHOOK_URL_MAX = 2048;
/** The most new postings one check returns (best first); the same cap as a search page. */
export const NEW_JOBS_MAX = 100;

/** A saved search as given: its name, its search parameters (REST names: `q`), an optional webhook URL. */
export interface SavedSearchInput {
  name: string;
  params: Record<string, unknown>;
  webhookUrl?: string;
}

/**
 * Reads a flat body (`{"name": "rust", "q": "rust developer", "remote": true}`; MCP names `query` for
 * `q`). The parameters are checked by parseSearchRequest, so they fail with the message and code a
 * search would (MISSING_QUERY without q); parameters a search ignores are not kept. Throws
 * INVALID_PARAMETER for a missing, empty or over-long name or a malformed webhook_url.
 */
export function parseSavedSearch(raw: Record<string, unknown>, via: Interface): SavedSearchInput {
  const name = readName(raw.name);
  parseSearchRequest(raw, via);
  const params: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(SEARCH_PARAMS) as Array<[SearchParamName, ParamSpec<unknown>]>) {
    if (spec.restOnly && via === "mcp") continue;
    const value = raw[wireName(key, via)];
    if (value !== undefined) params[key] = value;
  }
  const webhookUrl = raw.webhook_url === undefined || raw.webhook_url === null ? undefined : readWebhookUrl(raw.webhook_url);
  return { name, params, ...(webhookUrl === undefined ? {} : { webhookUrl }) };
}

/** A `since` cursor: an ISO 8601 time as a check's `cursor` gives it; its epoch milliseconds. */
export function parseCursor(value: string): number {
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms)) throw invalidParameter("since must be a time in ISO 8601, as a check's cursor gives it (e.g. 2026-03-01T12:00:00.000Z)");
  return ms;
}

/** The cursor as a client sees it. */
export function formatCursor(ms: number): string {
  return new Date(ms).toISOString();
}

/** Too many saved searches, or a name already used: a 409 that says which. */
export function savedConflict(message: string): AppError {
  return new AppError("CONFLICT", message);
}

export const SavedSearchSchema = z.object({
  id: z.string().describe("The saved search's id"),
  name: z.string().describe("Its name, unique among the caller's saved searches"),
  params: z.record(z.string(), z.unknown()).describe("The search parameters, named as POST /v1/search names them"),
  feed_url: z.string().describe("Its Atom feed: an unguessable URL readable without a key, revoked with the saved search or by rotating it"),
  webhook_url: z.string().nullable().describe("Where new matches are POSTed after each load, or null"),
  created_at: z.string().describe("ISO 8601"),
  cursor: z.string().describe("The first-load time up to which new postings were returned by a check (ISO 8601)"),
});
export type SavedSearch = z.infer<typeof SavedSearchSchema>;

/** The answer to creating one: the saved search, and the webhook's signing secret (shown once). */
export const CreatedSavedSearchSchema = SavedSearchSchema.extend({
  webhook_secret: z.string().optional().describe("With webhook_url: the HMAC-SHA256 key of its signatures, shown only now"),
});
export type CreatedSavedSearch = z.infer<typeof CreatedSavedSearchSchema>;

export const SavedSearchListSchema = z.object({
  total: z.number().int(),
  saved_searches: z.array(SavedSearchSchema),
});
export type SavedSearchList = z.infer<typeof SavedSearchListSchema>;

/** What a check returns: postings first loaded after `since` that match, best first, in the search response's shape. */
export const NewJobsSchema = z.object({
  total: z.number().int().describe("Number of new postings returned"),
  results: z.array(JobResultSchema).describe(`Postings first loaded after since that match the saved search, best first (at most ${NEW_JOBS_MAX})`),
  query: QueryEchoSchema,
  since: z.string().describe("The cursor the check started from (ISO 8601)"),
  cursor: z.string().describe("The cursor after it: pass it as since next time to keep your own"),
});
export type NewJobs = z.infer<typeof NewJobsSchema>;

/** One webhook delivery as its log shows it. */
export const DeliverySchema = z.object({
  id: z.string().describe("The delivery's id: its Idempotency-Key, the same on every attempt"),
  status: z.enum(["pending", "delivered", "failed"]).describe("pending: to be (re)tried at next_attempt_at; delivered: a 2xx came back; failed: given up"),
  attempts: z.number().int(),
  postings: z.number().int().describe("New postings it carries"),
  since: z.string(),
  cursor: z.string(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  last_status: z.number().int().nullable().describe("The receiver's last HTTP status, null when it did not answer"),
  last_error: z.string().nullable(),
});
export type DeliveryView = z.infer<typeof DeliverySchema>;

export const DeliveryLogSchema = z.object({ total: z.number().int(), deliveries: z.array(DeliverySchema).describe("Newest first") });

// --- internal ---

function readName(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw invalidParameter("name is required: a short name for the saved search");
  const name = value.trim();
  if (name.length > SAVED_NAME_MAX) throw invalidParameter(`name must be at most ${SAVED_NAME_MAX} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw invalidParameter("name must not contain control characters");
  return name;
}

function readWebhookUrl(value: unknown): string {
  if (typeof value !== "string" || value.length > WEBHOOK_URL_MAX) throw invalidParameter(`webhook_url must be an http(s) URL of at most ${WEBHOOK_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter("webhook_url must be an http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidParameter("webhook_url must be an http(s) URL");
  if (url.username || url.password) throw invalidParameter("webhook_url must not carry a user or password");
  return url.href;
}

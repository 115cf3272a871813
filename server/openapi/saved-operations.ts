import type { ErrorBody } from "../../shared/errors.ts";
import type { CreatedSavedSearch, NewJobs } from "../../shared/saved.ts";
import { API_KEY, commonErrors, ERROR_EXAMPLES, json, operation, REQUEST_ID, SEARCH_EXAMPLE } from "./operations.ts";
import { ref } from "./schemas.ts";

/** The saved-search operations (ours: docs/api.md "Extensions: saved searches, feeds, webhooks"). */

const SAVED_EXAMPLE = {
  id: "9f2c4e1a7b3d5c60",
  name: "rust remote",
  params: { q: "rust developer", remote: true },
  feed_url: "https://jobs.example.com/v1/feeds/3q2-Xx8N0y6tQmVbC1rJ4kWzL9sP7aD5fG0hE2uI6oY",
  webhook_url: null,
  created_at: "2026-09-14T08:30:00.000Z",
  cursor: "2026-09-14T08:00:00.000Z",
};

export const SAVED_EXAMPLES = {
  created: { request_id: REQUEST_ID, ...SAVED_EXAMPLE } satisfies CreatedSavedSearch & { request_id: string },
  newJobs: {
    request_id: REQUEST_ID, search_time_ms: 21, total: 1, results: SEARCH_EXAMPLE.results,
    query: { text: "rust developer", applied_filters: {}, corrected: null, hints: [] },
    since: "2026-09-14T08:00:00.000Z", cursor: "2026-09-15T06:12:09.311Z",
  } satisfies NewJobs & { request_id: string; search_time_ms: number },
};

const ID = { name: "id", in: "path", required: true, description: "The saved search's id", schema: { type: "string" }, example: SAVED_EXAMPLE.id };
const NOT_FOUND: ErrorBody = { request_id: REQUEST_ID, error: "saved search not found", error_code: "NOT_FOUND" };
const notFound = () => ({ 404: json("The caller has no saved search with this id (another key's are not found either)", ref("Error"), { notFound: NOT_FOUND }) });
const TAGS = ["Saved searches"];

export const savedCreateOperation = operation({
  tags: TAGS,
  summary: "Save a search",
  description:
    "A flat body: `name` (1-100 characters, unique among the key's), any search parameters (validated exactly as POST /v1/search validates them) " +
    "and optionally `webhook_url` (http(s), a public address unless WEBHOOK_ALLOW_PRIVATE). Only postings first loaded after this moment are new to it. " +
    "With a webhook the answer carries `webhook_secret` once. 409 CONFLICT: the name is taken, or the key has SAVED_SEARCHES_MAX saved searches.",
  security: API_KEY,
  requestBody: {
    required: true,
    content: { "application/json": { examples: { rust: { summary: "A remote Rust search", value: { name: "rust remote", q: "rust developer", remote: true } } } } },
  },
  responses: {
    201: json("The saved search, with its feed URL", ref("CreatedSavedSearch"), { created: SAVED_EXAMPLES.created }),
    400: json("A missing name or q, or a bad parameter", ref("Error"), { missingQuery: ERROR_EXAMPLES.missingQuery }),
    409: json("The name is taken, or the key keeps the most saved searches", ref("Error"), {
      taken: { request_id: REQUEST_ID, error: 'a saved search named "rust remote" exists; choose another name or delete it first', error_code: "CONFLICT" },
    }),
    ...commonErrors(),
  },
});

export const savedListOperation = operation({
  tags: TAGS,
  summary: "The key's saved searches",
  security: API_KEY,
  responses: { 200: json("Oldest first", ref("SavedSearchList"), { list: { request_id: REQUEST_ID, total: 1, saved_searches: [SAVED_EXAMPLE] } }), ...commonErrors() },
});

export const savedGetOperation = operation({
  tags: TAGS,
  summary: "One saved search",
  security: API_KEY,
  parameters: [ID],
  responses: { 200: json("The saved search", ref("SavedSearch"), { saved: { request_id: REQUEST_ID, ...SAVED_EXAMPLE } }), ...notFound(), ...commonErrors() },
});

export const savedDeleteOperation = operation({
  tags: TAGS,
  summary: "Delete a saved search",
  description: "Its feed URL stops working and its webhook gets no more deliveries.",
  security: API_KEY,
  parameters: [ID],
  responses: { 204: { description: "Deleted" }, ...notFound(), ...commonErrors() },
});

export const savedNewOperation = operation({
  tags: TAGS,
  summary: "New postings for a saved search",
  description:
    "Postings first loaded after the saved search's cursor that match it (its filters, and a score of at least its min_score or else 0.5), best first, " +
    "at most 100, in the search response's shape; the cursor then moves past them, so each is returned once (two checks at once never return the same posting). " +
    "With `since` (a `cursor` from an earlier answer) the postings after it are returned and the stored cursor does not move.",
  security: API_KEY,
  parameters: [ID, { name: "since", in: "query", required: false, description: "A cursor kept by the client (ISO 8601)", schema: { type: "string" } }],
  responses: { 200: json("The new matches", ref("NewJobs"), { page: SAVED_EXAMPLES.newJobs }), ...notFound(), ...commonErrors() },
});

export const savedFeedTokenOperation = operation({
  tags: TAGS,
  summary: "A new feed URL",
  description: "Replaces the feed URL's token: the old URL stops working at once.",
  security: API_KEY,
  parameters: [ID],
  responses: { 200: json("The saved search with its new feed_url", ref("SavedSearch"), { saved: { request_id: REQUEST_ID, ...SAVED_EXAMPLE } }), ...notFound(), ...commonErrors() },
});

export const savedFeedOperation = operation({
  tags: TAGS,
  summary: "A saved search's Atom feed",
  description: "Atom 1.0, no key: the token in the URL is the credential. Entries: the postings first loaded since the search was saved, in the last 14 days, that match, best first; each entry's id is the posting's stable URN.",
  parameters: [{ name: "token", in: "path", required: true, description: "The token of feed_url", schema: { type: "string" } }],
  responses: {
    200: { description: "The feed", content: { "application/atom+xml": { schema: { type: "string" } } } },
    404: json("No saved search has this feed token (deleted, or the token was rotated)", ref("Error"), { notFound: { request_id: REQUEST_ID, error: "feed not found", error_code: "NOT_FOUND" } }),
  },
});

export const savedDeliveriesOperation = operation({
  tags: TAGS,
  summary: "A saved search's webhook deliveries",
  description: "Its webhook deliveries, newest first (the last 100 finished ones and every pending one): status, attempts, the receiver's last answer, the next attempt.",
  security: API_KEY,
  parameters: [ID],
  responses: {
    200: json("The delivery log", ref("DeliveryLog"), {
      log: {
        request_id: REQUEST_ID, total: 1, deliveries: [{
          id: `${SAVED_EXAMPLE.id}.1789372800000.1789459200000`, status: "delivered", attempts: 2, postings: 3, since: "2026-09-14T08:00:00.000Z", cursor: "2026-09-15T08:00:00.000Z",
          created_at: "2026-09-15T08:00:02.000Z", delivered_at: "2026-09-15T08:00:33.000Z", next_attempt_at: null, last_status: 200, last_error: null,
        }],
      },
    }),
    ...notFound(),
    ...commonErrors(),
  },
});

// Talking to the service: the API key (kept in localStorage), requests, and what an error means to a person.

const KEY_STORAGE = "jobsearch.apiKey";
let memoryKey = "";

export function readKey() {
  try { return localStorage.getItem(KEY_STORAGE) ?? ""; } catch { return memoryKey; }
}

export function writeKey(key) {
  memoryKey = key;
  try {
    if (key) localStorage.setItem(KEY_STORAGE, key);
    else localStorage.removeItem(KEY_STORAGE);
  } catch { /* storage disabled: the key lasts until the page closes */ }
}

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error_code;
    this.requestId = body?.request_id;
    this.retryAfter = body?.retry_after;
  }
}

export async function api(path, init = {}) {
  const headers = { "x-api-key": readKey(), ...init.headers };
  let response;
  try {
    response = await fetch(path, { ...init, headers });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { error: "Cannot reach the service. Check your connection and try again." });
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

/** The form's filters, by field id and parameter name; a search and a match both take them. */
export const FILTERS = ["city", "country", "since", "source", "remote", "seniority", "employment_type", "tags", "company", "salary_min", "near", "sort", "top_k"];

/** Longest profile the service reads (PROFILE_MAX_CHARS in shared/match.ts); longer is refused before sending. */
export const PROFILE_MAX_CHARS = 20000;

function searchBody(params, detail) {
  const body = { q: params.q, offset: params.offset, detail, ...filterBody(params), facets: FACETS };
  if (params.understand === "false") body.understand = false;
  return body;
}

/** The form's filters, order and page size as the API takes them. */
function filterBody(params) {
  const body = { top_k: Number(params.top_k), sort: params.sort };
  for (const name of ["city", "country", "since", "source", "company", "near"]) if (params[name]) body[name] = params[name];
  if (params.remote) body.remote = params.remote === "true";
  if (params.tags) body.tags = params.tags.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "");
  if (params.salary_min) body.salary_min = Number(params.salary_min);
  // The page picks one level or type; the API takes a list.
  for (const name of ["seniority", "employment_type"]) if (params[name]) body[name] = [params[name]];
  return body;
}

/** The counts the page shows beside the results (each a filter of the form). */
export const FACETS = ["seniority", "employment_type", "remote", "city", "tags"];

/** One posting by id (GET /v1/jobs/{id}). */
export function getJob(id, signal) {
  return api(`/v1/jobs/${encodeURIComponent(id)}`, { signal });
}

/** Postings like one (GET /v1/jobs/{id}/similar), a page of them. */
export function getSimilar(id, params, signal) {
  const query = new URLSearchParams({ top_k: String(params.top_k || 20), offset: String(params.offset || 0) });
  return api(`/v1/jobs/${encodeURIComponent(id)}/similar?${query}`, { signal });
}

export function postSearch(params, detail, signal) {
  return api("/v1/search", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(searchBody(params, detail)),
    signal,
  });
}

/** Postings matching a résumé or profile (POST /v1/match), with the form's filters; the profile travels in the body only. */
export function postMatch(profile, params, signal) {
  return api("/v1/match", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ profile, ...filterBody(params) }),
    signal,
  });
}

/** Saves the search on screen under `name` (POST /v1/saved-searches): its words and the form's filters. */
export function saveSearch(name, params) {
  const body = { name, q: params.q, ...filterBody(params) };
  if (params.understand === "false") body.understand = false;
  return api("/v1/saved-searches", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

/** A sentence for the person: what went wrong and what to do. */
export function explain(error) {
  if (error.status === 403) return "The API key was refused: it is missing, unknown or revoked. Enter a valid key.";
  if (error.status === 429) {
    const wait = Number(error.retryAfter) || 1;
    return `Too many requests for this key. Wait ${wait} second${wait === 1 ? "" : "s"} and try again.`;
  }
  if (error.status === 413) return `Too long for the service: ${error.message}.`;
  if (error.status === 400) return `The search could not run: ${error.message}.`;
  if (error.status === 0) return error.message;
  const id = error.requestId ? ` (request id ${error.requestId})` : "";
  return `The service had a problem${id}. Try again in a moment.`;
}

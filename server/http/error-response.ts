import type { AppError, ErrorBody, RateLimitedBody } from "../../shared/errors.ts";

/**
 * The spec's error body (job-search-service.md §2.4): `{request_id, error, error_code}`; 429 is `{error, retry_after}` + Retry-After
 * (a 503 that says when to retry carries the header too).
 */
/** The `cause` of a RATE_LIMITED error refused for want of a slot in flight (not for the rate). */
export const IN_FLIGHT_CAUSE = "in_flight";

/** What an error response said, for the request metrics: its error_code, and for a 429 whether a slot in flight was missing. */
export interface ErrorNote {
  code: string;
  inFlight: boolean;
}

const notes = new WeakMap<Response, ErrorNote>();

/** The error an {@link errorResponse} answered (undefined for any other value). */
export function errorNoteOf(response: unknown): ErrorNote | undefined {
  return response instanceof Response ? notes.get(response) : undefined;
}

/** The note of `error` as {@link errorNoteOf} gives it. */
export function noteOf(error: AppError): ErrorNote {
  return { code: error.code, inFlight: error.code === "RATE_LIMITED" && error.cause === IN_FLIGHT_CAUSE };
}

export function errorResponse(error: AppError, requestId: string): Response {
  const response = respond(error, requestId);
  notes.set(response, noteOf(error));
  return response;
}

// --- internal ---

function respond(error: AppError, requestId: string): Response {
  const headers: Record<string, string> = { "content-type": "application/json", "x-request-id": requestId };
  if (error.code === "RATE_LIMITED") {
    const retryAfter = error.retryAfter ?? 1;
    headers["retry-after"] = String(retryAfter);
    const body: RateLimitedBody = { error: error.message, retry_after: retryAfter };
    return new Response(JSON.stringify(body), { status: 429, headers });
  }
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  const body: ErrorBody = { request_id: requestId, error: error.message, error_code: error.code };
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

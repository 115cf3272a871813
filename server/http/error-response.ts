import type { AppError, ErrorBody, RateLimitedBody } from "../../shared/errors.ts";

/**
 * The spec's error body (job-search-service.md §2.4): `{request_id, error, error_code}`; 429 is `{error, retry_after}` + Retry-After
 * (a 503 that says when to retry carries the header too).
 */
export function errorResponse(error: AppError, requestId: string): Response {
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

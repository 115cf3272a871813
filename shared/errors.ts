import { z } from "zod";

/** Machine-readable error codes and the HTTP status each one maps to (job-search-service.md §2.4, §7.1). */
export const ERROR_STATUS = {
  MISSING_QUERY: 400,
  INVALID_PARAMETER: 400,
  INVALID_JSON: 400,
  AUTH_INVALID_KEY: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  /** Ours: a saved search's name already used, or the most saved searches a caller may keep. */
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMITED: 429,
  /** The client closed the connection before its request was complete (nginx's 499): nothing reaches it. */
  CLIENT_CLOSED: 499,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The REST error body (job-search-service.md §2.4): every error but 429. */
export const ErrorBodySchema = z.object({
  request_id: z.string().describe("Identifier of the request, equal to the x-request-id response header"),
  error: z.string().describe("Human-readable message; for a bad parameter it starts with the parameter's name"),
  error_code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).describe("Machine-readable code"),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** The 429 body (job-search-service.md §7.1), sent with a Retry-After header of the same number of seconds. */
export const RateLimitedBodySchema = z.object({
  error: z.string().describe("Rate limit exceeded"),
  retry_after: z.number().int().describe("Seconds to wait before the next request (includes jitter)"),
});
export type RateLimitedBody = z.infer<typeof RateLimitedBodySchema>;

/**
 * The one error type of the project. Code throws it; each edge (HTTP, MCP, CLI) maps it once
 * to its own wire shape. `retryAfter` is set for RATE_LIMITED, and for a SERVICE_UNAVAILABLE that a retry
 * soon may cure (the rate limits could not be checked).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfter?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    if (options?.retryAfter !== undefined) this.retryAfter = options.retryAfter;
  }
}

/** Most characters of a caller's value an error message repeats. */
export const QUOTED_VALUE_MAX = 200;

/**
 * A caller's value as an error message quotes it: in double quotes (JSON-escaped, so control
 * characters show), cut to QUOTED_VALUE_MAX characters (never inside a surrogate pair) with "…"
 * and its length after it. Every message that repeats input goes through here: a 15,000-character id
 * made a 404 as long, 60,000 over MCP.
 */
export function quoteValue(value: string): string {
  if (value.length <= QUOTED_VALUE_MAX) return JSON.stringify(value);
  const end = /[\uD800-\uDBFF]/.test(value[QUOTED_VALUE_MAX - 1]!) ? QUOTED_VALUE_MAX - 1 : QUOTED_VALUE_MAX;
  return `${JSON.stringify(`${value.slice(0, end)}…`)} (${value.length} characters)`;
}

/** Shorthand for the 400 a bad parameter gets; the message names the parameter. */
export function invalidParameter(message: string): AppError {
  return new AppError("INVALID_PARAMETER", message);
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(ERROR_STATUS, value);
}

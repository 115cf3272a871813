import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AppError, QUOTED_VALUE_MAX } from "../../shared/errors.ts";

/*
 * How the MCP edge answers every error, in one place: the HTTP-level JSON-RPC errors (auth, origin,
 * body, batch), malformed params (-32602 with one sentence), a tool's failure as an `isError`
 * result the model can read (the spec's texts for an unknown tool and a missing query among them),
 * and an unexpected error as -32603 `Internal error` (http.ts then answers HTTP 500).
 */

/** A JSON-RPC error answered by the HTTP layer itself (id null: no message was read). */
export function jsonRpcError(
  status: number, code: number, message: string, requestId: string, headers: Record<string, string> = {}, errorCode?: string,
): Response {
  const body = { jsonrpc: "2.0", error: { code, message, ...(errorCode ? { data: { error_code: errorCode } } : {}) }, id: null };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": requestId, ...headers },
  });
}

/**
 * The answer to one request of a batch that the rate limit or the principal's slots in flight refused (or
 * that was refused because the limits could not be checked): a JSON-RPC error for its id alone (the
 * others run), carrying what the HTTP 429 (503) body would.
 */
export function refusedInBatch(id: string | number, refusal: AppError): object {
  const data = { error_code: refusal.code, retry_after: refusal.retryAfter };
  return { jsonrpc: "2.0", id, error: { code: -32000, message: refusal.message, data } };
}

/** The spec's result for a tool name that does not exist. */
export function toolNotFound(name: string): CallToolResult {
  return errorResult(`MCP error -32602: Tool ${name.length > QUOTED_VALUE_MAX ? `${name.slice(0, QUOTED_VALUE_MAX)}…` : name} not found`);
}

/**
 * A tool's failure as the model should see it: the caller's mistakes (4xx) and a timed-out search
 * (the tool failed, not the protocol; the model may retry) become `isError` results; undefined for
 * anything else, which is an internal error.
 */
export function toolFailure(error: unknown): CallToolResult | undefined {
  if (error instanceof AppError && (error.status < 500 || error.code === "SERVICE_UNAVAILABLE")) return errorResult(error.message);
  return undefined;
}

/** What a handler throws for an unexpected error: the SDK sends its `code` and `message` as the JSON-RPC error. */
export function internalError(): Error {
  return Object.assign(new Error("Internal error"), { code: -32603 });
}

/**
 * A request of `method` with any params: the SDK would answer malformed params with -32603 and a
 * raw list of schema issues, so `checkParams` checks them and answers -32602 with one clear sentence.
 */
export function loose<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.unknown().optional() });
}

export function checkParams<T>(schema: z.ZodType<T>, request: unknown): T {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.join(".") : "params";
  const what = issue.code === "invalid_type" ? `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}` : issue.message;
  throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${where} ${what}`);
}

// --- internal ---

const TYPE_NAMES: Record<string, string> = { record: "an object", object: "an object", string: "a string", number: "a number", array: "an array", boolean: "true or false" };

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

import type { Principal } from "../auth/principal.ts";
import type { ErrorNote } from "../http/error-response.ts";

/**
 * What the request log line and the request metrics need to know about one request, gathered
 * along the way: the auth step adds who it acts for, the error handler the status it answered,
 * MCP the tool called. Kept per Request object (a WeakMap), so nothing outlives the request and
 * no handler has to pass it around.
 */
export interface RequestContext {
  id: string;
  /** performance.now() when the request arrived */
  started: number;
  /** Principal id (`key:<id>`, `oauth:<issuer>#<sub>`); never a key or token. */
  principal?: string;
  /** How the principal authenticated. */
  auth?: Principal["via"];
  /** The status the global error handler answered with (a thrown error has no Response to read it from). */
  errorStatus?: number;
  /** The error it answered with (code, and for a 429 whether a slot in flight was missing). */
  error?: ErrorNote;
  /** MCP: the tool a `tools/call` named. */
  tool?: string;
  /** A search's text: logged at debug only, never in the request line. */
  query?: string;
}

const contexts = new WeakMap<Request, RequestContext>();

export function beginRequest(request: Request, id: string): RequestContext {
  const context: RequestContext = { id, started: performance.now() };
  contexts.set(request, context);
  return context;
}

export function requestContext(request: Request): RequestContext | undefined {
  return contexts.get(request);
}

/** The id this request was given on arrival (its x-request-id); a fresh one for a request that has none. */
export function requestIdOf(request: Request): string {
  return contexts.get(request)?.id ?? crypto.randomUUID();
}

/** Records who the request acts for, for its log line. */
export function notePrincipal(request: Request, principal: Principal): void {
  const context = contexts.get(request);
  if (!context) return;
  context.principal = principal.id;
  context.auth = principal.via;
}

/** Records a search's text (logged only at debug). */
export function noteQuery(request: Request, query: string): void {
  const context = contexts.get(request);
  if (context) context.query = query;
}

/** Records the MCP tool a request called, and its search text when it has one. */
export function noteTool(request: Request, tool: string, args: Record<string, unknown>): void {
  const context = contexts.get(request);
  if (!context) return;
  context.tool = tool;
  if (typeof args.query === "string") context.query = args.query;
}

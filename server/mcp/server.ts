import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import pkg from "../../package.json" with { type: "json" };
import { AppError } from "../../shared/errors.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../ops/metrics.ts";
import type { SearchDeps } from "../search/search.ts";
import { listCitiesTool } from "./tools/list-cities.ts";
import { searchJobsTool } from "./tools/search-jobs.ts";
import type { McpTool } from "./tool.ts";

const TOOLS = new Map<string, McpTool>([searchJobsTool, listCitiesTool].map((tool) => [tool.definition.name, tool]));
const DEFINITIONS = [...TOOLS.values()].map((tool) => tool.definition);
export const SERVER_NAME = "jobsearch";

/**
 * A fresh MCP server for one request (stateless mode). Tool definitions are built once per
 * process; a tool's AppError (a caller's mistake or a search timeout) becomes an `isError` result with its message, anything else is
 * logged and answered as JSON-RPC -32603 `Internal error`. A completed search_jobs call is timed
 * into the search latency metric.
 */
export function createMcpServer(
  deps: SearchDeps & { log: Logger; metrics: Pick<Metrics, "observeSearch"> },
  context: { requestId: string; onInternalError: () => void; onToolCall?: (tool: string, args: Record<string, unknown>) => void },
): Server {
  const server = new Server(
    { name: SERVER_NAME, version: pkg.version },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler(loose("tools/list"), (request) => {
    checkParams(ListToolsRequestSchema, request);
    return { tools: DEFINITIONS };
  });
  // Registered past Server's own tools/call check, whose message is a raw issue list: checkParams answers instead.
  Protocol.prototype.setRequestHandler.call(server, loose("tools/call"), async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = checkParams(CallToolRequestSchema, request).params;
    const tool = TOOLS.get(name);
    if (!tool) return errorResult(`MCP error -32602: Tool ${name} not found`);
    context.onToolCall?.(name, args);
    try {
      const started = performance.now();
      const output = await tool.call(args, deps);
      if (tool === searchJobsTool) deps.metrics.observeSearch("mcp", (performance.now() - started) / 1000);
      return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      // A timed-out search is the tool's failure, not the protocol's: the model reads it and may retry.
      if (error instanceof AppError && (error.status < 500 || error.code === "SERVICE_UNAVAILABLE")) return errorResult(error.message);
      deps.log.error("unexpected error", { request_id: context.requestId, route: "/mcp", tool: name, error });
      context.onInternalError();
      // The SDK sends `code` and `message` of what a handler throws as the JSON-RPC error.
      throw Object.assign(new Error("Internal error"), { code: -32603 });
    }
  });
  return server;
}

// --- internal ---

/**
 * A request of `method` with any params: the SDK would answer malformed params with -32603 and a
 * raw list of schema issues, so `checkParams` checks them and answers -32602 with one clear sentence.
 */
function loose<M extends string>(method: M) {
  return z.object({ method: z.literal(method), params: z.unknown().optional() });
}

function checkParams<T>(schema: z.ZodType<T>, request: unknown): T {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? issue.path.join(".") : "params";
  const what = issue.code === "invalid_type" ? `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}` : issue.message;
  throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${where} ${what}`);
}

const TYPE_NAMES: Record<string, string> = { record: "an object", object: "an object", string: "a string", number: "a number", array: "an array", boolean: "true or false" };

function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}

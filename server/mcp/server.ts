import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pkg from "../../package.json" with { type: "json" };
import type { Logger } from "../log.ts";
import type { Metrics } from "../ops/metrics.ts";
import { checkParams, internalError, loose, toolFailure, toolNotFound } from "./errors.ts";
import { explainMatchTool } from "./tools/explain-match.ts";
import { fetchTool } from "./tools/fetch.ts";
import { findSimilarJobsTool } from "./tools/find-similar-jobs.ts";
import { getJobTool } from "./tools/get-job.ts";
import { listCitiesTool } from "./tools/list-cities.ts";
import { listFiltersTool } from "./tools/list-filters.ts";
import { matchProfileTool } from "./tools/match-profile.ts";
import { searchTool } from "./tools/search.ts";
import { searchJobsTool } from "./tools/search-jobs.ts";
import type { McpTool, ToolDeps } from "./tool.ts";
import { checkNewJobsTool, listSavedSearchesTool, saveSearchTool } from "./tools/saved-searches.ts";

/** The spec's two tools, then ours (job details, similar jobs, filter values, the search/fetch pair of ChatGPT connectors, matching a profile, saved searches). */
const TOOLS = new Map<string, McpTool>(
  [searchJobsTool, listCitiesTool, getJobTool, findSimilarJobsTool, listFiltersTool, searchTool, fetchTool, matchProfileTool, explainMatchTool, saveSearchTool, listSavedSearchesTool, checkNewJobsTool].map((tool) => [tool.definition.name, tool]),
);
const DEFINITIONS = [...TOOLS.values()].map((tool) => tool.definition);
/** Tools whose calls are searches (timed into the search latency metric). */
const SEARCHES = new Set<McpTool>([searchJobsTool, findSimilarJobsTool, searchTool, matchProfileTool, checkNewJobsTool]);
export const SERVER_NAME = "jobsearch";

/**
 * A fresh MCP server for one request (stateless mode). Tool definitions are built once per
 * process; a tool's AppError (a caller's mistake or a search timeout) becomes an `isError` result with its message, anything else is
 * logged and answered as JSON-RPC -32603 `Internal error`. A completed search_jobs call is timed
 * into the search latency metric.
 */
export function createMcpServer(
  deps: ToolDeps & { log: Logger; metrics: Pick<Metrics, "observeSearch"> },
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
    if (!tool) return toolNotFound(name);
    context.onToolCall?.(name, args);
    try {
      const started = performance.now();
      const output = await tool.call(args, deps);
      if (SEARCHES.has(tool)) deps.metrics.observeSearch("mcp", (performance.now() - started) / 1000);
      return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      const failure = toolFailure(error);
      if (failure) return failure;
      deps.log.error("unexpected error", { request_id: context.requestId, route: "/mcp", tool: name, error });
      context.onInternalError();
      throw internalError();
    }
  });
  return server;
}

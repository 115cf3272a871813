import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AppError } from "../../shared/errors.ts";
import type { SearchResults } from "../../shared/search.ts";
import type { Config } from "../config.ts";
import type { SavedSearchStore } from "../saved/store.ts";
import type { LoadTimes } from "../saved/new-jobs.ts";
import type { SearchDeps, SearchOutcome } from "../search/search.ts";

/**
 * An MCP tool: its published definition and what a call returns as structuredContent.
 * `call` throws AppError for the caller's mistakes (they become `isError` results).
 */
export interface McpTool {
  definition: Tool;
  call(args: Record<string, unknown>, deps: ToolDeps): Promise<Record<string, unknown>>;
}

/** Who calls, for the tools that keep something per principal (saved searches): its id, the service's base URL, where saved searches live. */
export interface ToolCaller {
  owner: string;
  base: string;
  saved: SavedSearchStore;
  loads: LoadTimes;
  config: Config;
}

export type ToolDeps = SearchDeps & { caller?: ToolCaller };

/** The caller of a per-principal tool (always set on /mcp). */
export function callerOf(deps: ToolDeps): ToolCaller {
  if (!deps.caller) throw new Error("a per-principal tool called without its caller");
  return deps.caller;
}

export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** A zod object as the JSON Schema an MCP tool publishes (computed once per process). */
export function jsonSchema(schema: z.ZodObject): Tool["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return rest as Tool["inputSchema"];
}

/** Arguments by a tool's schema; a wrong one is an INVALID_PARAMETER naming it. */
export function readArgs<T extends z.ZodObject>(schema: T, args: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new AppError("INVALID_PARAMETER", `${issue.path.join(".") || "arguments"} ${issue.message}`);
}

/** What a search tool (search_jobs, find_similar_jobs) returns as structuredContent. */
export function searchResults({ results, query, facets, total_matches }: SearchOutcome): SearchResults {
  return { total: results.length, results, query, ...(facets ? { facets, total_matches } : {}) };
}

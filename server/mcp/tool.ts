import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { SearchDeps } from "../search/search.ts";

/**
 * An MCP tool: its published definition and what a call returns as structuredContent.
 * `call` throws AppError for the caller's mistakes (they become `isError` results).
 */
export interface McpTool {
  definition: Tool;
  call(args: Record<string, unknown>, deps: SearchDeps): Promise<Record<string, unknown>>;
}

export const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** A zod object as the JSON Schema an MCP tool publishes (computed once per process). */
export function jsonSchema(schema: z.ZodObject): Tool["inputSchema"] {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return rest as Tool["inputSchema"];
}

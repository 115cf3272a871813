/**
 * Forwards to tests/support/helpers.ts for bench/mcp-conformance.ts, which imports this path and is
 * not ours to edit; delete this file once that import names tests/support/helpers.ts.
 */
export * from "./support/helpers.ts";

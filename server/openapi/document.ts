import { openapi } from "@elysiajs/openapi";
import pkg from "../../package.json" with { type: "json" };
import { componentSchemas } from "./schemas.ts";

export const OPENAPI_PATH = "/openapi/json";

/**
 * GET /openapi/json: the OpenAPI 3.1 document the plugin assembles from every route's `detail`
 * (operations.ts, mcp-operations.ts) plus what is shared: info, tags, security schemes and the
 * component schemas converted from shared/. The plugin's own UI is off (it loads its scripts from
 * a CDN); /docs serves Swagger UI from node_modules instead (routes/web.ts).
 */
export function openapiDocument() {
  return openapi({
    provider: null,
    specPath: OPENAPI_PATH,
    // Paths with a dot count as static files by default, which would hide /.well-known/*.
    exclude: { staticFile: false },
    documentation: {
      info: {
        title: "jobsearch API",
        version: pkg.version,
        description: [
          "Self-hosted semantic job search. REST: `POST /v1/search` (recommended), `GET /v1/search`, `GET /v1/cities`,",
          "each with the header `x-api-key` (keys come from the operator: `bun run cli keys create --name NAME`).",
          "MCP: `POST /mcp` with OAuth 2.1 or the API key. Every response carries `x-request-id`.",
        ].join(" "),
      },
      tags: [
        { name: "Search", description: "REST search (API key)" },
        { name: "MCP", description: "Model Context Protocol endpoint" },
        { name: "OAuth", description: "Discovery and the built-in authorization server for MCP clients" },
      ],
      components: {
        securitySchemes: {
          ApiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "An API key issued by the operator" },
          BearerAuth: { type: "http", scheme: "bearer", description: "An OAuth 2.1 access token (MCP only)" },
        },
        // The zod-generated JSON Schema 2020-12 is what OpenAPI 3.1 takes; the 3.0-typed option cannot say so.
        schemas: componentSchemas as never,
      },
    },
  });
}

import type { DocumentDecoration } from "elysia";

/**
 * /mcp and the OAuth endpoints, described briefly: MCP clients speak JSON-RPC and discover OAuth
 * through the metadata documents, so these entries say what each endpoint is for and where its
 * real contract lives rather than repeating the MCP and OAuth specifications.
 */

const jsonRpc = { type: "object", required: ["jsonrpc", "method"], properties: { jsonrpc: { const: "2.0" }, id: {}, method: { type: "string" }, params: { type: "object" } } };

export const mcpOperation = operation({
  tags: ["MCP"],
  summary: "MCP endpoint (Streamable HTTP, stateless)",
  description: `JSON-RPC 2.0 requests of the Model Context Protocol: \`initialize\`, \`tools/list\`, \`tools/call\` with the
tools \`search_jobs\` and \`list_cities\`. Send \`Accept: application/json, text/event-stream\`. Authenticate with an OAuth
access token (\`Authorization: Bearer\`; discovery starts at \`/.well-known/oauth-protected-resource\`) or, as a
fallback, \`x-api-key\`. GET and DELETE answer 405: there are no sessions or streams.`,
  security: [{ BearerAuth: [] }, { ApiKey: [] }],
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: jsonRpc,
        example: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_jobs", arguments: { query: "remote backend engineer", top_k: 5 } } },
      },
    },
  },
  responses: {
    200: { description: "A JSON-RPC response (`result` or `error`)", content: { "application/json": { schema: { type: "object" } } } },
    401: {
      description: "No or an invalid Bearer token: JSON-RPC error -32600 `Unauthorized`, with a WWW-Authenticate header naming the resource metadata",
      headers: { "www-authenticate": { schema: { type: "string" }, example: 'Bearer resource_metadata="https://jobs.example.com/.well-known/oauth-protected-resource/mcp"' } },
      content: { "application/json": { example: { jsonrpc: "2.0", error: { code: -32600, message: "Unauthorized" }, id: null } } },
    },
    403: { description: "An invalid x-api-key (the REST error body)", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
    406: { description: "The Accept header lacks application/json or text/event-stream (JSON-RPC -32000 `Not Acceptable: …`)" },
    429: { description: "Over the rate limit", content: { "application/json": { schema: { $ref: "#/components/schemas/RateLimited" } } } },
  },
});

export const resourceMetadataOperation = brief(
  "OAuth protected-resource metadata of /mcp (RFC 9728)",
  "Names the authorization server whose tokens /mcp accepts (the built-in one, or OAUTH_ISSUER).",
  { 200: "The metadata (JSON)" },
);
export const authorizationServerMetadataOperation = brief(
  "Authorization-server metadata (RFC 8414)",
  "The built-in authorization server's endpoints; absent when OAUTH_ISSUER is set.",
  { 200: "The metadata (JSON)" },
);
export const registerOperation = brief(
  "Dynamic client registration (RFC 7591)",
  "Registers an MCP client: a JSON body of client metadata in, its client_id out.",
  { 201: "The registered client (JSON)", 400: "Invalid client metadata (RFC 7591 error body)" },
);
export const authorizeOperation = brief(
  "Authorization endpoint (OAuth 2.1, PKCE S256)",
  "The sign-in page where the person enters their API key and allows or denies the client.",
  { 200: "The sign-in page (HTML)", 400: "An error page for an invalid request (errors are never redirected to the client)" },
);
export const authorizeFormOperation = brief(
  "Sign-in form submission",
  "The authorization page's form posts here (same-site only, with the form's token).",
  { 302: "Back to the client's redirect_uri with a code, or with access_denied", 200: "The page again, with an error (e.g. a wrong key)" },
);
export const tokenOperation = brief(
  "Token endpoint",
  "Exchanges an authorization code (with its PKCE verifier) or a refresh token for an access token.",
  { 200: "Tokens (JSON)", 400: "An OAuth error body (RFC 6749 §5.2)", 401: "invalid_client" },
);
export const revokeOperation = brief(
  "Token revocation (RFC 7009)",
  "Revokes a refresh or access token.",
  { 200: "Revoked (or the token was not valid)" },
);

export const healthOperation = brief("Liveness", "`{\"status\":\"ok\"}` while the process serves HTTP. No key needed.", { 200: "Up" }, "Operations");
export const readyOperation = brief(
  "Readiness",
  "200 when the jobs table is open and readable and the model is loaded; otherwise 503, the body naming the failed check. No key needed.",
  { 200: "Ready", 503: "Not ready: `{status: \"not_ready\", checks}`" },
  "Operations",
);
export const metricsOperation = brief(
  "Prometheus metrics",
  "Request counts and latency by route and status, search latency, 429s, postings, index state, process metrics (Prometheus text). Open unless `METRICS_TOKEN` is set; then `Authorization: Bearer <token>`.",
  { 200: "Prometheus text format", 403: "METRICS_TOKEN is set and the token is missing or wrong" },
  "Operations",
);

// --- internal ---

function operation(detail: Record<string, unknown>): DocumentDecoration {
  return detail as DocumentDecoration;
}

function brief(summary: string, description: string, responses: Record<number, string>, tag = "OAuth"): DocumentDecoration {
  const described = Object.fromEntries(Object.entries(responses).map(([status, text]) => [status, { description: text }]));
  return { tags: [tag], summary, description, responses: described } as DocumentDecoration;
}

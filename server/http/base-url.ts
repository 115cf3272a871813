/**
 * The service's public base URL (no trailing slash): PUBLIC_URL when configured, otherwise the
 * origin the request came to. OAuth issuer, resource and metadata links are built from it.
 */
export function baseUrl(publicUrl: string | undefined, request: Request): string {
  return publicUrl ?? new URL(request.url).origin;
}

/** The MCP endpoint as an OAuth protected resource (RFC 9728 `resource`, token audience). */
export function mcpResourceUrl(base: string): string {
  return `${base}/mcp`;
}

/** Where the protected-resource metadata of /mcp lives (RFC 9728 §3.1 path insertion). */
export function resourceMetadataUrl(base: string): string {
  return `${base}/.well-known/oauth-protected-resource/mcp`;
}

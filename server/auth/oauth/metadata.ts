import type { OAuthMetadata, OAuthProtectedResourceMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { mcpResourceUrl } from "../../http/base-url.ts";
import type { Config } from "../../config.ts";
import { GRANT_TYPES, TOKEN_ENDPOINT_AUTH_METHODS } from "./clients.ts";

/** The one scope there is: searching jobs (both MCP tools). Tokens always carry it. */
export const SCOPES = ["jobs:search"];

/** RFC 8414 metadata of the built-in authorization server, whose issuer is the service's base URL. */
export function authorizationServerMetadata(base: string): OAuthMetadata {
  return {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    revocation_endpoint: `${base}/revoke`,
    scopes_supported: SCOPES,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: GRANT_TYPES,
    token_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: TOKEN_ENDPOINT_AUTH_METHODS,
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * RFC 9728 metadata of /mcp: which authorization server issues its tokens, the built-in one
 * (the base URL) or the configured external issuer. Our scope is left out for an external issuer,
 * which would not know it: clients request what PRM lists, and an unknown scope fails the sign-in.
 */
export function protectedResourceMetadata(base: string, config: Config): OAuthProtectedResourceMetadata {
  const external = config.oauth.external;
  return {
    resource: mcpResourceUrl(base),
    authorization_servers: [external?.issuer ?? base],
    bearer_methods_supported: ["header"],
    ...(external ? {} : { scopes_supported: SCOPES }),
    resource_name: "Job search MCP server",
  };
}

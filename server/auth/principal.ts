import type { ApiKeyInfo } from "./api-keys.ts";

/**
 * Who a request acts for. OAuth users sign in with their API key, so a token's principal is that
 * key's owner: REST, the MCP key fallback and MCP with OAuth all count against the same id.
 */
export interface Principal {
  /** Rate-limit and log identity: `key:<key id>`, or `oauth:<issuer>#<sub>` for an external issuer's user. */
  id: string;
  /** The API key acting (directly or through an OAuth token signed in with it); absent for external users. */
  keyId?: string;
  name: string;
  /** Requests per minute from `keys create --rate-limit`; null = the configured default. */
  rateLimit: number | null;
  via: "api_key" | "oauth";
  /** OAuth only: the client the token was issued to. */
  clientId?: string;
}

export function principalFromKey(info: ApiKeyInfo, via: Principal["via"] = "api_key", clientId?: string): Principal {
  return {
    id: `key:${info.id}`,
    keyId: info.id,
    name: info.name,
    rateLimit: info.rate_limit,
    via,
    ...(clientId === undefined ? {} : { clientId }),
  };
}

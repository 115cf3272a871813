import {
  CustomOAuthError,
  InvalidClientError,
  InvalidClientMetadataError,
  InvalidRequestError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { OAuthClientMetadataSchema, type OAuthClientInformationFull } from "@modelcontextprotocol/sdk/shared/auth.js";
import { redirectUriProblem } from "./redirect-uri.ts";
import { hashSecret, randomSecret, sameBytes } from "../secrets.ts";
import type { OAuthStore, StoredClient } from "./store.ts";

export const GRANT_TYPES = ["authorization_code", "refresh_token"];
/** The metadata fields a registration keeps (RFC 7591 §2), each at most this long. */
const FIELD_MAX_CHARS = { client_name: 200, client_uri: 2000, logo_uri: 2000, scope: 1000, software_id: 200, software_version: 100 } as const;
const REDIRECT_URIS_MAX = 10;
const REDIRECT_URI_MAX_CHARS = 2000;
/** "none" is what MCP clients (native and browser apps) use; secrets are for the odd confidential one. */
export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"];

/**
 * RFC 7591 dynamic registration. Public clients (token_endpoint_auth_method "none", also the
 * default here, as MCP clients are) get no secret; client_secret_post/basic ones get a 256-bit
 * secret, stored hashed. Only the fields this server uses are kept, each bounded, at most 10
 * redirect URIs; a client never used expires UNUSED_CLIENT_TTL_S after registering (refused from
 * then on; each registration deletes the expired ones). Throws `invalid_redirect_uri` or
 * `invalid_client_metadata` OAuth errors.
 */
export async function registerClient(store: OAuthStore, body: unknown, now: number): Promise<OAuthClientInformationFull> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidClientMetadataError("the body must be a JSON object");
  }
  const uris = (body as { redirect_uris?: unknown }).redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.some((uri) => typeof uri !== "string")) {
    throw new CustomOAuthError("invalid_redirect_uri", "redirect_uris must be a non-empty array of URLs");
  }
  if (uris.length > REDIRECT_URIS_MAX) throw new CustomOAuthError("invalid_redirect_uri", `at most ${REDIRECT_URIS_MAX} redirect_uris`);
  for (const uri of uris as string[]) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new CustomOAuthError("invalid_redirect_uri", problem);
  }
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InvalidClientMetadataError(`${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  const metadata = parsed.data;
  const method = metadata.token_endpoint_auth_method ?? "none";
  if (!TOKEN_ENDPOINT_AUTH_METHODS.includes(method)) {
    throw new InvalidClientMetadataError(`token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}`);
  }
  const grantTypes = metadata.grant_types ?? GRANT_TYPES;
  if (!grantTypes.includes("authorization_code") || grantTypes.some((type) => !GRANT_TYPES.includes(type))) {
    throw new InvalidClientMetadataError(`grant_types must include authorization_code and may add refresh_token`);
  }
  const responseTypes = metadata.response_types ?? ["code"];
  if (responseTypes.some((type) => type !== "code")) throw new InvalidClientMetadataError(`response_types must be ["code"]`);
  for (const [field, max] of Object.entries(FIELD_MAX_CHARS)) {
    const value = metadata[field as keyof typeof FIELD_MAX_CHARS];
    if (typeof value === "string" && value.length > max) throw new InvalidClientMetadataError(`${field} is longer than ${max} characters`);
  }
  if (uris.some((uri: string) => uri.length > REDIRECT_URI_MAX_CHARS)) {
    throw new CustomOAuthError("invalid_redirect_uri", `a redirect_uri is longer than ${REDIRECT_URI_MAX_CHARS} characters`);
  }

  // Only what this server uses or shows is stored; anything else (software_statement, jwks, contacts…) is dropped.
  const kept = Object.fromEntries(Object.keys(FIELD_MAX_CHARS).flatMap((field) => {
    const value = metadata[field as keyof typeof FIELD_MAX_CHARS];
    return value === undefined ? [] : [[field, value]];
  }));
  await store.deleteExpired(now);
  const info: StoredClient["info"] = {
    ...kept,
    client_id: crypto.randomUUID(),
    client_id_issued_at: now,
    redirect_uris: uris as string[],
    // Each at most once: the checks above allow only known values, so these stay a few words long.
    grant_types: [...new Set(grantTypes)],
    response_types: [...new Set(responseTypes)],
    token_endpoint_auth_method: method,
  };
  const secret = method === "none" ? undefined : randomSecret();
  await store.insertClient({ info, secretHash: secret === undefined ? null : hashSecret(secret) });
  return secret === undefined ? info : { ...info, client_secret: secret, client_secret_expires_at: 0 };
}

/**
 * The client a token or revocation request authenticates as (RFC 6749 §2.3.1: HTTP Basic or
 * client_id/client_secret in the body), or undefined when it names none. A public client is
 * identified by client_id alone. Throws `invalid_client` for unknown clients and wrong secrets.
 */
export async function authenticateClient(
  store: OAuthStore,
  params: Record<string, string>,
  authorization: string | null,
  now: number,
): Promise<StoredClient | undefined> {
  const basic = basicCredentials(authorization);
  if (basic && params.client_secret) throw new InvalidRequestError("use one client authentication method, not two");
  const clientId = basic?.id ?? params.client_id;
  const secret = basic?.secret ?? params.client_secret;
  if (!clientId) {
    if (secret) throw new InvalidClientError("client_secret without client_id");
    return undefined;
  }
  if (basic && params.client_id && params.client_id !== basic.id) {
    throw new InvalidClientError("client_id does not match the Authorization header");
  }
  const client = await store.getClient(clientId, now);
  if (!client) throw new InvalidClientError("unknown client_id");
  if (client.secretHash === null) {
    if (secret) throw new InvalidClientError("this client is public and has no secret");
    return client;
  }
  if (!secret) throw new InvalidClientError("client authentication required");
  if (!sameBytes(hashSecret(secret), client.secretHash)) throw new InvalidClientError("wrong client secret");
  return client;
}

// --- internal ---

/** RFC 6749 §2.3.1: both halves are form-urlencoded before they are joined and base64-encoded. */
function basicCredentials(header: string | null): { id: string; secret: string } | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new InvalidClientError("malformed Basic credentials");
  try {
    const unescape = (part: string) => decodeURIComponent(part.replace(/\+/g, " "));
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  } catch {
    throw new InvalidClientError("malformed Basic credentials");
  }
}

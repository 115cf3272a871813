import {
  AccessDeniedError,
  InvalidClientError,
  InvalidRequestError,
  InvalidTargetError,
  OAuthError,
  UnsupportedResponseTypeError,
} from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { mcpResourceUrl } from "../../http/base-url.ts";
import { SCOPES } from "./metadata.ts";
import { redirectUriMatches } from "./redirect-uri.ts";
import { hashSecret, randomSecret } from "../secrets.ts";
import { isS256Challenge } from "./secrets.ts";
import type { Approval, OAuthStore, StoredClient } from "./store.ts";

/** The request fields the sign-in form carries from GET /authorize to POST /authorize. */
export const AUTHORIZE_FIELDS = [
  "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "resource", "scope",
] as const;

/** A valid authorization request, ready to be shown for consent and approved. */
export interface AuthorizationRequest extends Omit<Approval, "keyId"> {
  client: StoredClient;
  state?: string;
  /** The request as received (only AUTHORIZE_FIELDS that were present), for the form's hidden inputs. */
  fields: Record<string, string>;
}

export type AuthorizationCheck =
  | { kind: "ok"; request: AuthorizationRequest }
  /** Shown as an error page, never redirected: see checkAuthorizationRequest. */
  | { kind: "invalid"; error: OAuthError };

/**
 * Validates an authorization request (RFC 6749 §4.1.1 with OAuth 2.1's mandatory PKCE S256 and
 * RFC 8707's resource). Unknown scopes are ignored: tokens get SCOPES. Every error is shown on a
 * page, none redirected: anyone may register a client with their own redirect_uri, so redirecting
 * a malformed request would make this server an open redirector (RFC 9700 §4.11.2). Only a valid
 * request leads to a redirect, and only after the person approves or declines it.
 */
export async function checkAuthorizationRequest(
  store: OAuthStore,
  params: Record<string, string>,
  base: string,
  now: number,
): Promise<AuthorizationCheck> {
  const fields: Record<string, string> = {};
  for (const name of AUTHORIZE_FIELDS) if (params[name] !== undefined) fields[name] = params[name];

  if (!fields.client_id) return { kind: "invalid", error: new InvalidRequestError("client_id is missing") };
  const client = await store.getClient(fields.client_id, now);
  if (!client) return { kind: "invalid", error: new InvalidClientError("unknown client_id; register the client first") };
  const registered = client.info.redirect_uris;
  let redirectUri: string;
  if (fields.redirect_uri !== undefined) {
    const requested = fields.redirect_uri;
    if (!registered.some((uri) => redirectUriMatches(requested, uri))) {
      return { kind: "invalid", error: new InvalidRequestError("redirect_uri is not registered for this client") };
    }
    redirectUri = requested;
  } else if (registered.length === 1) {
    redirectUri = registered[0]!;
  } else {
    return { kind: "invalid", error: new InvalidRequestError("redirect_uri is required: the client registered several") };
  }

  const fail = (error: OAuthError): AuthorizationCheck => ({ kind: "invalid", error });
  if (fields.response_type !== "code") return fail(new UnsupportedResponseTypeError("response_type must be code"));
  if (!fields.code_challenge) return fail(new InvalidRequestError("code_challenge is required (PKCE)"));
  if (fields.code_challenge_method !== "S256") return fail(new InvalidRequestError("code_challenge_method must be S256"));
  if (!isS256Challenge(fields.code_challenge)) return fail(new InvalidRequestError("code_challenge is not an S256 challenge"));
  const resource = mcpResourceUrl(base);
  if (fields.resource !== undefined && fields.resource !== resource) {
    return fail(new InvalidTargetError(`resource must be ${resource}`));
  }
  return {
    kind: "ok",
    request: {
      client,
      clientId: client.info.client_id,
      redirectUri,
      redirectUriGiven: fields.redirect_uri !== undefined,
      codeChallenge: fields.code_challenge,
      resource,
      scope: SCOPES.join(" "),
      fields,
      ...(fields.state === undefined ? {} : { state: fields.state }),
    },
  };
}

/**
 * Issues a single-use authorization code for an approved request (kept as a hash, valid
 * CODE_LIFETIME_S) and returns where to send the browser: the redirect_uri with code, state and
 * iss (RFC 9207).
 */
export async function issueCode(store: OAuthStore, request: AuthorizationRequest, keyId: string, base: string, now: number): Promise<string> {
  const code = randomSecret();
  const { client: _, fields: __, state, ...approval } = request;
  await store.insertCode(hashSecret(code), { ...approval, keyId }, now + CODE_LIFETIME_S);
  await store.deleteExpired(now);
  return withParams(request.redirectUri, { code, state, iss: base });
}

/** Where the browser goes when the person declines. */
export function denialRedirect(request: AuthorizationRequest, base: string): string {
  return errorRedirect(request.redirectUri, new AccessDeniedError("the person declined the request"), request.state, base);
}

export const CODE_LIFETIME_S = 60;

// --- internal ---

function errorRedirect(redirectUri: string, error: OAuthError, state: string | undefined, base: string): string {
  return withParams(redirectUri, { error: error.errorCode, error_description: error.message, state, iss: base });
}

function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.href;
}

import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Config } from "../../config.ts";
import type { KeyStore } from "../api-keys.ts";
import type { Principal } from "../principal.ts";
import {
  checkAuthorizationRequest,
  denialRedirect,
  issueCode,
  type AuthorizationCheck,
  type AuthorizationRequest,
} from "./authorize.ts";
import { registerClient } from "./clients.ts";
import { createExternalVerifier } from "./external.ts";
import { checkFormToken, mintFormToken } from "./form-token.ts";
import { nowSeconds } from "./secrets.ts";
import { openOAuthState } from "../stores.ts";
import { loadSigningKeys } from "./signing-key.ts";
import { exchangeToken, revokeToken, type BuiltInContext } from "./tokens.ts";
import { grantOfAccessToken, verifyBuiltInToken } from "./verify.ts";

/** OAuth for /mcp: bearer verification, and the built-in authorization server unless an external one is configured. */
export interface OAuthServer {
  /**
   * The principal a Bearer token acts for, with `base` the service's base URL for this request
   * (`baseUrl(config.publicUrl, request)`). Throws the SDK's InvalidTokenError for any bad token.
   */
  verifyBearer(token: string, base: string): Promise<Principal>;
  /** The built-in authorization server; undefined when OAUTH_ISSUER names an external one. */
  readonly authorizationServer?: AuthorizationServer;
  close(): void;
}

/** The operations behind /register, /authorize, /token and /revoke. Errors are the SDK's OAuthError classes. */
export interface AuthorizationServer {
  register(body: unknown): Promise<OAuthClientInformationFull>;
  checkAuthorization(params: Record<string, string>, base: string): Promise<AuthorizationCheck>;
  formToken(request: AuthorizationRequest, base: string): string;
  checkFormToken(request: AuthorizationRequest, base: string, token: string | undefined): boolean;
  /** The redirect carrying a fresh code, or undefined when the API key is wrong or revoked. */
  approve(request: AuthorizationRequest, apiKey: string, base: string): Promise<string | undefined>;
  deny(request: AuthorizationRequest, base: string): string;
  token(params: Record<string, string>, authorization: string | null, base: string): Promise<OAuthTokens>;
  revoke(params: Record<string, string>, authorization: string | null, base: string): Promise<void>;
}

export interface OAuthServerOptions {
  config: Config;
  keys: KeyStore;
  /** Milliseconds since the epoch; tests pass a shifted clock to mint expired tokens. */
  now?: () => number;
}

/**
 * Opens the OAuth state: with an external issuer only a verifier for its tokens; otherwise the
 * store and signing key ring `openOAuthState` names (Redis with REDIS_URL, else DATA_DIR; the key
 * is created on first start), so tokens outlive restarts and are valid on every process sharing
 * the store. Throws if the stored key is unusable or Redis cannot be reached.
 */
export async function createOAuthServer({ config, keys, now = Date.now }: OAuthServerOptions): Promise<OAuthServer> {
  const external = config.oauth.external;
  if (external) {
    return { verifyBearer: createExternalVerifier(external, now), close() {} };
  }
  const state = await openOAuthState(config);
  const signingKeys = await loadSigningKeys(state.ring).catch((error) => {
    state.close();
    throw error;
  });
  const { store } = state;
  const ctx: BuiltInContext = { store, keys, signingKeys, config, now };
  const seconds = () => nowSeconds(now);

  return {
    verifyBearer: (token, base) => verifyBuiltInToken(ctx, token, base),
    authorizationServer: {
      register: (body) => registerClient(store, body, seconds()),
      checkAuthorization: (params, base) => checkAuthorizationRequest(store, params, base, seconds()),
      formToken: (request, base) => mintFormToken(signingKeys.current().formSecret, request.fields, base, seconds()),
      // Any key of the ring: a form shown by a process that had not yet seen a rotation still counts.
      checkFormToken: (request, base, token) =>
        signingKeys.all().some((key) => checkFormToken(key.formSecret, token, request.fields, base, seconds())),
      async approve(request, apiKey, base) {
        const key = await keys.verify(apiKey.trim());
        return key && issueCode(store, request, key.id, base, seconds());
      },
      deny: (request, base) => denialRedirect(request, base),
      token: (params, authorization, base) => exchangeToken(ctx, params, authorization, base),
      revoke: (params, authorization, base) =>
        revokeToken(ctx, params, authorization, (token) => grantOfAccessToken(ctx, token, base)),
    },
    close() {
      signingKeys.close();
      state.close();
    },
  };
}

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
import { loadSigningKey } from "./signing-key.ts";
import { openOAuthStore } from "./store.ts";
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
  register(body: unknown): OAuthClientInformationFull;
  checkAuthorization(params: Record<string, string>, base: string): AuthorizationCheck;
  formToken(request: AuthorizationRequest, base: string): string;
  checkFormToken(request: AuthorizationRequest, base: string, token: string | undefined): boolean;
  /** The redirect carrying a fresh code, or undefined when the API key is wrong or revoked. */
  approve(request: AuthorizationRequest, apiKey: string, base: string): string | undefined;
  deny(request: AuthorizationRequest, base: string): string;
  token(params: Record<string, string>, authorization: string | null, base: string): Promise<OAuthTokens>;
  revoke(params: Record<string, string>, authorization: string | null, base: string): Promise<void>;
}

export interface OAuthServerOptions {
  dataDir: string;
  config: Config;
  keys: KeyStore;
  /** Milliseconds since the epoch; tests pass a shifted clock to mint expired tokens. */
  now?: () => number;
}

/**
 * Opens the OAuth state: with an external issuer only a verifier for its tokens; otherwise the
 * tables in `<dataDir>/auth.sqlite` and the signing key in `<dataDir>/oauth-signing-key.json`
 * (created on first start), so tokens outlive restarts. Throws if the key file is unusable.
 */
export async function createOAuthServer({ dataDir, config, keys, now = Date.now }: OAuthServerOptions): Promise<OAuthServer> {
  const external = config.oauth.external;
  if (external) {
    return { verifyBearer: createExternalVerifier(external, now), close() {} };
  }
  const signingKey = await loadSigningKey(dataDir);
  const store = openOAuthStore(dataDir);
  const ctx: BuiltInContext = { store, keys, signingKey, config, now };
  const seconds = () => nowSeconds(now);

  return {
    verifyBearer: (token, base) => verifyBuiltInToken(ctx, token, base),
    authorizationServer: {
      register: (body) => registerClient(store, body, seconds()),
      checkAuthorization: (params, base) => checkAuthorizationRequest(store, params, base),
      formToken: (request, base) => mintFormToken(signingKey.formSecret, request.fields, base, seconds()),
      checkFormToken: (request, base, token) => checkFormToken(signingKey.formSecret, token, request.fields, base, seconds()),
      approve(request, apiKey, base) {
        const key = keys.verify(apiKey.trim());
        return key && issueCode(store, request, key.id, base, seconds());
      },
      deny: (request, base) => denialRedirect(request, base),
      token: (params, authorization, base) => exchangeToken(ctx, params, authorization, base),
      revoke: (params, authorization, base) =>
        revokeToken(ctx, params, authorization, (token) => grantOfAccessToken(ctx, token, base)),
    },
    close: () => store.close(),
  };
}

import { expect } from "bun:test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** What a person does in a browser without JavaScript on the /authorize page, done programmatically. */

/** The sign-in form as a browser without JavaScript would submit it. */
export function parseForm(html: string): { action: string; fields: Record<string, string> } {
  const decode = (text: string) => text.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));
  const action = /<form method="post" action="([^"]*)">/.exec(html)?.[1];
  if (action === undefined) throw new Error(`no form in ${html}`);
  const fields: Record<string, string> = {};
  for (const [input] of html.matchAll(/<input\b[^>]*>/g)) {
    const attrs = Object.fromEntries([...input.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k!, decode(v!)]));
    if (attrs.type === "hidden" && attrs.name) fields[attrs.name] = attrs.value ?? "";
  }
  return { action: decode(action), fields };
}

export function postForm(url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });
}

/** GET /authorize, fill in the key, POST; returns the response to the POST. */
export async function signIn(url: string, apiKey: string, extra: Record<string, string> = {}) {
  const page = await fetch(url, { redirect: "manual" });
  expect(page.status).toBe(200);
  const form = parseForm(await page.text());
  return postForm(form.action, { ...form.fields, api_key: apiKey, ...extra });
}


/** An MCP client's OAuth state kept in memory, as an unmodified SDK client keeps it. */
export function memoryProvider(redirectUrl: string, clientName: string, state?: string) {
  const saved: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; url?: URL } = {};
  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: { client_name: clientName, redirect_uris: [redirectUrl] },
    clientInformation: () => saved.client,
    saveClientInformation: (info) => void (saved.client = info),
    tokens: () => saved.tokens,
    saveTokens: (tokens) => void (saved.tokens = tokens),
    redirectToAuthorization: (url) => void (saved.url = url),
    saveCodeVerifier: (verifier) => void (saved.verifier = verifier),
    codeVerifier: () => saved.verifier!,
    ...(state === undefined ? {} : { state: () => state }),
  };
  return { provider, saved };
}

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { authorizeUrl, codeFor, pkce, REDIRECT, registerPublic, standardParams, startHarnessWithKey, type Harness } from "../../support/oauth.ts";
import { parseForm, postForm, signIn } from "../../support/sign-in.ts";

/** The built-in authorization server's /authorize: the sign-in page, its checks and its redirects. */
describe("built-in authorization server", () => {
  let t: Harness;
  let apiKey: string;
  beforeAll(async () => ({ t, apiKey } = await startHarnessWithKey()));
  afterAll(() => t.stop());

  describe("authorization page", () => {
    test("renders a no-script sign-in form carrying the request, with everything escaped", async () => {
      const client = await registerPublic(t.base, `Evil "<script>alert(1)</script>" & Co`);
      const { challenge } = pkce();
      const response = await fetch(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), state: `"><b>x` }));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await response.text();
      expect(html).not.toContain("<script");
      expect(html).not.toContain("<b>x");
      expect(html).toMatch(/<input id="api_key" type="password" name="api_key"/);
      expect(html).toContain("Allow Evil &#34;&#60;script&#62;alert(1)&#60;/script&#62;&#34; &#38; Co</button>");
      expect(html).toContain("127.0.0.1:8765");
      const form = parseForm(html);
      expect(form.action).toBe(`${t.base}/authorize`);
      expect(form.fields).toMatchObject({
        client_id: client.client_id, redirect_uri: REDIRECT, state: `"><b>x`, code_challenge: challenge,
        code_challenge_method: "S256", resource: `${t.base}/mcp`, scope: "jobs:search", response_type: "code",
      });
      expect(form.fields.csrf_token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    });

    test("every HTML page is unframeable, script-free by CSP, not cached, not sniffed and sends no Referer", async () => {
      const client = await registerPublic(t.base);
      const url = authorizeUrl(t.base, standardParams(t.base, client.client_id, pkce().challenge));
      const form = parseForm(await (await fetch(url)).text());
      const pages = [
        await fetch(url), // the sign-in and consent form
        await fetch(authorizeUrl(t.base, { client_id: "nobody" })), // 400 error page
        await postForm(form.action, { ...form.fields, api_key: apiKey }, { origin: "https://evil.example" }), // 403 page
      ];
      expect(pages.map((page) => page.status)).toEqual([200, 400, 403]);
      for (const page of pages) {
        expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(page.headers.get("x-frame-options")).toBe("DENY");
        expect(page.headers.get("x-content-type-options")).toBe("nosniff");
        expect(page.headers.get("referrer-policy")).toBe("no-referrer");
        expect(page.headers.get("cache-control")).toBe("no-store");
        const csp = Object.fromEntries(
          page.headers.get("content-security-policy")!.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
        );
        expect(csp["default-src"]).toEqual(["'none'"]);
        expect(csp["script-src"]).toBeUndefined(); // so scripts fall back to default-src 'none'
        expect(csp["frame-ancestors"]).toEqual(["'none'"]);
        expect(csp["base-uri"]).toEqual(["'none'"]);
      }
    });

    test("re-shows the form with an error for a wrong or revoked API key", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const url = authorizeUrl(t.base, standardParams(t.base, client.client_id, challenge));
      const revoked = await t.keys.create("gone");
      await t.keys.revoke(revoked.id);
      for (const key of [`${apiKey.slice(0, -1)}x`, revoked.key, "not a key"]) {
        const response = await signIn(url, key);
        expect(response.status).toBe(200);
        expect(response.headers.get("location")).toBeNull();
        const html = await response.text();
        expect(html).toContain("That API key is not valid or has been revoked.");
        expect(parseForm(html).fields.client_id).toBe(client.client_id);
      }
    });

    test("redirects with code, state and iss after a correct API key", async () => {
      const client = await registerPublic(t.base);
      const { code, location } = await codeFor(t, client.client_id, apiKey);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(location.searchParams.get("state")).toBe("st-123");
      expect(location.searchParams.get("iss")).toBe(t.base);
    });

    test("sends access_denied back when the person declines", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const response = await signIn(authorizeUrl(t.base, standardParams(t.base, client.client_id, challenge)), "", { decision: "deny" });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location")!);
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.get("state")).toBe("st-123");
    });

    test.each([
      ["no code_challenge", { code_challenge: undefined }, "code_challenge is required (PKCE)"],
      ["the plain method", { code_challenge_method: "plain" }, "code_challenge_method must be S256"],
      ["no method", { code_challenge_method: undefined }, "code_challenge_method must be S256"],
      ["response_type token", { response_type: "token" }, "response_type must be code"],
      ["another resource", { resource: "https://elsewhere.example/mcp" }, "resource must be"],
    ])("answers %s with a 400 page naming the problem, not a redirect to the (self-registered) redirect_uri", async (_, override, message) => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const response = await fetch(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), ...override }), { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain(message);
    });

    test.each([
      ["an unregistered redirect_uri", { redirect_uri: "https://attacker.example/cb" }],
      ["another path on the loopback host", { redirect_uri: "http://127.0.0.1:8765/other" }],
      ["an unknown client", { client_id: "nobody" }],
      ["no client_id", { client_id: undefined }],
    ])("answers %s with a 400 page, never a redirect", async (_, override) => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const response = await fetch(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), ...override }), { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toContain("text/html");
    });

    test("accepts a loopback redirect_uri on another port (RFC 8252 §7.3) and redirects there", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const otherPort = "http://127.0.0.1:40123/callback";
      const response = await signIn(authorizeUrl(t.base, { ...standardParams(t.base, client.client_id, challenge), redirect_uri: otherPort }), apiKey);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")!.startsWith(`${otherPort}?code=`)).toBe(true);
    });

    test("refuses a form posted from another site, or with a changed field", async () => {
      const client = await registerPublic(t.base);
      const { challenge } = pkce();
      const page = await fetch(authorizeUrl(t.base, standardParams(t.base, client.client_id, challenge)));
      const form = parseForm(await page.text());
      const crossSite = await postForm(form.action, { ...form.fields, api_key: apiKey }, { origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      const fetchMetadata = await postForm(form.action, { ...form.fields, api_key: apiKey }, { "sec-fetch-site": "cross-site" });
      expect(fetchMetadata.status).toBe(403);
      const tampered = await postForm(form.action, { ...form.fields, state: "other", api_key: apiKey });
      expect(tampered.status).toBe(400);
      expect(tampered.headers.get("location")).toBeNull();
      const noToken = await postForm(form.action, { ...form.fields, csrf_token: "", api_key: apiKey });
      expect(noToken.status).toBe(400);
      const sameOrigin = await postForm(form.action, { ...form.fields, api_key: apiKey }, { origin: t.base, "sec-fetch-site": "same-origin" });
      expect(sameOrigin.status).toBe(302);
    });
  });
});

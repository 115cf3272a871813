import { describe, expect, test } from "bun:test";
import { authorizeUrl, pkce, registerPublic, standardParams, startHarness, type Harness } from "../support/oauth.ts";
import { parseForm, postForm } from "../support/sign-in.ts";

/** Brute force on the OAuth sign-in form: wrong API keys lock out the client address, or the key's id. */
describe("sign-in brute-force protection", () => {
  /** GET the form, then POST it with `apiKey` from the address X-Forwarded-For names. */
  async function signInFrom(t: Harness, clientId: string, apiKey: string, forwardedFor: string) {
    const page = await fetch(authorizeUrl(t.base, standardParams(t.base, clientId, pkce().challenge)));
    const form = parseForm(await page.text());
    return postForm(form.action, { ...form.fields, api_key: apiKey }, { "x-forwarded-for": forwardedFor });
  }
  const wrongSecret = (key: string) => `${key.slice(0, -3)}${key.endsWith("AAA") ? "BBB" : "AAA"}`;

  async function expectLockedOut(response: Response) {
    expect(response.status).toBe(429);
    expect(response.headers.get("location")).toBeNull();
    const retryAfter = Number(response.headers.get("retry-after"));
    // The 10th failure in a burst frees the next attempt 90 s later (15 min / 10), plus up to 1 s jitter.
    expect(retryAfter).toBeGreaterThanOrEqual(90);
    expect(retryAfter).toBeLessThanOrEqual(91);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    const html = await response.text();
    expect(html).toContain("Too many wrong API keys");
    expect(html).toContain("Try again in 2 minutes.");
    expect(html).not.toContain("<form");
  }

  test("behind a proxy (TRUST_PROXY=1), 10 wrong keys lock the client address out, correct keys included; other addresses go on", async () => {
    const t = await startHarness({ TRUST_PROXY: "1" });
    try {
      const alice = await t.keys.create("alice");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 10; i++) {
        // What the client wrote on the left is ignored; the proxy appended the real address.
        const response = await signInFrom(t, client.client_id, `guess-${i}`, `10.9.9.${i}, 203.0.113.7`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain("That API key is not valid");
      }
      await expectLockedOut(await signInFrom(t, client.client_id, alice.key, "10.0.0.1, 203.0.113.7"));
      expect((await signInFrom(t, client.client_id, alice.key, "203.0.113.8")).status).toBe(302);
    } finally {
      await t.stop();
    }
  });

  test("10 wrong secrets for one key id, from any addresses, lock that key's sign-in; other keys go on", async () => {
    const t = await startHarness({ TRUST_PROXY: "1" });
    try {
      const alice = await t.keys.create("alice");
      const bob = await t.keys.create("bob");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 10; i++) {
        expect((await signInFrom(t, client.client_id, wrongSecret(alice.key), `198.51.100.${i}`)).status).toBe(200);
      }
      await expectLockedOut(await signInFrom(t, client.client_id, alice.key, "198.51.100.200"));
      expect((await signInFrom(t, client.client_id, bob.key, "198.51.100.200")).status).toBe(302);
    } finally {
      await t.stop();
    }
  });

  test("without TRUST_PROXY the socket address counts and X-Forwarded-For cannot spread the attempts", async () => {
    const t = await startHarness();
    try {
      const alice = await t.keys.create("alice");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 10; i++) {
        expect((await signInFrom(t, client.client_id, `guess-${i}`, `192.0.2.${i}`)).status).toBe(200);
      }
      await expectLockedOut(await signInFrom(t, client.client_id, alice.key, "192.0.2.99"));
    } finally {
      await t.stop();
    }
  });

  test("successful sign-ins and empty submissions are not counted", async () => {
    const t = await startHarness();
    try {
      const alice = await t.keys.create("alice");
      const client = await registerPublic(t.base);
      for (let i = 0; i < 12; i++) expect((await signInFrom(t, client.client_id, alice.key, "x")).status).toBe(302);
      for (let i = 0; i < 12; i++) expect((await signInFrom(t, client.client_id, "", "x")).status).toBe(200);
      expect((await signInFrom(t, client.client_id, alice.key, "x")).status).toBe(302);
    } finally {
      await t.stop();
    }
  });
});

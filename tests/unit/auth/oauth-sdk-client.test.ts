import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { REDIRECT, startHarness, type Harness } from "../../support/oauth.ts";
import { memoryProvider, signIn } from "../../support/sign-in.ts";

/** The MCP SDK's own OAuth client against the built-in authorization server: discovery to refresh. */
describe("the MCP SDK's own client", () => {
  let t: Harness;
  let apiKey: string;
  beforeAll(async () => {
    t = await startHarness();
    apiKey = (await t.keys.create("sdk")).key;
  });
  afterAll(() => t.stop());

  test("auth() discovers, registers, signs in with PKCE and resource, and refreshes", async () => {
    const { provider, saved } = memoryProvider(REDIRECT, "SDK test", "sdk-state");
    const serverUrl = `${t.base}/mcp`;
    expect(await auth(provider, { serverUrl })).toBe("REDIRECT");
    expect(saved.url!.searchParams.get("resource")).toBe(`${t.base}/mcp`);
    expect(saved.url!.searchParams.get("scope")).toBe("jobs:search");

    const response = await signIn(saved.url!.href, apiKey);
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("state")).toBe("sdk-state");
    const code = location.searchParams.get("code")!;
    expect(await auth(provider, { serverUrl, authorizationCode: code })).toBe("AUTHORIZED");
    const first = saved.tokens!;
    expect((await t.oauth.verifyBearer(first.access_token, t.base)).name).toBe("sdk");

    expect(await auth(provider, { serverUrl })).toBe("AUTHORIZED");
    expect(saved.tokens!.refresh_token).not.toBe(first.refresh_token);
    await t.oauth.verifyBearer(saved.tokens!.access_token, t.base);
  });
});

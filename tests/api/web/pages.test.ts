import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PROFILE_MAX_CHARS } from "../../../shared/match.ts";
import { RESULT_WINDOW_MAX } from "../../../shared/search.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.stop());

/** Every src and href in a page, and whether any script or style is inline. */
function references(html: string) {
  const urls = [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => m[1]!);
  const inlineScripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(([, attrs, body]) => !/\bsrc=/.test(attrs!) || body!.trim() !== "");
  const inlineStyles = /<style\b|\sstyle\s*=|\son[a-z]+\s*=/i.test(html);
  return { urls, inlineScripts: inlineScripts.length, inlineStyles };
}

describe.each([
  ["/", "search page"],
  ["/docs", "API docs"],
])("%s (%s)", (path) => {
  test("is HTML with the security headers", async () => {
    const response = await fetch(`${t.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  test("has no inline script or style and references only its own origin, and every file answers 200", async () => {
    const html = await (await fetch(`${t.url}${path}`)).text();
    const { urls, inlineScripts, inlineStyles } = references(html);
    expect(inlineScripts).toBe(0);
    expect(inlineStyles).toBe(false);
    expect(urls.length).toBeGreaterThan(2);
    for (const url of urls) {
      expect(url).toMatch(/^\/(?!\/)|^#/);
      if (url.startsWith("#")) continue;
      const response = await fetch(`${t.url}${url}`);
      expect({ url, status: response.status }).toEqual({ url, status: 200 });
      if (url.startsWith("/web/")) expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      // Our own modules import their siblings; those must be served too.
      if (/^\/web\/[a-z-]+\.js$/.test(url)) {
        for (const [, name] of (await response.text()).matchAll(/^import .* from "\.\/([a-z-]+\.js)";$/gm)) {
          if (!urls.includes(`/web/${name}`)) urls.push(`/web/${name}`);
        }
      }
    }
  });
});

describe("assets", () => {
  test("the docs page loads Swagger UI from this server", async () => {
    const html = await (await fetch(`${t.url}/docs`)).text();
    expect(html).toContain('src="/web/swagger-ui/swagger-ui-bundle.js"');
    const bundle = await fetch(`${t.url}/web/swagger-ui/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await bundle.text()).toContain("SwaggerUIBundle");
  });

  test("are sent gzipped when the client accepts it, and revalidate with an ETag", async () => {
    const url = `${t.url}/web/swagger-ui/swagger-ui.css`;
    const plain = await fetch(url, { headers: { "accept-encoding": "identity" }, decompress: false });
    const zipped = await fetch(url, { headers: { "accept-encoding": "gzip" }, decompress: false });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(zipped.headers.get("content-encoding")).toBe("gzip");
    const plainBytes = new Uint8Array(await plain.arrayBuffer());
    const zippedBytes = new Uint8Array(await zipped.arrayBuffer());
    expect(zippedBytes.length).toBeLessThan(plainBytes.length / 2);
    expect(Bun.gunzipSync(zippedBytes)).toEqual(plainBytes);
    const etag = plain.headers.get("etag")!;
    const again = await fetch(url, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  test("the search page pages only as deep as the service's result window", async () => {
    const script = await (await fetch(`${t.url}/web/app.js`)).text();
    expect(script).toContain(`const RESULT_WINDOW = ${RESULT_WINDOW_MAX};`);
  });

  test("the match view refuses a profile as long as the service does", async () => {
    const script = await (await fetch(`${t.url}/web/api.js`)).text();
    expect(script).toContain(`export const PROFILE_MAX_CHARS = ${PROFILE_MAX_CHARS};`);
  });

  test.each(["/web/nope.js", "/web/../package.json", "/web/swagger-ui/index.html", "/nope", "/docs/extra"])(
    "%s is the JSON 404",
    async (path) => {
      const response = await fetch(`${t.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: "Not found", error_code: "NOT_FOUND" });
    },
  );
});

import { dirname, join } from "node:path";
import { Elysia } from "elysia";
import { AppError } from "../../shared/errors.ts";

const WEB_DIR = join(import.meta.dir, "../web");
const SWAGGER_UI_DIR = dirname(Bun.resolveSync("swagger-ui-dist/package.json", import.meta.dir));

/** Files the pages load, by URL; nothing outside this list is served. `typescript`: served transpiled to JavaScript. */
const ASSETS: Record<string, { file: string; type: string; maxAge: number; typescript?: boolean }> = {
  "/web/app.js": { file: join(WEB_DIR, "app.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/api.js": { file: join(WEB_DIR, "api.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/card.js": { file: join(WEB_DIR, "card.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/views.js": { file: join(WEB_DIR, "views.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/places.js": { file: join(WEB_DIR, "places.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/match.js": { file: join(WEB_DIR, "match.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/saved.js": { file: join(WEB_DIR, "saved.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  // The line saying what the search understood, shared with the CLI.
  "/web/understood.js": { file: join(import.meta.dir, "../../shared/understood.ts"), type: "text/javascript; charset=utf-8", maxAge: 0, typescript: true },
  "/web/style.css": { file: join(WEB_DIR, "style.css"), type: "text/css; charset=utf-8", maxAge: 0 },
  "/web/docs.js": { file: join(WEB_DIR, "docs.js"), type: "text/javascript; charset=utf-8", maxAge: 0 },
  "/web/docs.css": { file: join(WEB_DIR, "docs.css"), type: "text/css; charset=utf-8", maxAge: 0 },
  "/web/favicon.svg": { file: join(WEB_DIR, "favicon.svg"), type: "image/svg+xml", maxAge: 86400 },
  // Swagger UI from the installed package: /docs works offline and needs no CDN.
  "/web/swagger-ui/swagger-ui-bundle.js": { file: join(SWAGGER_UI_DIR, "swagger-ui-bundle.js"), type: "text/javascript; charset=utf-8", maxAge: 86400 },
  "/web/swagger-ui/swagger-ui.css": { file: join(SWAGGER_UI_DIR, "swagger-ui.css"), type: "text/css; charset=utf-8", maxAge: 86400 },
};

/**
 * Scripts and styles come only from this origin, never inline; data: images are for the icons
 * Swagger UI's stylesheet embeds. The pages talk only to this origin and cannot be framed.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS = {
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/**
 * The search page at `/`, the API docs at `/docs` (Swagger UI over /openapi/json) and their
 * files under `/web/`. Plain files from server/web/: no build step, no framework.
 */
export function webRoutes() {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "web-routes" })
    .get("/", ({ request }) => serve(request, join(WEB_DIR, "index.html"), "text/html; charset=utf-8", 0), hidden)
    .get("/docs", ({ request }) => serve(request, join(WEB_DIR, "docs.html"), "text/html; charset=utf-8", 0), hidden)
    .get("/web/*", ({ request }) => {
      const asset = ASSETS[new URL(request.url).pathname];
      if (!asset) throw new AppError("NOT_FOUND", "Not found");
      return serve(request, asset.file, asset.type, asset.maxAge, asset.typescript);
    }, hidden);
}

// --- internal ---

interface Loaded {
  body: Uint8Array<ArrayBuffer>;
  gzip?: Uint8Array<ArrayBuffer>;
  etag: string;
}

/** Files are read once and kept; the gzip copy is made the first time a client accepts it. */
const cache = new Map<string, Loaded>();

async function serve(request: Request, file: string, type: string, maxAge: number, typescript = false): Promise<Response> {
  let loaded = cache.get(file);
  if (!loaded) {
    const body = typescript
      ? new TextEncoder().encode(new Bun.Transpiler({ loader: "ts" }).transformSync(await Bun.file(file).text()))
      : new Uint8Array(await Bun.file(file).arrayBuffer());
    loaded = { body, etag: `"${Bun.hash(body).toString(36)}"` };
    cache.set(file, loaded);
  }
  const headers: Record<string, string> = {
    "content-type": type,
    "cache-control": maxAge > 0 ? `public, max-age=${maxAge}` : "no-cache",
    etag: loaded.etag,
    vary: "accept-encoding",
    ...SECURITY_HEADERS,
  };
  if (request.headers.get("if-none-match") === loaded.etag) return new Response(null, { status: 304, headers });
  if (loaded.body.length > 1024 && /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "")) {
    loaded.gzip ??= Bun.gzipSync(loaded.body);
    return new Response(loaded.gzip, { headers: { ...headers, "content-encoding": "gzip" } });
  }
  return new Response(loaded.body, { headers });
}

/** RFC 8252 §7.3 loopback hosts, as URL.hostname spells them. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/**
 * Private-use schemes of MCP clients that predate RFC 8252's reverse-domain advice (`cursor://…`,
 * `vscode://…`); any other app scheme must be reverse-domain (`com.example.app:/callback`).
 */
export const APP_SCHEMES = new Set(["cursor:", "vscode:", "vscode-insiders:", "windsurf:"]);

/**
 * Why a redirect URI cannot be registered, or undefined when it can: an absolute https URL, http on
 * a loopback host (RFC 8252 §7.3), a native app's reverse-domain private-use scheme such as
 * `com.example.app:/cb` (RFC 8252 §7.1), or one of APP_SCHEMES; never with a fragment or user info.
 * Everything else is refused: plain http to other hosts, and schemes a browser or the system handles
 * itself (javascript:, data:, file:, view-source:, mailto:, jar:, filesystem:…) could hand codes to someone else.
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (uri.includes("#")) return `${uri} must not contain a fragment`;
  if (url.username || url.password) return `${uri} must not contain user info`;
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  if (APP_SCHEMES.has(url.protocol) || /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/.test(url.protocol)) return undefined;
  return `${uri} must use https, http on a loopback host (127.0.0.1, [::1], localhost), or an app's own reverse-domain scheme (com.example.app:/callback)`;
}

/**
 * Whether a redirect URI given at /authorize matches one registered: exactly, or for loopback
 * URIs with only the port differing (RFC 8252 §7.3: native apps get an ephemeral port each run).
 */
export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  let req: URL;
  let reg: URL;
  try {
    req = new URL(requested);
    reg = new URL(registered);
  } catch {
    return false;
  }
  if (requested.includes("#") || !LOOPBACK_HOSTS.has(req.hostname) || req.protocol !== "http:") return false;
  return (
    req.protocol === reg.protocol &&
    req.hostname === reg.hostname &&
    req.pathname === reg.pathname &&
    req.search === reg.search &&
    !req.username && !req.password
  );
}

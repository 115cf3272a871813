/** RFC 8252 §7.3 loopback hosts, as URL.hostname spells them. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
/** Schemes a browser runs or reads itself: never a place to send a code. */
const UNSAFE_SCHEMES = new Set(["javascript:", "data:", "file:", "vbscript:", "blob:", "about:", "http:", "ftp:", "ws:", "wss:"]);

/**
 * Why a redirect URI cannot be registered, or undefined when it can: an absolute https URL, http on
 * a loopback host (RFC 8252 §7.3), or a native app's private-use scheme such as `cursor://…`
 * (RFC 8252 §7.1), without fragment or user info. Plain http to other hosts and schemes the browser
 * handles itself (javascript:, data:, file:…) could hand codes to someone else.
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
  if (!UNSAFE_SCHEMES.has(url.protocol)) return undefined;
  return `${uri} must use https, http on a loopback host (127.0.0.1, [::1], localhost), or an app's own scheme`;
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

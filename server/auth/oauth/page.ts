import type { AuthorizationRequest } from "./authorize.ts";

export interface SignInPage {
  request: AuthorizationRequest;
  /** Where the form posts: the authorization endpoint. */
  action: string;
  formToken: string;
  error?: string;
}

/**
 * The consent and sign-in page: plain HTML, no script. The person enters their API key; the
 * request travels in hidden fields with an anti-forgery token. Every value is escaped, and the
 * client's self-chosen name is shown beside the host its redirect goes to, which it cannot fake.
 */
export function renderSignInPage({ request, action, formToken, error }: SignInPage): string {
  const name = request.client.info.client_name?.trim() || "An unnamed application";
  const host = new URL(request.redirectUri).host;
  const hidden = Object.entries({ ...request.fields, csrf_token: formToken })
    .map(([field, value]) => `<input type="hidden" name="${escapeHtml(field)}" value="${escapeHtml(value)}">`)
    .join("\n      ");
  return layout(
    "Sign in",
    `<h1>Allow access to job search?</h1>
    <p><strong>${escapeHtml(name)}</strong> wants to search job postings for you.
      When you allow it, you return to <strong>${escapeHtml(host)}</strong>.</p>
    ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
    <form method="post" action="${escapeHtml(action)}">
      ${hidden}
      <label for="api_key">Your API key</label>
      <input id="api_key" type="password" name="api_key" autocomplete="current-password" required autofocus>
      <p class="buttons">
        <button type="submit" name="decision" value="allow">Allow ${escapeHtml(name)}</button>
        <button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
      </p>
    </form>
    <p class="note">The application chose its name itself. Client ID: ${escapeHtml(request.clientId)}.
      API keys are issued by the operator of this service.</p>`,
  );
}

/** A page for requests that cannot be sent back to the application (unknown client, bad redirect_uri). */
export function renderErrorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1>\n    <p class="error">${escapeHtml(message)}</p>`);
}

/** HTML-escapes text for element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Headers for these pages: not cached, not framed (clickjacking the Allow button), no scripts at all
 * (script-src falls back to default-src 'none'), no Referer to the client. There is no form-action:
 * Chrome applies it to the redirect that follows the post, which goes to the client's redirect_uri.
 */
export const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

// --- internal ---

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Job search</title>
  <style>
    body { font: 16px/1.5 system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
    label, input { display: block; width: 100%; box-sizing: border-box; }
    input[type=password] { padding: .5rem; margin: .25rem 0 1rem; font: inherit; }
    button { padding: .5rem 1rem; font: inherit; margin-right: .5rem; }
    .error { color: #a00; }
    .note { color: #666; font-size: .85rem; }
  </style>
</head>
<body>
  <main>
    ${body}
  </main>
</body>
</html>
`;
}

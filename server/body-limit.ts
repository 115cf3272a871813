import { AppError } from "../shared/errors.ts";

/**
 * The request body as text, at most `maxBytes` bytes. A declared `content-length` over the limit
 * is refused before anything is read; a body without one (chunked) is read chunk by chunk and the
 * stream cancelled as soon as the count passes the limit, so no body is ever buffered beyond it.
 * Throws AppError PAYLOAD_TOO_LARGE (413). Invalid UTF-8 decodes to U+FFFD, as `Request.text()` does.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return "";

  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

// --- internal ---

function tooLarge(maxBytes: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `request body must be at most ${maxBytes} bytes`);
}

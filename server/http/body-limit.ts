import { AppError } from "../../shared/errors.ts";

/** A whole body must arrive within this time: a body trickling in (a byte now and then keeps Bun's idle timer happy) is cut off. */
export const BODY_TIMEOUT_MS = 10_000;

/**
 * The request body as text, at most `maxBytes` bytes, received within `timeoutMs`. A declared
 * `content-length` over the limit is refused before anything is read; a body without one (chunked)
 * is read chunk by chunk and the stream cancelled as soon as the count passes the limit, so no body
 * is ever buffered beyond it. Throws AppError PAYLOAD_TOO_LARGE (413), REQUEST_TIMEOUT (408), or
 * CLIENT_CLOSED (499) when the client hangs up mid-body (its error, not the server's).
 * Invalid UTF-8 decodes to U+FFFD, as `Request.text()` does.
 */
export async function readBodyText(request: Request, maxBytes: number, timeoutMs = BODY_TIMEOUT_MS): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return "";

  const reader = request.body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, timeoutMs);
  try {
    const text = await readAll(reader, maxBytes);
    // A cancelled stream ends like a finished one: what arrived is only the start of the body.
    if (timedOut) throw slow(timeoutMs);
    return text;
  } catch (error) {
    if (timedOut) throw slow(timeoutMs);
    if (error instanceof AppError) throw error;
    throw new AppError("CLIENT_CLOSED", "the client closed the connection before sending the whole body", { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

// --- internal ---

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<string> {
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

function slow(timeoutMs: number): AppError {
  return new AppError("REQUEST_TIMEOUT", `request body not received within ${timeoutMs / 1000} s`);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `request body must be at most ${maxBytes} bytes`);
}

import { AppError, isErrorCode } from "../shared/errors.ts";
import type { SearchResponse } from "../shared/search.ts";

export interface ClientSettings {
  url: string;
  apiKey?: string;
}

export const DEFAULT_URL = "http://localhost:3000";

/** Connection settings: flags win over JOBSEARCH_URL / JOBSEARCH_API_KEY, then the default URL. */
export function clientSettings(
  flags: { url?: string; "api-key"?: string },
  env: Record<string, string | undefined> = Bun.env,
): ClientSettings {
  const url = (flags.url || env.JOBSEARCH_URL || DEFAULT_URL).replace(/\/+$/, "");
  const apiKey = flags["api-key"] || env.JOBSEARCH_API_KEY || undefined;
  return apiKey === undefined ? { url } : { url, apiKey };
}

/** POST /v1/search. Error bodies come back as AppError with the server's code and message. */
export async function searchRemote(settings: ClientSettings, body: Record<string, unknown>): Promise<SearchResponse> {
  let response: Response;
  try {
    response = await fetch(`${settings.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": settings.apiKey ?? "" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new AppError("SERVICE_UNAVAILABLE", `cannot reach ${settings.url} (is the server running?)`, { cause: error });
  }
  const payload = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok) throw errorFromBody(response.status, payload);
  return payload as unknown as SearchResponse;
}

// --- internal ---

function errorFromBody(status: number, body: Record<string, unknown> | undefined): AppError {
  const message = typeof body?.error === "string" ? body.error : `HTTP ${status}`;
  if (status === 429) {
    return new AppError("RATE_LIMITED", message, { retryAfter: Number(body?.retry_after) || undefined });
  }
  const code = isErrorCode(body?.error_code) ? body.error_code : "INTERNAL_ERROR";
  return new AppError(code, message);
}

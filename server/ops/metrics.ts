import { statfsSync } from "node:fs";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { ResultCache } from "../cache/result-cache.ts";
import type { ErrorNote } from "../http/error-response.ts";
import type { MemoryCopyState } from "../store/store.ts";
import type { OpenTableState, ServiceStatus } from "./status.ts";

/** Where a search came in. */
export type SearchInterface = "rest" | "mcp";

export interface Metrics {
  readonly registry: Registry;
  /**
   * One finished request; `route` is the route template (or {@link UNMATCHED_ROUTE}), never the raw path;
   * `error` the spec error it answered with, if any.
   */
  observeRequest(method: string, route: string, status: number, seconds: number, error?: ErrorNote): void;
  /** One completed search (parameters checked, results ranked), REST or the MCP search_jobs tool. */
  observeSearch(via: SearchInterface, seconds: number): void;
  /** A search that timed out stopped its remaining work at `stage` (queue, embed, retrieve, rank, page). */
  observeCancelled(stage: string): void;
  /** The Prometheus text exposition of every metric, store gauges computed now. */
  render(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsOptions {
  cache?: Pick<ResultCache, "stats">;
  memoryCopy?: () => MemoryCopyState;
  /** DATA_DIR: the file system whose space the disk gauges report. */
  dataDir?: string;
  webhooks?: WebhookTallies;
}

/** What the webhook sender (server/saved/webhooks.ts) has counted since its process started. */
export interface WebhookTallies {
  stats(): { delivered: number; retried: number; failed: number; pending: number };
}

/** The route label of every request that matched no route, so unknown paths add no series. */
export const UNMATCHED_ROUTE = "unmatched";

/**
 * Latency buckets in seconds, shared by requests and searches: dense around the 5–50 ms a search
 * takes, up to 10 s for the slow tail.
 */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The routes that enforce a rate limit. */
const RATE_LIMITED_ROUTES = ["/v1/search", "/v1/cities", "/mcp"];

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * A registry of its own per app (never prom-client's global one, so several servers in one
 * process do not collide), with the process metrics (RSS, CPU, heap, event-loop lag), the request
 * and search instruments, and gauges of the store read from `status` at scrape time.
 * With a result cache, its lookups by result (hit, miss), read from the cache's own tallies at scrape time.
 * With `memoryCopy`, gauges of the in-memory copy (postings, bytes, the table version it holds); with
 * `dataDir`, the size and free space of its file system (one statfs per scrape).
 * Observing costs a label lookup and a few additions: no I/O, fixed buckets.
 */
export function createMetrics(status: ServiceStatus, options: MetricsOptions = {}): Metrics {
  const { cache, memoryCopy, dataDir, webhooks } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests answered, by method, route template and status (/healthz, /readyz and /metrics are not counted)",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival until its response was sent, by method, route template and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: "jobsearch_rate_limited_total",
    help: "Requests refused with 429 because their principal was over its rate limit, by route template",
    labelNames: ["route"] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: "jobsearch_errors_total",
    help: "Requests answered with the spec's error body, by route template and error_code (RATE_LIMITED for 429)",
    labelNames: ["route", "code"] as const,
    registers: [registry],
  });
  const inFlightRefused = new Counter({
    name: "jobsearch_in_flight_refused_total",
    help: "Of the 429s, those refused because the principal had MAX_IN_FLIGHT_PER_KEY requests running (not for its rate), by route template",
    labelNames: ["route"] as const,
    registers: [registry],
  });
  const searchDuration = new Histogram({
    name: "jobsearch_search_duration_seconds",
    help: "Time to run one search (parameters, retrieval, ranking), by interface: rest (/v1/search) or mcp (search_jobs)",
    labelNames: ["interface"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const cancelled = new Counter({
    name: "jobsearch_search_cancelled_total",
    help: "Searches that timed out (SEARCH_TIMEOUT_MS) and stopped their remaining work, by the stage where they stopped",
    labelNames: ["stage"] as const,
    registers: [registry],
  });

  // Series that exist from the start (at 0), so rates and alerts need no first event.
  for (const route of RATE_LIMITED_ROUTES) {
    rateLimited.inc({ route }, 0);
    inFlightRefused.inc({ route }, 0);
  }
  for (const via of ["rest", "mcp"] as const) searchDuration.zero({ interface: via });

  if (cache) {
    new Counter({
      name: "jobsearch_result_cache_lookups_total",
      help: "Searches that looked in the result cache, by result: hit (answered from it) or miss (searched); searches with facets or for similar jobs do not look",
      labelNames: ["result"] as const,
      registers: [registry],
      collect() {
        this.reset();
        this.inc({ result: "hit" }, cache.stats.hits);
        this.inc({ result: "miss" }, cache.stats.misses);
      },
    });
  }

  // Exported by every process, zero where none is sent (only the sender lease's holder sends), so a dashboard's series exist.
  const tallies = () => webhooks?.stats() ?? { delivered: 0, retried: 0, failed: 0, pending: 0 };
  new Counter({
    name: "jobsearch_webhook_deliveries_total",
    help: "Webhook delivery attempts of saved searches by this process, by outcome: delivered (2xx), retry (failed, tried again later), failed (given up)",
    labelNames: ["outcome"] as const,
    registers: [registry],
    collect() {
      const tally = tallies();
      this.reset();
      this.inc({ outcome: "delivered" }, tally.delivered);
      this.inc({ outcome: "retry" }, tally.retried);
      this.inc({ outcome: "failed" }, tally.failed);
    },
  });
  new Gauge({
    name: "jobsearch_webhook_outbox_pending",
    help: "Webhook deliveries waiting in the outbox (as last seen by the process that sends them)",
    registers: [registry],
    collect() {
      this.set(tallies().pending);
    },
  });

  // Store gauges: each scrape asks `status` (cached by table version) and sets them in collect().
  const tableGauge = (name: string, help: string, value: (state: OpenTableState) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const state = await status.table();
        if (state.open) this.set(value(state));
      },
    });
  tableGauge("jobsearch_postings", "Postings in the jobs table", (state) => state.postings);
  tableGauge("jobsearch_table_version", "Version of the jobs table (grows with each write)", (state) => state.version);
  tableGauge("jobsearch_vector_index", "1 when the ANN index on the vectors exists (vector search uses it), 0 while search is exact", (state) =>
    state.vectorIndex ? 1 : 0,
  );
  new Gauge({
    name: "jobsearch_index_rows",
    help: "Rows each index of the jobs table covers (state=indexed) and does not cover yet (state=unindexed)",
    labelNames: ["index", "type", "state"] as const,
    registers: [registry],
    async collect() {
      const state = await status.table();
      if (!state.open) return;
      this.reset();
      for (const index of state.indexes) {
        this.set({ index: index.name, type: index.type, state: "indexed" }, index.indexedRows);
        this.set({ index: index.name, type: index.type, state: "unindexed" }, index.unindexedRows);
      }
    },
  });
  new Gauge({
    name: "jobsearch_ready",
    help: "1 when /readyz answers 200 (table open, model loaded), else 0",
    registers: [registry],
    async collect() {
      this.set((await status.readiness()).ready ? 1 : 0);
    },
  });

  if (memoryCopy) {
    // Not held (not built yet, or the table is over HOT_PATH_MAX_POSTINGS): 0 postings, 0 bytes, version 0.
    const held = () => {
      const state = memoryCopy();
      return state && "version" in state ? state : { version: 0, postings: 0, bytes: 0 };
    };
    const copyGauge = (name: string, help: string, value: (state: { version: number; postings: number; bytes: number }) => number) =>
      new Gauge({ name, help, registers: [registry], collect() { this.set(value(held())); } });
    copyGauge("jobsearch_memory_copy_postings", "Postings in the in-memory copy searches are answered from (0 while LanceDB answers)", (s) => s.postings);
    copyGauge("jobsearch_memory_copy_bytes", "Bytes the in-memory copy holds (vectors, postings lists, filter columns)", (s) => s.bytes);
    copyGauge("jobsearch_memory_copy_version", "The table version the in-memory copy was built from (behind jobsearch_table_version while it rebuilds; 0 when none)", (s) => s.version);
  }

  if (dataDir) {
    const diskGauge = (name: string, help: string, value: (fs: ReturnType<typeof statfsSync>) => number) =>
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          try {
            this.set(value(statfsSync(dataDir)));
          } catch {
            // DATA_DIR gone or unreadable: no sample this scrape (the disk alert then has nothing to judge).
          }
        },
      });
    diskGauge("jobsearch_disk_size_bytes", "Size of the file system holding DATA_DIR", (fs) => Number(fs.blocks) * Number(fs.bsize));
    diskGauge("jobsearch_disk_free_bytes", "Bytes of the file system holding DATA_DIR that the server may still write", (fs) => Number(fs.bavail) * Number(fs.bsize));
  }

  return {
    registry,
    contentType: registry.contentType,
    observeRequest(method, route, status, seconds, error) {
      const labels = { method: METHODS.has(method) ? method : "OTHER", route, status: String(status) };
      requests.inc(labels);
      requestDuration.observe(labels, seconds);
      if (status === 429) rateLimited.inc({ route });
      if (error) {
        errors.inc({ route, code: error.code });
        if (error.inFlight) inFlightRefused.inc({ route });
      }
    },
    observeSearch(via, seconds) {
      searchDuration.observe({ interface: via }, seconds);
    },
    observeCancelled(stage) {
      cancelled.inc({ stage });
    },
    render: () => registry.metrics(),
  };
}

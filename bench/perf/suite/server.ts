import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { openKeyStore } from "../../../server/auth/api-keys.ts";
import { MODELS_DIR, ROOT } from "./dataset.ts";
import { SEARCH_BODIES } from "./requests.ts";
import { median } from "./stats.ts";

export interface BenchServer {
  pid: number;
  url: string;
  /** The server's own start → ready time from its "ready" log line. */
  readyMs: number;
  /** Process spawn → first 200 answer to POST /v1/search. */
  firstAnswerMs: number;
  /** Process spawn → the in-memory copy is built (its "hot_path" log line); NaN when it is off. */
  memoryCopyMs: number;
  rssMb(): number;
  stop(): Promise<void>;
}

/** A key with a limit far above anything the load generator reaches, so the limiter never answers 429. */
export async function createBenchKey(dataDir: string): Promise<{ key: string; revoke(): Promise<void> }> {
  const keys = openKeyStore(dataDir);
  const created = await keys.create("bench", 1_000_000);
  keys.close();
  return {
    key: created.key,
    async revoke() {
      const store = openKeyStore(dataDir);
      await store.revoke(created.id);
      store.close();
    },
  };
}

/** A free loopback port (PORT=0 would not tell us the port without reading the log). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

/** Spawns `bun server/main.ts` as an operator would and waits for its first successful search. */
export async function spawnBenchServer(dataDir: string, apiKey: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const proc = Bun.spawn(["bun", join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", MODELS_DIR, DEMO_DATA: "false", LOG_LEVEL: "info", LANCEDB_LOG: "error", MAX_IN_FLIGHT_PER_KEY: "1000", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const log = drain(proc.stderr);
  drain(proc.stdout);
  const body = JSON.stringify(SEARCH_BODIES[0]);
  let firstAnswerMs = 0;
  while (firstAnswerMs === 0) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}) before answering:\n${log.text}`);
    if (performance.now() - started > 60_000) throw new Error(`server did not answer within 60 s:\n${log.text}`);
    const status = await fetch(`${url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body,
    }).then((r) => r.arrayBuffer().then(() => r.status), () => 0);
    if (status === 200) firstAnswerMs = performance.now() - started;
    else if (status !== 0) throw new Error(`first search answered ${status}`);
    else await Bun.sleep(5);
  }
  const readyLine = log.text.split("\n").find((line) => line.includes('"msg":"ready"'));
  const readyMs = readyLine ? Number(JSON.parse(readyLine).ms) : Number.NaN;
  // Load runs measure the steady state: searches answered from memory (server/memory/), once it is built.
  const memoryCopyMs = await waitForMemoryCopy(log, proc, started, Number(env.SERVER_PROCESSES ?? 1));
  return {
    memoryCopyMs,
    pid: proc.pid,
    url,
    readyMs,
    firstAnswerMs,
    rssMb: () => readRssMb(proc.pid),
    async stop() {
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
      await proc.exited;
      clearTimeout(timer);
    },
  };
}

export interface ColdStart {
  firstAnswerMs: number;
  readyMs: number;
  runs: Array<{ firstAnswerMs: number; readyMs: number }>;
}

/** Median of `runs` cold starts, each a fresh process on the table. */
export async function measureColdStart(dataDir: string, apiKey: string, runs = 3): Promise<ColdStart> {
  const results: ColdStart["runs"] = [];
  for (let i = 0; i < runs; i++) {
    const server = await spawnBenchServer(dataDir, apiKey);
    results.push({ firstAnswerMs: server.firstAnswerMs, readyMs: server.readyMs });
    await server.stop();
  }
  return {
    firstAnswerMs: median(results.map((r) => r.firstAnswerMs)),
    readyMs: median(results.map((r) => r.readyMs)),
    runs: results,
  };
}

/** VmRSS of a process in MB, from /proc. */
export function readRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? Number.NaN);
  return kb / 1024;
}

// --- internal ---

/**
 * Waits (up to 120 s) for the "hot_path" line of each of the server's `processes` (each builds its own
 * copy): the time from spawn, or NaN when the path is off or skipped.
 */
async function waitForMemoryCopy(log: { text: string }, proc: { exitCode: number | null }, started: number, processes: number): Promise<number> {
  while (performance.now() - started < 120_000 && proc.exitCode === null) {
    const lines = log.text.split("\n").filter((l) => l.includes('"msg":"hot_path"'));
    if (lines.length >= processes) return "version" in JSON.parse(lines[0]!) ? performance.now() - started : Number.NaN;
    if (process.env.HOT_PATH_MAX_POSTINGS === "0") return Number.NaN;
    await Bun.sleep(50);
  }
  return Number.NaN;
}

/** Reads a stream to its end in the background, so a full pipe never blocks the server. */
function drain(stream: ReadableStream<Uint8Array>): { text: string } {
  const sink = { text: "" };
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of stream) if (sink.text.length < 1_000_000) sink.text += decoder.decode(chunk, { stream: true });
  })();
  return sink;
}

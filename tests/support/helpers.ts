import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig, type Config } from "../../server/config.ts";
import { createRng } from "../../server/demo/generate.ts";
import { ingestRecords } from "../../server/ingest/ingest.ts";
import { createLogger, type Logger } from "../../server/log.ts";
import { startServer, type RunningServer } from "../../server/start.ts";

export const ROOT = resolve(import.meta.dir, "../..");
/** The offline model is built once per machine into this folder and shared by every test. */
export const MODELS_DIR = join(ROOT, "tests/.cache/models");
export const SHARED_DATA = resolve(ROOT, "../shared/data/jobs.jsonl.gz");
/** A JobSpy CSV export: 15 rows, two of them invalid, with multi-line quoted descriptions. */
export const JOBSPY_CSV = join(ROOT, "tests/support/fixtures/jobspy.csv");

export function tempDir(prefix = "jobsearch-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Config for a test: a temp DATA_DIR, port 0, loopback, the shared model cache, no demo data. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", MODELS_DIR, DEMO_DATA: "false", LOG_LEVEL: "error", READ_CONSISTENCY_MS: "0", ...env });
}

export interface TestServer {
  url: string;
  apiKey: string;
  dataDir: string;
  server: RunningServer;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  records?: object[];
  /** Serve this DATA_DIR (e.g. one a CLI ingest filled) instead of a new temp dir; it is removed on stop all the same. */
  dataDir?: string;
  log?: Logger;
  env?: Record<string, string>;
}

/** A real server on a free port over a real LanceDB in a temp dir, loaded with `records`. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const { records = [], log = createLogger("error", () => {}), env = {} } = options;
  const dataDir = options.dataDir ?? tempDir();
  const server = await startServer(testConfig(dataDir, env), log);
  if (records.length > 0) {
    await ingestRecords(server, records.map((value, i) => ({ ref: `record ${i + 1}`, value })));
  }
  // Searches then come from memory, as on a server that has been up a moment (LanceDB answers until then).
  await server.store.warm();
  const apiKey = (await server.keys.create("test")).key;
  return {
    url: server.url,
    apiKey,
    dataDir,
    server,
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs the CLI as a user would, with DATA_DIR and the model cache set. */
export async function runCli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, MODELS_DIR, NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { stdout, stderr, code };
}

/**
 * A CLI command started in the background: `stderrContains` resolves once its stderr has shown the
 * text (a state it reached, rather than a guess at how long it takes); `done` as runCli's result.
 */
export function startCli(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, MODELS_DIR, NO_COLOR: "1", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      for (const w of waiters.filter((w) => stderr.includes(w.text))) w.resolve();
    }
  })();
  const done = Promise.all([new Response(proc.stdout).text(), reading, proc.exited]).then(([stdout, , code]) => ({ stdout, stderr, code }));
  return {
    stderrContains(text: string): Promise<void> {
      if (stderr.includes(text)) return Promise.resolve();
      return Promise.race([
        new Promise<void>((resolve) => waiters.push({ text, resolve })),
        done.then((result) => { throw new Error(`the command ended (exit ${result.code}) without "${text}" on stderr:\n${result.stderr}`); }),
      ]);
    },
    done,
  };
}

/** Starts `bun server/main.ts` as a user would and waits for its "ready" log line. */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}) {
  const proc = Bun.spawn(["bun", join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", MODELS_DIR, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const stderr = proc.stderr.getReader();
  let log = "";
  while (!log.includes('"msg":"ready"')) {
    const { value, done } = await stderr.read();
    if (done) throw new Error(`server exited before it was ready:\n${log}`);
    log += new TextDecoder().decode(value);
  }
  stderr.releaseLock();
  const ready = JSON.parse(log.split("\n").find((line) => line.includes('"msg":"ready"'))!);
  const stop = async () => {
    proc.kill("SIGTERM");
    await proc.exited;
    return new Response(proc.stdout).text();
  };
  return { ready, stop, log, proc };
}

/**
 * A spawned server's stderr (spawnServer's `log` first, what it read before the ready line), read on to
 * its end so the server never blocks on a full pipe: `text()` is what was read so far, `saying(words)`
 * resolves once it holds them (rejects if it ends without), `all()` gives all of it once it ends.
 */
export function serverLog(server: { log: string; proc: { stderr: ReadableStream<Uint8Array> } }) {
  let text = server.log;
  let ended = false;
  const waiting = new Set<{ words: string; resolve(): void; reject(error: Error): void }>();
  const settle = () => {
    for (const wait of waiting) {
      if (text.includes(wait.words)) wait.resolve();
      else if (ended) wait.reject(new Error(`the server's log ended without "${wait.words}"`));
      else continue;
      waiting.delete(wait);
    }
  };
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of server.proc.stderr) {
      text += decoder.decode(chunk, { stream: true });
      settle();
    }
    ended = true;
    settle();
  })();
  return {
    text: () => text,
    saying: (words: string) =>
      new Promise<void>((resolve, reject) => {
        waiting.add({ words, resolve, reject });
        settle();
      }),
    all: () => reading.then(() => text),
  };
}

/**
 * Runs `cli ingest FILE` and SIGKILLs it once it says it is rebuilding the vector index: the rows are
 * committed and folded into the index as a further segment, the rebuild is cut. Returns what it said.
 */
export async function ingestKilledDuringRebuild(file: string, env: Record<string, string>): Promise<string> {
  const load = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), "ingest", file], {
    env: { ...process.env, MODELS_DIR, ...env }, stdout: "ignore", stderr: "pipe",
  });
  let said = "";
  for await (const chunk of load.stderr) {
    said += new TextDecoder().decode(chunk);
    if (said.includes("rebuilding the vector index")) break;
  }
  load.kill("SIGKILL");
  await load.exited;
  return said;
}

/**
 * Closes the table under a running server, so that every read of it now fails inside LanceDB, once
 * the server's own background work on the table (the webhook sender, the in-memory copy's build) has
 * stopped: LanceDB refuses to close a table another call is using.
 */
export async function closeTableUnder(server: RunningServer): Promise<void> {
  await server.webhooks.stop();
  await server.store.settle();
  server.store.close();
}

/** A seeded random number generator (mulberry32, the demo data's): the same seed, the same moments. */
export const seededRandom = createRng;

/** The MCP SDK's client, connected to a test server's /mcp with an API key. */
export async function connectMcp(url: string, apiKey: string, name = "test-client"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { "x-api-key": apiKey } } }));
  return client;
}

/** POST /v1/search with the server's key: the status and the parsed body. */
export async function postSearch<T = Record<string, any>>(t: { url: string; apiKey: string }, body: Record<string, unknown>): Promise<{ status: number; body: T }> {
  const response = await fetch(`${t.url}/v1/search`, {
    method: "POST",
    headers: { "x-api-key": t.apiKey, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/**
 * A POST /v1/search whose headers are sent now and whose body only when `finish` is called: a request
 * in flight (holding its key's slot) for as long as the test wants. The headers reach the server's
 * handler some time after this returns; one refused meanwhile (its key's slots all taken) is
 * `answered()` before `finish`. `abort()` drops the connection.
 */
export async function slowSearch(url: string, key: string, query: object = { q: "backend engineer", top_k: 5 }) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify(query);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s)).on("error", reject);
  });
  let received = "";
  socket.on("data", (chunk) => (received += chunk.toString()));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  socket.write(
    `POST /v1/search HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\n` +
      `x-api-key: ${key}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`,
  );
  return {
    async finish() {
      if (!socket.destroyed) socket.write(body);
      await closed;
      return { status: Number(/^HTTP\/1\.1 (\d+)/.exec(received)?.[1]), body: received.slice(received.indexOf("\r\n\r\n") + 4) };
    },
    closed,
    answered: () => received !== "" || socket.destroyed,
    abort: () => void socket.destroy(),
  };
}

/**
 * The latest version of the jobs table of `dataDir` as its files say (LanceDB names each manifest by the
 * version's bits inverted), read without opening it; 0 before the table exists. A load or delete writing
 * a version is an event a test can wait on, where a moment on a busy clock is not.
 */
export function latestTableVersion(dataDir: string): number {
  const folder = join(dataDir, "jobs.lance", "_versions");
  if (!existsSync(folder)) return 0;
  const names = readdirSync(folder).filter((name) => name.endsWith(".manifest"));
  return names.reduce((max, name) => Math.max(max, Number(2n ** 64n - 1n - BigInt(name.slice(0, -9)))), 0);
}

/**
 * `count` slow searches of `key` (slowSearch) holding the key's slots in flight on a server that admits
 * `count`: returns them once `probe` (another request of the key) is refused with 429, so every one is
 * inside its handler. A held request that a probe overtook, refused in its place, is sent again.
 */
export async function holdSlots(url: string, key: string, count: number, probe: () => Promise<{ status: number }>, query?: object) {
  const hold = () => slowSearch(url, key, query);
  const held = await Promise.all(Array.from({ length: count }, hold));
  await until(async () => {
    for (const [i, request] of held.entries()) if (request.answered()) held[i] = await hold();
    return probe();
  }, (answer) => answer.status === 429);
  return held;
}

/**
 * Waits until `holds(await read())`, reading again after each `paceMs`. The pace only spaces the
 * reads; there is no deadline, so a busy machine makes the wait longer, never the test fail (the
 * test's own timeout ends a wait for something that never comes). Returns the value that held.
 */
export async function until<T>(read: () => Promise<T> | T, holds: (value: T) => boolean, paceMs = 50): Promise<T> {
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    await Bun.sleep(paceMs);
  }
}

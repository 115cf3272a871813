import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { fixturePostings } from "../support/fixtures/postings.ts";
import { connectMcp, spawnServer, startTestServer, tempDir, type TestServer } from "../support/helpers.ts";
import { rawClient } from "../support/rate-limit.ts";
import { startRedis, type TestRedis } from "../support/redis.ts";
import { createApiKey, loadDataDir } from "../support/stores.ts";

/*
 * The limits are the service's, never a process's: with SERVER_PROCESSES=2 a key holds at most its
 * slots across both processes, and when the authority that counts them (the primary process, or
 * Redis) does not answer, requests are refused with 503 rather than counted per process. Real
 * processes, a real stopped primary (SIGSTOP), a real Redis holding its writes (CLIENT PAUSE WRITE).
 */

const SLOTS = 4;
const UNAVAILABLE = "Service unavailable: rate limits cannot be checked right now; try again shortly";

describe("two processes without Redis", () => {
  let dataDir: string;
  let key: string;
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  beforeAll(async () => {
    dataDir = tempDir("jobsearch-fail-closed-");
    // Loaded and given a key in process, by the functions `cli ingest` and `cli keys create` run.
    await loadDataDir(dataDir, fixturePostings());
    key = await createApiKey(dataDir, "held");
    cluster = await startCluster(dataDir, { MAX_IN_FLIGHT_PER_KEY: String(SLOTS) });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("of 12 requests held open at once over both processes, exactly the key's 4 slots are admitted", async () => {
    await expectExactlySlotsAdmitted(cluster.url, key);
  });

  test("while the primary does not answer, the worker refuses with 503 (never admits); after, no slot granted late is lost", async () => {
    // Three connections to the worker, whose requests wait for the primary together: each is refused
    // once the worker has waited its 3 s for an answer (one after another they took 9 s).
    const worker = await socketTo(cluster, cluster.workers[0]!, key);
    const connections = [worker, await socketTo(cluster, cluster.workers[0]!, key), await socketTo(cluster, cluster.workers[0]!, key)];
    process.kill(cluster.primary, "SIGSTOP");
    try {
      for (const refused of await Promise.all(connections.map((connection) => connection.get(`/v1/search?q=engineer&top_k=1`)))) {
        expect(refused.status).toBe(503);
        expect(refused.headers["retry-after"]).toBe("1");
        expect(JSON.parse(refused.body)).toEqual({ request_id: refused.headers["x-request-id"], error: UNAVAILABLE, error_code: "SERVICE_UNAVAILABLE" });
      }
      await cluster.waitFor((line) => line.msg === "rate limit: the primary process does not answer, refusing requests until it does");
    } finally {
      process.kill(cluster.primary, "SIGCONT");
    }
    // The primary granted the three refused requests their slots once it ran again: the worker gave them back.
    for (let i = 0; i < 2; i++) expect((await worker.get(`/v1/search?q=engineer&top_k=1`)).status).toBe(200);
    await cluster.waitFor((line) => line.msg === "rate limit: the primary process answers again");
    connections.forEach((connection) => connection.close());
    await expectExactlySlotsAdmitted(cluster.url, key);
  }, 60_000);
});

test("with Redis not answering, REST and MCP (the SDK's client) are refused with 503, then served again once it answers", async () => {
  const redis: TestRedis = await startRedis();
  const t: TestServer = await startTestServer({ records: fixturePostings().slice(0, 4), env: { REDIS_URL: redis.url } });
  const mcp = await connectMcp(t.url, t.apiKey);
  const pauser = await rawClient(redis.url);
  try {
    expect((await get(t, "/v1/search?q=nurse")).status).toBe(200); // the key's last use is written now, not during the pause
    // Writes (the limiter's scripts) wait; reads (the key store's) go on. Long enough for every refusal
    // below on a busy machine: the test ends the pause itself once it has seen them.
    await pauser.send("CLIENT", ["PAUSE", "20000", "WRITE"]);
    const refused = await get(t, "/v1/search?q=nurse");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toEqual({ request_id: refused.headers.get("x-request-id"), error: UNAVAILABLE, error_code: "SERVICE_UNAVAILABLE" });
    const call = mcp.callTool({ name: "search_jobs", arguments: { query: "nurse" } });
    await expect(call).rejects.toMatchObject({ code: 503 });
    await expect(call).rejects.toThrow(UNAVAILABLE);
    const batch = await fetch(`${t.url}/mcp`, {
      method: "POST",
      headers: { "x-api-key": t.apiKey, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify([1, 2].map((id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_jobs", arguments: { query: "nurse" } } }))),
    });
    const answers = (await batch.json()) as Array<{ id: number; error?: { message: string; data: { error_code: string } } }>;
    expect(answers.map((a) => [a.id, a.error?.message, a.error?.data.error_code])).toEqual([[1, UNAVAILABLE, "SERVICE_UNAVAILABLE"], [2, UNAVAILABLE, "SERVICE_UNAVAILABLE"]]);

    await pauser.send("CLIENT", ["UNPAUSE"]);
    let status = 503;
    while (status === 503) status = (await get(t, "/v1/search?q=nurse")).status; // the limiter reconnects within a second
    expect(status).toBe(200);
    expect((await mcp.callTool({ name: "search_jobs", arguments: { query: "nurse" } })).isError).toBeFalsy();
  } finally {
    pauser.close();
    await mcp.close();
    await t.stop();
    await redis.stop();
  }
}, 60_000);

// --- helpers ---

type Entry = Record<string, unknown>;

const get = (t: TestServer, path: string) => fetch(`${t.url}${path}`, { headers: { "x-api-key": t.apiKey } });

/**
 * 12 requests of `key` whose bodies are held back, each over its own connection (spread over both
 * processes): a refused one is answered at once (429), an admitted one waits for its body. Exactly
 * SLOTS wait; once their bodies are sent they are answered 200.
 */
async function expectExactlySlotsAdmitted(url: string, key: string): Promise<void> {
  const held = await Promise.all(Array.from({ length: 12 }, () => heldSearch(url, key)));
  const refused: number[] = [];
  await new Promise<void>((resolve) => {
    held.forEach((request, i) => request.answered.then((status) => {
      refused.push(status);
      if (refused.length === 12 - SLOTS) resolve();
    }));
  });
  expect(refused).toEqual(Array(12 - SLOTS).fill(429));
  const waiting = held.filter((request) => request.status === undefined);
  expect(waiting).toHaveLength(SLOTS);
  expect(await Promise.all(waiting.map((request) => request.finish()))).toEqual(Array(SLOTS).fill(200));
}

/** POST /v1/search with its headers sent and its body held until `finish()`. */
async function heldSearch(url: string, key: string) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ q: "engineer", top_k: 1 });
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s)).on("error", reject);
  });
  let received = "";
  socket.on("data", (chunk) => (received += chunk.toString()));
  const state: { status: number | undefined; answered: Promise<number>; finish(): Promise<number> } = {
    status: undefined,
    answered: new Promise<number>((resolve) => socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(received)?.[1])))),
    finish: () => (socket.write(body), state.answered),
  };
  void state.answered.then((status) => (state.status = status));
  socket.write(`POST /v1/search HTTP/1.1\r\nHost: ${hostname}:${port}\r\ncontent-type: application/json\r\nx-api-key: ${key}\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`);
  return state;
}

/** A keep-alive connection answered by the process `pid` (new connections are tried until the kernel gives one to it). */
async function socketTo(cluster: Awaited<ReturnType<typeof startCluster>>, pid: number, key: string) {
  for (let attempt = 0; attempt < 64; attempt++) {
    const client = await keepAlive(cluster.url, key);
    const probe = await client.get("/v1/search?q=engineer&top_k=1");
    const line = await cluster.waitFor((entry) => entry.msg === "request" && entry.request_id === probe.headers["x-request-id"]);
    if (line.pid === pid) return client;
    client.close();
  }
  throw new Error(`no connection reached process ${pid}`);
}

/** One keep-alive HTTP/1.1 connection: GET requests one at a time (Bun answers with a content-length). */
async function keepAlive(url: string, key: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s)).on("error", reject);
  });
  let buffer = Buffer.alloc(0);
  let waiting: (() => void) | undefined;
  socket.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    waiting?.();
  });
  const response = async () => {
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const [statusLine, ...lines] = buffer.subarray(0, end).toString().split("\r\n");
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
        const length = Number(headers["content-length"] ?? 0);
        if (buffer.length >= end + 4 + length) {
          const body = buffer.subarray(end + 4, end + 4 + length).toString();
          buffer = buffer.subarray(end + 4 + length);
          return { status: Number(statusLine!.split(" ")[1]), headers, body };
        }
      }
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
  return {
    get(path: string) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nx-api-key: ${key}\r\n\r\n`);
      return response();
    },
    close: () => socket.destroy(),
  };
}

/** `bun server/main.ts` with SERVER_PROCESSES=2 and JSON logs, read on as they come. */
async function startCluster(dataDir: string, env: Record<string, string>) {
  const server = await spawnServer(dataDir, { SERVER_PROCESSES: "2", DEMO_DATA: "false", LOG_FORMAT: "json", LOG_LEVEL: "info", READ_CONSISTENCY_MS: "0", ...env });
  let text = server.log;
  const changed = new Set<() => void>();
  const decoder = new TextDecoder();
  const reading = (async () => {
    for await (const chunk of server.proc.stderr) {
      text += decoder.decode(chunk, { stream: true });
      for (const notify of changed) notify();
    }
  })();
  const entries = () => text.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Entry);
  return {
    url: server.ready.url as string,
    primary: server.ready.pid as number,
    workers: server.ready.workers as number[],
    /** The first log line that matches, once it is written. */
    async waitFor(match: (entry: Entry) => boolean): Promise<Entry> {
      for (;;) {
        const found = entries().find(match);
        if (found) return found;
        await new Promise<void>((resolve) => {
          const notify = () => (changed.delete(notify), resolve());
          changed.add(notify);
        });
      }
    },
    async stop() {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
      await reading;
    },
  };
}

import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { runCli, slowSearch, spawnServer, tempDir } from "../../support/helpers.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A server process over a fresh DATA_DIR with one API key, and that key. */
async function serverWithKey() {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const created = await runCli(["keys", "create", "--name", "shutdown", "--json"], { DATA_DIR: dataDir });
  expect(created.code).toBe(0);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const server = await spawnServer(dataDir, { DEMO_DATA: "false", LOG_FORMAT: "json" });
  return { server, key, url: server.ready.url as string };
}

async function restOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = "";
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += new TextDecoder().decode(chunk.value);
  return text;
}

async function exitedWithin(proc: { exited: Promise<number> }, ms: number): Promise<number | "still running"> {
  return Promise.race([proc.exited, Bun.sleep(ms).then(() => "still running" as const)]);
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} finishes the request in flight, refuses new connections and exits 0`, async () => {
    const { server, key, url } = await serverWithKey();
    // An idle keep-alive connection must not hold the shutdown up.
    const warm = await fetch(`${url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: '{"q":"nurse"}' });
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();

    const inFlight = await slowSearch(url, key);
    await Bun.sleep(100);
    const started = performance.now();
    server.proc.kill(signal);
    await Bun.sleep(300);
    expect(await exitedWithin(server.proc, 0)).toBe("still running");
    const refused = await fetch(`${url}/healthz`).then((r) => r.status, (error: Error) => error.message);
    expect(String(refused)).toMatch(/refused|connect|closed/i);

    const answer = await inFlight.finish();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ total: 0, results: [] });
    expect(await exitedWithin(server.proc, 5000)).toBe(0);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await restOf(server.proc.stderr)).toContain('"msg":"stopped"');
  }, 60_000);
}

test("a second signal exits at once, without waiting for the request in flight", async () => {
  const { server, key, url } = await serverWithKey();
  const inFlight = await slowSearch(url, key);
  // Time for the server to take the request in (on a busy machine 100 ms was sometimes too short).
  await Bun.sleep(400);
  server.proc.kill("SIGTERM");
  await Bun.sleep(300);
  expect(await exitedWithin(server.proc, 0)).toBe("still running");
  server.proc.kill("SIGINT");
  expect(await exitedWithin(server.proc, 3000)).toBe(130);
  await inFlight.closed;
}, 60_000);

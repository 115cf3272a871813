import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { holdSlots, serverLog, spawnServer, tempDir, until } from "../../support/helpers.ts";
import { createApiKey } from "../../support/stores.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A server process over a fresh DATA_DIR with one API key admitted one request in flight, and that key.
 * Its idle timeout is the longest Bun allows, so a shutdown held up by a connection would not end
 * within a test's time: a test then fails by waiting, not by a clock.
 */
async function serverWithKey() {
  const dataDir = tempDir();
  dirs.push(dataDir);
  const key = await createApiKey(dataDir, "shutdown");
  const server = await spawnServer(dataDir, { DEMO_DATA: "false", LOG_FORMAT: "json", MAX_IN_FLIGHT_PER_KEY: "1", IDLE_TIMEOUT_S: "255" });
  const url = server.ready.url as string;
  const search = (body = '{"q":"nurse"}') =>
    fetch(`${url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body });
  /** A search held in flight, inside its handler (a probe was refused for want of the key's one slot). */
  const holdOne = async () => (await holdSlots(url, key, 1, () => search().then(async (r) => ({ status: r.status, body: await r.text() }))))[0]!;
  return { server, search, holdOne, url, log: serverLog(server) };
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} finishes the request in flight, refuses new connections and exits 0`, async () => {
    const { server, search, holdOne, url, log } = await serverWithKey();
    // An idle keep-alive connection must not hold the shutdown up.
    const warm = await search();
    expect(warm.status).toBe(200);
    await warm.arrayBuffer();

    const inFlight = await holdOne();
    server.proc.kill(signal);
    await log.saying('"msg":"shutting down');
    const refused = await until(() => fetch(`${url}/healthz`).then((r) => r.status, (error: Error) => error.message), (answer) => answer !== 200);
    expect(String(refused)).toMatch(/refused|connect|closed/i);
    expect(server.proc.exitCode).toBeNull(); // the request in flight holds it

    const answer = await inFlight.finish();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ total: 0, results: [] });
    expect(await server.proc.exited).toBe(0);
    expect(await log.all()).toContain('"msg":"stopped"');
  }, 60_000);
}

test("a second signal exits at once, without waiting for the request in flight", async () => {
  const { server, holdOne, log } = await serverWithKey();
  const inFlight = await holdOne();
  server.proc.kill("SIGTERM");
  await log.saying('"msg":"shutting down');
  expect(server.proc.exitCode).toBeNull();
  server.proc.kill("SIGINT");
  // 130 is the second signal's exit; waiting for the request instead would end it with 0.
  expect(await server.proc.exited).toBe(130);
  await inFlight.closed;
}, 60_000);

/**
 * Runs the official MCP conformance suite (server-initialize, ping, tools-list) against a real
 * server. The suite cannot send headers, so a small proxy in front adds the API key.
 *   bun bench/conformance/mcp.ts            # a temp DATA_DIR with the demo data
 */
import { rmSync } from "node:fs";
import { createLogger } from "../../server/log.ts";
import { startServer } from "../../server/start.ts";
import { testConfig, tempDir } from "../../tests/support/helpers.ts";

const SCENARIOS = ["server-initialize", "ping", "tools-list"];
const dataDir = tempDir("jobsearch-conformance-");
const server = await startServer(testConfig(dataDir, { DEMO_DATA: "true" }), createLogger("error"));
const key = (await server.keys.create("conformance")).key;

const proxy = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    headers.set("x-api-key", key);
    headers.delete("host");
    return fetch(`${server.url}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer(),
    });
  },
});

let failed = 0;
for (const scenario of SCENARIOS) {
  const proc = Bun.spawn(
    ["npx", "-y", "-p", "node@22", "-p", "@modelcontextprotocol/conformance@0.1.16", "conformance", "server",
      "--url", `http://127.0.0.1:${proxy.port}/mcp`, "--scenario", scenario],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  console.log(`--- ${scenario}: exit ${code}\n${out}${err}`);
  if (code !== 0) failed++;
}
proxy.stop(true);
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
console.log(`${SCENARIOS.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

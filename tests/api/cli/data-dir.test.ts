/**
 * Local commands and the server read one configuration: DATA_DIR from the environment or from a
 * `.env` file in the folder they run in (Bun reads it for both), and every local command says on
 * stderr which data it reads. Real CLI processes and a real server, started in a folder of their own.
 */
import { afterAll, expect, test } from "bun:test";
import { realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JOBSPY_CSV, MODELS_DIR, ROOT, tempDir } from "../../support/helpers.ts";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A folder to run in, resolved (the CLI prints absolute paths), removed after the file's tests. */
function folder(): string {
  const dir = realpathSync(tempDir("jobsearch-cwd-"));
  folders.push(dir);
  return dir;
}

/** The environment without any data setting of the machine running the tests. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !["DATA_DIR", "DATA_URI", "REDIS_URL", "DEMO_DATA"].includes(name)) env[name] = value;
  return { ...env, MODELS_DIR, NO_COLOR: "1", ...extra };
}

async function cli(cwd: string, args: string[], extra: Record<string, string> = {}) {
  const proc = Bun.spawn(["bun", join(ROOT, "cli/main.ts"), ...args], { cwd, env: cleanEnv(extra), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

test("without DATA_DIR a local command says it reads the default ./data and how to share one folder with the server", async () => {
  const cwd = folder();
  const { stdout, stderr, code } = await cli(cwd, ["stats", "--json"]);
  expect(code).toBe(0);
  expect(stderr).toContain(`data: ${join(cwd, "data")} (the default ./data; set DATA_DIR, or put DATA_DIR=… in .env here, which the server reads too)`);
  expect(JSON.parse(stdout).data_dir).toBe(join(cwd, "data"));
});

test("DATA_DIR in .env: ingest, stats, keys and the server all read the same folder; the environment still wins", async () => {
  const cwd = folder();
  const data = join(cwd, "jobs-data");
  writeFileSync(join(cwd, ".env"), `DATA_DIR=${data}\nDEMO_DATA=false\n`);

  const ingest = await cli(cwd, ["ingest", JOBSPY_CSV]);
  expect(ingest.code).toBe(0);
  expect(ingest.stderr).toContain(`data: ${data} (DATA_DIR)`);
  expect(ingest.stdout).toMatch(/ingested 13 new/);
  const stats = await cli(cwd, ["stats", "--json"]);
  expect(stats.stderr).toContain(`data: ${data} (DATA_DIR)`);
  expect(JSON.parse(stats.stdout)).toMatchObject({ data_dir: data, postings: 13 });
  const keys = await cli(cwd, ["keys", "create", "--name", "dotenv", "--json"]);
  expect(keys.code).toBe(0);
  const key = (JSON.parse(keys.stdout) as { key: string }).key;

  // The server, started in the same folder without DATA_DIR, serves those postings with that key.
  const server = Bun.spawn(["bun", join(ROOT, "server/main.ts")], { cwd, env: cleanEnv({ PORT: "0", HOST: "127.0.0.1" }), stdout: "pipe", stderr: "pipe" });
  try {
    const ready = await readyLine(server.stderr);
    expect(ready.postings).toBe(13);
    const response = await fetch(`${ready.url}/v1/search`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ q: "engineer", top_k: 3 }) });
    expect(response.status).toBe(200);
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }

  const elsewhere = join(cwd, "other");
  const overridden = await cli(cwd, ["stats", "--json"], { DATA_DIR: elsewhere });
  expect(overridden.stderr).toContain(`data: ${elsewhere} (DATA_DIR)`);
  expect(JSON.parse(overridden.stdout)).toMatchObject({ data_dir: elsewhere, postings: 0 });
});

/** The server's "ready" log line, once it is written. */
async function readyLine(stream: ReadableStream<Uint8Array>): Promise<{ url: string; postings: number }> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let log = "";
  while (!log.includes('"msg":"ready"')) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the server exited before it was ready:\n${log}`);
    log += decoder.decode(value, { stream: true });
  }
  reader.releaseLock();
  return JSON.parse(log.split("\n").find((line) => line.includes('"msg":"ready"'))!);
}

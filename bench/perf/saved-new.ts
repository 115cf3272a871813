/**
 * What a saved search's check for new postings costs: `bun bench/perf/saved-new.ts`
 *
 * A server over an empty DATA_DIR with saved searches made before anything was loaded, then the
 * shared data (29.5k postings) loaded: the first check finds every posting new (the worst case: an IN
 * list of 29.5k ids, then the search over them), then a load of 100 more and a check finds those.
 * Prints the load time and each check's milliseconds (median of the saved searches).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { mkdtempSync } from "node:fs";
import { loadConfig } from "../../server/config.ts";
import { ingestFile, ingestRecords } from "../../server/ingest/ingest.ts";
import { createLogger } from "../../server/log.ts";
import { startServer } from "../../server/start.ts";
import { MODELS_DIR, ROOT } from "./suite/dataset.ts";

const SHARED = join(ROOT, "../shared/data/jobs.jsonl.gz");
const QUERIES = [{ q: "backend engineer" }, { q: "data scientist", remote: true }, { q: "nurse" }, { q: "frontend developer", country: "US" }, { q: "devops engineer" }];

const dir = mkdtempSync(join(tmpdir(), "saved-bench-"));
try {
  const config = loadConfig({ DATA_DIR: dir, PORT: "0", HOST: "127.0.0.1", MODELS_DIR, DEMO_DATA: "false", LOG_LEVEL: "error", READ_CONSISTENCY_MS: "0" });
  const server = await startServer(config, createLogger("error", () => {}));
  const key = (await server.keys.create("bench")).key;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, { method, headers: { "x-api-key": key, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return (await response.json()) as Record<string, any>;
  };
  const ids: string[] = [];
  for (const [i, params] of QUERIES.entries()) ids.push((await call("POST", "/v1/saved-searches", { name: `s${i}`, ...params })).id);
  let started = performance.now();
  const summary = await ingestFile(server, SHARED);
  console.log(`loaded ${summary.inserted} postings in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await server.store.warm();
  const check = async (label: string) => {
    const times: number[] = [];
    const found: number[] = [];
    for (const id of ids) {
      started = performance.now();
      const body = await call("GET", `/v1/saved-searches/${id}/new`);
      times.push(performance.now() - started);
      found.push(body.total);
    }
    times.sort((a, b) => a - b);
    console.log(`${label}: median ${times[Math.floor(times.length / 2)]!.toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms; new matches ${found.join(", ")}`);
  };
  await check("check, all 29.5k new");
  const records: Array<{ ref: string; value: Record<string, unknown> }> = [];
  let n = 0;
  for await (const line of (await Bun.file(SHARED).bytes().then((b) => new Response(new Blob([Bun.gunzipSync(b)])).text())).split("\n")) {
    if (!line || n >= 100) continue;
    const value = JSON.parse(line) as Record<string, unknown>;
    records.push({ ref: `b${n}`, value: { ...value, id: `bench-new-${n}`, job_url: `${value.job_url}#bench-${n++}` } });
  }
  await ingestRecords(server, records);
  await check("check after 100 more");
  await check("check, nothing new");
  await server.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

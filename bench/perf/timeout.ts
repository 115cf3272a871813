/**
 * How late a timed-out search answers. `bun bench/perf/timeout.ts [--timeout-ms 30] [--requests 40] [--step 10]`
 *
 * Two servers on every `step`-th shared posting with SEARCH_TIMEOUT_MS set low, one answering from
 * the in-memory copy and one from LanceDB (HOT_PATH_MAX_POSTINGS below the table); expensive searches
 * (deep pages, every facet, full detail) one after another. Prints, per engine, the 503s and how long
 * after the deadline each arrived (p50, p90, max): the target is within 50 ms. Figures vary with the
 * machine's load (other processes delay the timer as they delay everything).
 */
import { parseArgs } from "node:util";
import { FACET_NAMES } from "../../shared/search.ts";
import { samplePostings, startEnginePair } from "../../tests/support/engine-diff.ts";
import { percentile, round } from "./suite/stats.ts";

const { values } = parseArgs({ options: { "timeout-ms": { type: "string", default: "30" }, requests: { type: "string", default: "40" }, step: { type: "string", default: "10" } } });
const timeoutMs = Number(values["timeout-ms"]);
const BODIES = [
  { q: "software engineer", top_k: 100, offset: 900, facets: [...FACET_NAMES], detail: "full" },
  { q: "remote senior python developer in Berlin full-time", top_k: 100, offset: 900, facets: [...FACET_NAMES] },
  { q: "nurse", top_k: 100, offset: 900, detail: "full", collapse: false },
  { q: "manager", top_k: 100, offset: 400, facets: ["tags", "city"], sort: "relevance" },
];

const pair = await startEnginePair(await samplePostings(Number(values.step)), { SEARCH_TIMEOUT_MS: String(timeoutMs) });
try {
  for (const [engine, server] of [["memory", pair.memory], ["lancedb", pair.lance]] as const) {
    const late: number[] = [];
    let answered = 0;
    for (let i = 0; i < Number(values.requests); i++) {
      const body = BODIES[i % BODIES.length]!;
      const started = performance.now();
      const response = await fetch(`${server.url}/v1/search`, {
        method: "POST", headers: { "x-api-key": server.apiKey, "content-type": "application/json" }, body: JSON.stringify({ ...body, q: `${body.q} ${i}` }),
      });
      await response.arrayBuffer();
      if (response.status === 503) late.push(performance.now() - started - timeoutMs);
      else answered++;
    }
    late.sort((a, b) => a - b);
    const figure = (p: number) => (late.length === 0 ? "-" : `${round(percentile(late, p), 1)} ms`);
    console.log(`${engine}: ${late.length} answered 503, ${answered} in time; lateness p50 ${figure(50)}, p90 ${figure(90)}, max ${figure(100)} (target ≤ 50 ms)`);
  }
} finally {
  await pair.stop();
}

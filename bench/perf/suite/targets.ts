import type { MeasuredLoad, MixResult } from "./mix-run.ts";
import type { ScaleResult } from "../scale/scale.ts";
import type { ColdStart } from "./server.ts";

/** Issue 17: uncached search at ten times the throughput of its day (113 req/s, p99 270 ms at c16). */
export const SCALING_TARGETS = {
  cpuMsPerSearch: 1.5,
  uncachedRps: 1000,
  uncachedP99Ms: 30,
  coldStartMs: 500,
  scale: { postings: 1_000_000, p50Ms: 20, recall: 0.95, indexSeconds: 120 },
};

/** What the mix is and its two runs (cache off, cache on), as table rows without targets. */
export function mixRows(m: MixResult): string[][] {
  const u = m.uncached;
  const c = m.cached;
  return [
    [
      `Mix: ${int(m.bodies)} distinct search bodies (${pct(m.filtered)} filtered, top_k 10–50, deep pages, some detail=full)`,
      `${int(m.checked)} checked: all 200, ${int(m.empty)} without results`,
      "",
      "",
    ],
    ...[
      [m.uncachedOneProcess, 1],
      [u, 2],
    ].map(([run, processes]) => {
      const r = run as MeasuredLoad;
      return [
        `Mix, result cache off (SEARCH_CACHE_MB=0), concurrency ${r.connections}, ${processes} server process${processes === 1 ? "" : "es"}`,
        `${int(r.rps)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, ${int(r.non200)} non-200 of ${int(r.requests)}${repeats(r.requests, m.bodies)}; ` +
          `server CPU ${ms(r.cpuMsPerSearch, 2)}/search (${int(r.cpuMs)} ms over ${int(r.searches)} searches)` +
          (processes === 2 ? `; ×${(r.rps / m.uncachedOneProcess.rps).toFixed(2)} the throughput of one` : ""),
        "",
        "",
      ];
    }),
    [
      `Mix, result cache on (default), concurrency ${c.connections}, from an empty cache`,
      `${int(c.rps)} req/s, p50 ${ms(c.p50)}, p99 ${ms(c.p99)}, ${int(c.non200)} non-200; hit rate ${pct(c.hitRate)} (${int(c.hits)} of ${int(c.hits + c.misses)} lookups)`,
      "",
      "",
    ],
  ];
}

/** Issue 17's targets, each with the figure and ✓/✗; the 1M-row rows only when a scale run was measured. */
export function scalingTargetRows(r: { coldStart: ColdStart; mix?: MixResult; scale?: ScaleResult }): string[][] {
  const t = SCALING_TARGETS;
  const rows: string[][] = [];
  if (r.mix) {
    const u = r.mix.uncached;
    const clean = u.non200 === 0 && u.socketErrors === 0;
    rows.push(
      [`Issue 17: uncached server CPU per search (mix, c16, 2 processes)`, `**${ms(u.cpuMsPerSearch, 2)}**`, `≤ ${t.cpuMsPerSearch} ms`, mark(u.cpuMsPerSearch <= t.cpuMsPerSearch)],
      [`Issue 17: uncached throughput (mix, c16, 2 processes)`, `**${int(u.rps)} req/s**, ${int(u.non200)} non-200`, `≥ ${int(t.uncachedRps)} req/s, 0 non-200`, mark(u.rps >= t.uncachedRps && clean)],
      [`Issue 17: uncached p99 (mix, c16, 2 processes)`, `**${ms(u.p99)}**`, `≤ ${t.uncachedP99Ms} ms`, mark(u.p99 <= t.uncachedP99Ms)],
    );
  }
  const cold = r.coldStart.firstAnswerMs;
  rows.push([`Issue 17: cold start, spawn → first 200 (median of ${r.coldStart.runs.length})`, `**${Math.round(cold)} ms**`, `≤ ${t.coldStartMs} ms`, mark(cold <= t.coldStartMs)]);
  if (r.scale) {
    const s = r.scale;
    const what = `${s.set}; ${s.indexType}`;
    const at = s.postings === t.scale.postings ? `1M rows (${what})` : `1M rows (measured at ${int(s.postings)}, ${what})`;
    const { none, filtered, recall, recallFiltered } = s.nearest;
    rows.push(
      [`Issue 17: ${at}, p50 unfiltered`, `**${ms(none.p50)}**`, `≤ ${t.scale.p50Ms} ms`, mark(none.p50 <= t.scale.p50Ms)],
      [`Issue 17: ${at}, p50 filtered`, `**${ms(filtered.p50)}**`, `≤ ${t.scale.p50Ms} ms`, mark(filtered.p50 <= t.scale.p50Ms)],
      [`Issue 17: ${at}, recall@20 unfiltered / filtered`, `**${recall.toFixed(3)} / ${recallFiltered.toFixed(3)}**`, `≥ ${t.scale.recall}`, mark(Math.min(recall, recallFiltered) >= t.scale.recall)],
      [`Issue 17: ${at}, index build`, `**${s.indexSeconds.toFixed(1)} s**`, `≤ ${t.scale.indexSeconds} s`, mark(s.indexSeconds <= t.scale.indexSeconds)],
    );
    if (s.memory) {
      const m = s.memory;
      rows.push([
        `Issue 17: ${at}, server memory after start / after searches (bound: empty + bytes/posting × postings)`,
        `**${int(m.afterStartMb)} / ${int(m.afterQueriesMb)} MB** (${int(m.emptyMb)} MB + ${int(m.bytesPerPosting)} B × ${int(s.postings)})`,
        "reported",
        "✓",
      ]);
    }
  }
  return rows;
}

// --- internal ---

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number, digits = 1) => `${n.toFixed(digits)} ms`;
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");

/** Says so when a run sent more requests than there are bodies (then some bodies came twice). */
function repeats(requests: number, bodies: number): string {
  return requests > bodies ? ` (more requests than bodies: some repeated)` : "";
}

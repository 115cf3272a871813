import type { IngestRun } from "./dataset.ts";
import type { EngineResult } from "./engine.ts";
import type { LoadResult } from "./load.ts";
import type { ColdStart } from "./server.ts";

export interface BenchResults {
  ingest?: IngestRun;
  coldStart: ColdStart;
  engine: EngineResult;
  /** The request mix repeats, so most searches are answered from the result cache. */
  http: LoadResult[];
  /** The same load with the result cache off: every request runs a search. */
  httpUncached: LoadResult[];
  mcp?: LoadResult;
  memory: { afterStartMb: number; afterWarmupMb: number; peakUnderLoadMb?: number };
  notes: string[];
}

/** The targets of issue 6, checked against the figures. */
export const TARGETS = {
  ingestPerSecond: 1000,
  coldStartMs: 1000,
  rest16: { rps: 1000, p99Ms: 30 },
};

/** One markdown table: what, figure, target, ✓/✗. */
export function formatTable(r: BenchResults): string {
  const rows: string[][] = [];
  if (r.ingest) {
    const i = r.ingest;
    rows.push([
      `Ingest ${int(i.inserted + i.updated + i.skipped)} postings, empty DATA_DIR (CLI)`,
      `**${int(i.rate)} postings/s** (${i.seconds.toFixed(1)} s; ${i.wallSeconds.toFixed(1)} s wall incl. process start)`,
      `≥ ${int(TARGETS.ingestPerSecond)}/s`,
      mark(i.rate >= TARGETS.ingestPerSecond),
    ]);
  }
  const c = r.coldStart;
  rows.push([
    `Cold start: spawn → first 200 POST /v1/search (median of ${c.runs.length})`,
    `**${(c.firstAnswerMs / 1000).toFixed(2)} s** (runs ${c.runs.map((x) => Math.round(x.firstAnswerMs)).join(" / ")} ms)`,
    `≤ ${TARGETS.coldStartMs / 1000} s`,
    mark(c.firstAnswerMs <= TARGETS.coldStartMs),
  ]);
  rows.push([`Server's own start → "ready" (log, median)`, `${Math.round(c.readyMs)} ms`, "", ""]);
  for (const e of r.engine.cases) {
    rows.push([`Engine in-process: ${e.name}`, `p50 ${ms(e.p50)}, p99 ${ms(e.p99)}`, "", ""]);
  }
  const loads = [...r.http.map((h) => ({ h, what: "repeated mix (result cache)" })), ...r.httpUncached.map((h) => ({ h, what: "cache off: every request searches" }))];
  for (const { h, what } of loads) {
    const target = h.connections === 16;
    const ok = h.rps >= TARGETS.rest16.rps && h.p99 <= TARGETS.rest16.p99Ms && h.non200 === 0 && h.socketErrors === 0;
    rows.push([
      `POST /v1/search, ${what}, concurrency ${h.connections}`,
      `${bold(int(h.rps), target)} req/s, p50 ${ms(h.p50)}, p99 ${bold(ms(h.p99), target)}, ${failures(h)}`,
      target ? `≥ ${int(TARGETS.rest16.rps)} req/s, p99 ≤ ${TARGETS.rest16.p99Ms} ms, 0 non-200` : "",
      target ? mark(ok) : "",
    ]);
  }
  if (r.mcp) {
    const m = r.mcp;
    rows.push([`POST /mcp tools/call search_jobs, repeated mix, concurrency ${m.connections}`, `${int(m.rps)} req/s, p50 ${ms(m.p50)}, p99 ${ms(m.p99)}, ${failures(m)}`, "", ""]);
  }
  const mem = r.memory;
  rows.push([`Server RSS after start / after warm-up`, `${int(mem.afterStartMb)} MB / ${int(mem.afterWarmupMb)} MB`, "", ""]);
  if (mem.peakUnderLoadMb !== undefined) rows.push([`Server RSS peak under load`, `${int(mem.peakUnderLoadMb)} MB`, "", ""]);

  const lines = ["| What | Figure | Target | |", "|---|---|---|---|", ...rows.map((row) => `| ${row.join(" | ")} |`)];
  return [lines.join("\n"), ...r.notes.map((n) => `\n- ${n}`)].join("");
}

// --- internal ---

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
const mark = (ok: boolean) => (ok ? "✓" : "✗");
const bold = (text: string, on: boolean) => (on ? `**${text}**` : text);

function failures(r: LoadResult): string {
  const errors = r.socketErrors > 0 ? `, ${int(r.socketErrors)} socket errors` : "";
  return `${int(r.non200)} non-200 of ${int(r.requests)}${errors}`;
}

/**
 * `bun run eval --set broad`: the broad judged sets (sets/broad-a.ts and sets/broad-b.ts with their frozen
 * held-out halves), each query kind in bm25, default, and default with understand=false
 * (evaluate.ts's "hybrid": the default retrieval on the words as typed). Per set, kind and mode: P@10 of
 * the own part and of the held-out part, the gap (held-out minus own), and the "wrong no close match"
 * count: queries whose top 10 is at least half relevant while the best score is under PLAUSIBLE_SCORE
 * (the service would say "no close match" over a good page). Writes bench/results/eval-broad.json.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PLAUSIBLE_SCORE } from "../../shared/search.ts";
import { openEvalData } from "./dataset.ts";
import { K, countRelevant, evaluateMode, type CountedQuery, type EvalMode, type QueryOutcome } from "./evaluate.ts";
import { checkJudge } from "./judge.ts";
import { mean } from "./metrics.ts";
import { markdownTable, showRegex } from "./report.ts";
import { BROAD_A } from "./sets/broad-a.ts";
import { BROAD_A_HELD_OUT } from "./sets/broad-a-held-out.ts";
import { BROAD_B } from "./sets/broad-b.ts";
import { BROAD_B_HELD_OUT } from "./sets/broad-b-held-out.ts";
import type { JudgedQuery } from "./sets/queries.ts";

const RESULTS = resolve(import.meta.dir, "../results/eval-broad.json");
/** bm25 alone, the service by default, and the service with understand=false (hybrid on the words as typed). */
export const BROAD_MODES: readonly EvalMode[] = ["bm25", "default", "hybrid"];
const MODE_LABELS: Record<EvalMode, string> = { bm25: "bm25", vector: "vector", hybrid: "default, understand=false", default: "default" };
/** The judged sets have at least this many relevant postings per query. */
const FEW_RELEVANT = 10;

type Part = "own" | "held-out";

interface BroadQuery extends JudgedQuery {
  set: string;
  part: Part;
  label: string;
}

interface Cell {
  queries: number;
  precision: number;
  wrongNoCloseMatch: number;
}

interface Row {
  set: string;
  kind: string;
  mode: string;
  own: Cell;
  heldOut: Cell;
  gap: number;
}

/** Evaluates the broad sets and prints the table; `modes` narrows BROAD_MODES (--mode). */
export async function runBroad(options: { rebuild: boolean; rounds: number; modes?: EvalMode[] }): Promise<void> {
  const judged = loadBroadSets();
  judged.forEach(checkJudge);
  const modes = options.modes ?? [...BROAD_MODES];
  const data = await openEvalData(Bun.env, { rebuild: options.rebuild });
  const deps = { store: data.store, embedder: data.embedder };
  try {
    const queries = countRelevant(judged, data.records) as Array<CountedQuery & BroadQuery>;
    for (const query of queries.filter((q) => q.relevantInData < FEW_RELEVANT)) {
      console.error(`warning: set ${query.set} "${query.query}" has only ${query.relevantInData} relevant postings in the data`);
    }
    const byUrl = new Map(data.records.map((record) => [record.job_url, record]));
    const outcomes = new Map<EvalMode, QueryOutcome[]>();
    for (const mode of modes) {
      console.error(`evaluating ${mode}: ${queries.length} broad queries, ${options.rounds} timed passes after a warm-up`);
      outcomes.set(mode, (await evaluateMode(deps, mode, queries, options.rounds, byUrl)).queries);
    }
    const rows = summarize(queries, outcomes);
    const postings = await data.store.count();
    console.log(`## Relevance, broad sets: ${queries.length} judged queries (${partCounts(queries)}), ${postings} postings, model ${data.embedder.modelId}, top ${K}\n`);
    console.log(`${broadTable(rows)}\n`);
    console.log(`gap = held-out P@10 minus own P@10; wrong no close match = queries (own / held-out) with P@10 >= 0.5 whose best score is under ${PLAUSIBLE_SCORE}`);
    const served = outcomes.get("default");
    if (served) console.log(`\n${calibrationTable(queries, served)}`);
    await writeBroadResults(queries, outcomes, rows, { postings, model: data.embedder.modelId, dataDir: data.dataDir, rounds: options.rounds });
    console.log(`\nwritten to ${RESULTS}`);
  } finally {
    data.store.close();
  }
}

/**
 * A query's kind as reported: a constraint query whose role judge accepts any text is condition-only,
 * a paraphrase of two or more sentences is conversational; any other kind keeps its name.
 */
export function broadKind(query: JudgedQuery): string {
  if (query.kind === "constraint") return query.relevant.test("") ? "condition-only" : "stated constraint";
  if (query.kind === "paraphrase" && (query.query.match(/[.?!](\s|$)|[。？！]/g) ?? []).length >= 2) return "conversational";
  return query.kind;
}

// --- internal ---

/** Set B always; set A (another helper's) only when its files exist, so this works without them. */
function loadBroadSets(): BroadQuery[] {
  const tag = (set: string, part: Part, queries: JudgedQuery[]) => queries.map((query) => ({ ...query, set, part, label: broadKind(query) }));
  return [...tag("A", "own", BROAD_A), ...tag("A", "held-out", BROAD_A_HELD_OUT), ...tag("B", "own", BROAD_B), ...tag("B", "held-out", BROAD_B_HELD_OUT)];
}

function summarize(queries: BroadQuery[], outcomes: Map<EvalMode, QueryOutcome[]>): Row[] {
  const groups = [...new Set(queries.map((q) => `${q.set}\u0000${q.label}`))].map((key) => key.split("\u0000") as [string, string]);
  const rows: Row[] = [];
  for (const [set, kind] of groups) {
    for (const [mode, results] of outcomes) {
      const cell = (part: Part): Cell => {
        const picked = results.filter((_, i) => queries[i]!.set === set && queries[i]!.label === kind && queries[i]!.part === part);
        return { queries: picked.length, precision: mean(picked.map((o) => o.precision)), wrongNoCloseMatch: picked.filter(wrongNoCloseMatch).length };
      };
      const own = cell("own");
      const heldOut = cell("held-out");
      rows.push({ set, kind, mode: MODE_LABELS[mode], own, heldOut, gap: heldOut.precision - own.precision });
    }
  }
  return rows;
}

/** At least half the page relevant, yet the best result scores under the plausible-match threshold. */
function wrongNoCloseMatch(outcome: QueryOutcome): boolean {
  return outcome.precision >= 0.5 && bestScore(outcome) < PLAUSIBLE_SCORE;
}

function bestScore(outcome: QueryOutcome): number {
  return outcome.ranked.length === 0 ? Number.NaN : Math.max(...outcome.ranked.map((r) => r.score));
}

/**
 * How far the default mode's score can be trusted, per part, over every query's top 10: the relevant
 * results scored at least PLAUSIBLE_SCORE, the results scored so that are relevant, and the wrong
 * "no close match" pages.
 */
function calibrationTable(queries: BroadQuery[], results: QueryOutcome[]): string {
  const row = (part: Part) => {
    const picked = results.filter((_, i) => queries[i]!.part === part);
    const shown = picked.flatMap((o) => o.ranked.slice(0, K));
    const relevant = shown.filter((r) => r.relevant);
    const plausible = shown.filter((r) => r.score >= PLAUSIBLE_SCORE);
    const share = (n: number, of: number) => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)}% of ${of}`);
    return [part, share(relevant.filter((r) => r.score >= PLAUSIBLE_SCORE).length, relevant.length), share(plausible.filter((r) => r.relevant).length, plausible.length), String(picked.filter(wrongNoCloseMatch).length)];
  };
  const header = ["part", `relevant results scored >= ${PLAUSIBLE_SCORE}`, `results scored >= ${PLAUSIBLE_SCORE} that are relevant`, "wrong no close match"];
  return markdownTable(header, [row("own"), row("held-out")]);
}

function broadTable(rows: Row[]): string {
  const header = ["set", "kind", "mode", "queries (own/held-out)", "own P@10", "held-out P@10", "gap", "wrong no close match (own/held-out)"];
  return markdownTable(header, rows.map((row) => [
    row.set, row.kind, row.mode,
    `${row.own.queries}/${row.heldOut.queries}`,
    fixed(row.own.precision), fixed(row.heldOut.precision), signed(row.gap),
    `${row.own.wrongNoCloseMatch}/${row.heldOut.wrongNoCloseMatch}`,
  ]));
}

function partCounts(queries: BroadQuery[]): string {
  const sets = [...new Set(queries.map((q) => q.set))];
  return sets.map((set) => {
    const of = (part: Part) => queries.filter((q) => q.set === set && q.part === part).length;
    return `set ${set}: ${of("own")} own, ${of("held-out")} held-out`;
  }).join("; ");
}

async function writeBroadResults(
  queries: Array<CountedQuery & BroadQuery>, outcomes: Map<EvalMode, QueryOutcome[]>, rows: Row[],
  meta: { postings: number; model: string; dataDir: string; rounds: number },
): Promise<void> {
  mkdirSync(dirname(RESULTS), { recursive: true });
  const report = {
    generated_at: new Date().toISOString(),
    data_dir: meta.dataDir,
    postings: meta.postings,
    model: meta.model,
    k: K,
    rounds: meta.rounds,
    plausible_score: PLAUSIBLE_SCORE,
    summary: rows,
    queries: queries.map((query, i) => ({
      set: query.set,
      part: query.part,
      kind: query.label,
      query: query.query,
      judge: showRegex(query.relevant),
      fields: query.fields ? JSON.parse(JSON.stringify(query.fields, (_, v) => (v instanceof RegExp ? showRegex(v) : v))) : undefined,
      matching_filters: query.matchingFilters,
      relevant_in_data: query.relevantInData,
      modes: Object.fromEntries([...outcomes].map(([mode, results]) => {
        const outcome = results[i]!;
        // The page itself only for the own part: the held-out part is never looked at.
        const page = query.part === "own" ? outcome.ranked.slice(0, K).map((r) => `${r.relevant ? "+" : "-"} ${r.score.toFixed(2)} ${r.job_title} | ${r.city}`) : undefined;
        return [MODE_LABELS[mode], { precision: outcome.precision, ndcg: outcome.ndcg, best_score: bestScore(outcome), wrong_no_close_match: wrongNoCloseMatch(outcome), page }];
      })),
    })),
  };
  await Bun.write(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
}

function fixed(value: number): string {
  return Number.isNaN(value) ? "–" : value.toFixed(3);
}

function signed(value: number): string {
  return Number.isNaN(value) ? "–" : `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;
}

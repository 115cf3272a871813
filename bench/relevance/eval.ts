/**
 * Relevance evaluation: the judged queries of bench/relevance/sets/queries.ts over the 29,513 shared postings,
 * in each retrieval mode (bm25, vector, hybrid). Prints P@10 / nDCG@10 per query kind and latency per mode,
 * then P@10 per query, and writes everything to bench/results/eval.json.
 *   bun run eval                      all modes (the first run ingests ../shared/data into bench/.data/eval, ~20 s)
 *   bun run eval --mode hybrid        one mode
 *   bun run eval --query 12           one query (number as printed): its judged top 10 in each mode
 *   DATA_DIR=/tmp/jobs bun run eval   use a DATA_DIR that already holds the shared postings
 *   bun run eval --rebuild            rebuild bench/.data/eval (it is also rebuilt when the ingest code changes)
 *   bun run eval --set broad          the broad sets instead (broad.ts): P@10 of own and held-out parts per kind and mode
 *   bun run eval --set similar        similar jobs instead (similar.ts): the share of the top 10 of the posting's occupation
 *   bun run eval --set match          judged profiles instead (match/run.ts): P@10 of bm25, search and match per part and style
 *   bun run eval --set clusters       same-job pairs instead (clusters/run.ts): precision and recall of own and held-out halves
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { openEvalData } from "./dataset.ts";
import { K, MODES, countRelevant, evaluateMode, type CountedQuery, type EvalMode, type ModeOutcome } from "./evaluate.ts";
import { checkJudge } from "./judge.ts";
import { CONSTRAINT_QUERIES, FRESH_TYPO_QUERIES, TYPO_QUERIES } from "./sets/constraint-queries.ts";
import { QUERIES as FIRST_SET } from "./sets/queries.ts";
import { ABSENT_QUERIES, absentFromTitles } from "./sets/absent-queries.ts";
import { calibrationTable, evaluateAbsent } from "./calibration.ts";
import { describeFilters, perQueryTable, queryDetail, showRegex, summaryTable } from "./report.ts";

const RESULTS = resolve(import.meta.dir, "../results/eval.json");
/** The first judged set (the ranking weights are fitted on it), then the constraint and misspelled sets (never fitted on). */
const QUERIES = [...FIRST_SET, ...CONSTRAINT_QUERIES, ...TYPO_QUERIES, ...FRESH_TYPO_QUERIES];
/** Fewer relevant postings than this make P@10 of a query depend on a handful of postings. */
const FEW_RELEVANT = 15;

const USAGE = "usage: bun run eval [--mode bm25|vector|hybrid] [--query N] [--rounds N (timed passes, default 3)] [--rebuild] [--set broad|similar|match (--mode bm25|search|match)|clusters]";
const args = readArgs();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (args.set === "clusters") {
  const { runClusters } = await import("./clusters/run.ts");
  await runClusters({ verbose: args.query === "wrong" });
  process.exit(0);
}
if (args.set === "match") {
  const { runMatch } = await import("./match/run.ts");
  await runMatch({ rebuild: args.rebuild!, modes: args.mode === undefined ? undefined : [matchMode(args.mode)] });
  process.exit(0);
}
const modes = selectModes(args.mode);
const rounds = positiveInteger("--rounds", args.rounds!);
if (args.set !== undefined) {
  if (args.set === "similar") {
    const { runSimilar } = await import("./similar.ts");
    await runSimilar({ rebuild: args.rebuild! });
    process.exit(0);
  }
  if (args.set !== "broad") fail("--set must be broad, similar, match or clusters");
  const { runBroad } = await import("./broad.ts");
  await runBroad({ rebuild: args.rebuild!, rounds, modes: args.mode === undefined ? undefined : modes });
  process.exit(0);
}
const only = args.query === undefined ? undefined : positiveInteger("--query", args.query);
if (only !== undefined && only > QUERIES.length) fail(`--query must be 1..${QUERIES.length}`);
QUERIES.forEach(checkJudge);

const data = await openEvalData(Bun.env, { rebuild: args.rebuild });
const deps = { store: data.store, embedder: data.embedder };
try {
  const queries = countRelevant(QUERIES, data.records);
  const byUrl = new Map(data.records.map((record) => [record.job_url, record]));
  if (only !== undefined) {
    const query = queries[only - 1]!;
    for (const mode of modes) {
      const outcome = await evaluateMode(deps, mode, [query], 1, byUrl);
      console.log(`${queryDetail(query, outcome.queries[0]!, mode)}\n`);
    }
  } else {
    for (const query of queries.filter((q) => q.relevantInData < FEW_RELEVANT)) {
      console.error(`warning: #${query.number} "${query.query}" has only ${query.relevantInData} relevant postings in the data`);
    }
    const outcomes: ModeOutcome[] = [];
    for (const mode of modes) {
      console.error(`evaluating ${mode}: ${queries.length} queries, ${rounds} timed passes after a warm-up`);
      outcomes.push(await evaluateMode(deps, mode, queries, rounds, byUrl));
    }
    const postings = await data.store.count();
    console.log(`## Relevance: ${queries.length} judged queries, ${postings} postings, model ${data.embedder.modelId}, top ${K}\n`);
    console.log(`${summaryTable(outcomes)}\n`);
    for (const note of sameAsVector(outcomes)) console.log(note);
    const calibration = await scoreCalibration(queries, outcomes);
    if (calibration) console.log(`\n### Score calibration (default mode, top ${K})\n\n${calibration}`);
    console.log(`\n### Per query (P@10; base = share of relevant postings among those the filters allow)\n`);
    console.log(perQueryTable(queries, outcomes));
    await writeResults(queries, outcomes, postings);
    console.log(`\nwritten to ${RESULTS}`);
  }
} finally {
  data.store.close();
}

// --- internal ---

function readArgs() {
  try {
    return parseArgs({
      args: Bun.argv.slice(2),
      options: {
        mode: { type: "string" },
        query: { type: "string" },
        rounds: { type: "string", default: "3" },
        rebuild: { type: "boolean", default: false },
        set: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    }).values;
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : error}\n${USAGE}`);
  }
}

function selectModes(mode: string | undefined): EvalMode[] {
  if (mode === undefined) return [...MODES];
  if (!(MODES as readonly string[]).includes(mode)) fail(`--mode must be one of: ${MODES.join(", ")}`);
  return [mode as EvalMode];
}

function matchMode(mode: string): "bm25" | "search" | "match" {
  if (mode !== "bm25" && mode !== "search" && mode !== "match") fail("--mode with --set match must be one of: bm25, search, match");
  return mode;
}

function positiveInteger(name: string, value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) fail(`${name} must be a positive integer`);
  return parsed;
}

function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

/** Until BM25 and hybrid land, those modes fall back to vector search; say so rather than let it pass for a result. */
function sameAsVector(outcomes: ModeOutcome[]): string[] {
  const vector = outcomes.find((outcome) => outcome.mode === "vector");
  if (!vector) return [];
  const pages = (outcome: ModeOutcome) => JSON.stringify(outcome.queries.map((q) => q.ranked));
  return outcomes
    .filter((outcome) => outcome.mode !== "vector" && pages(outcome) === pages(vector))
    .map((outcome) => `note: ${outcome.mode} returned exactly the pages of vector for every query (not implemented yet?)`);
}

/** The calibration table of the default mode (absent occupations, scores of the judged queries), if it ran. */
async function scoreCalibration(queries: CountedQuery[], outcomes: ModeOutcome[]): Promise<string | undefined> {
  const outcome = outcomes.find((o) => o.mode === "default");
  if (!outcome) return undefined;
  const { absent, present } = absentFromTitles(ABSENT_QUERIES, data.records.map((record) => record.job_title ?? ""));
  for (const name of present) console.error(`note: "${name}" is left out of the absent occupations: a title of the data matches it`);
  const results = await evaluateAbsent(deps, absent);
  const worst = results.filter((r) => r.best >= 0.5).map((r) => `"${r.query}" ${r.best.toFixed(3)}${r.heldOut ? " (held-out)" : ""}`);
  return `${calibrationTable(results, queries, outcome)}\n${worst.length > 0 ? `\nabsent occupations scoring >= 0.5: ${worst.join(", ")}\n` : ""}`;
}

async function writeResults(queries: CountedQuery[], outcomes: ModeOutcome[], postings: number): Promise<void> {
  mkdirSync(dirname(RESULTS), { recursive: true });
  const report = {
    generated_at: new Date().toISOString(),
    data_dir: data.dataDir,
    postings,
    model: data.embedder.modelId,
    k: K,
    rounds,
    modes: outcomes.map(({ queries: _, ...summary }) => summary),
    queries: queries.map((query, i) => ({
      number: query.number,
      kind: query.kind,
      query: query.query,
      filters: describeFilters(query.filters),
      judge: showRegex(query.relevant),
      ...(query.tags ? { tags: showRegex(query.tags) } : {}),
      matching_filters: query.matchingFilters,
      relevant_in_data: query.relevantInData,
      modes: Object.fromEntries(outcomes.map((outcome) => [outcome.mode, outcome.queries[i]])),
    })),
  };
  await Bun.write(RESULTS, `${JSON.stringify(report, null, 2)}\n`);
}

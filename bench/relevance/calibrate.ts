/**
 * Fits the hybrid ranking weights (server/rank/) on the judged queries: logistic
 * regression of "judged relevant" on each candidate's features, over every candidate of every
 * query. Reports 2-fold cross-validated P@10 (fit on half the queries, measured on the other
 * half) so the figure is not the fit's own training set, then the weights fitted on all queries;
 * `--write` puts them (and the first pass's, fitted without the feedback features) into
 * server/rank/weights.json, which the ranker reads, with the KNOWLEDGE_FINGERPRINT they
 * were fitted on. Then the score model: "relevant" over the fused score and the posting's own
 * evidence (SCORE_FEATURES), fitted on the same candidates, on those of the absent occupations'
 * tuning part (all irrelevant), so that the score means the same whether or not the data holds the
 * job (bench/relevance/sets/absent-queries.ts), and on the broad sets' own parts as the service
 * answers them (never their held-out parts).
 * `--keep-ranking` fits the score model alone, on the order weights.json already gives.
 *   bun bench/relevance/calibrate.ts [--keep-ranking] [--write]
 */
import { rankCandidates } from "../../server/search/candidates.ts";
import type { Ranked } from "../../server/rank/rank.ts";
import { understandQuery } from "../../server/understand/understand.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { KNOWLEDGE_FINGERPRINT } from "../../server/knowledge/knowledge.ts";
import { FEATURE_NAMES, FIRST_PASS_NAMES } from "../../server/rank/features.ts";
import { SCORE_FEATURES } from "../../server/rank/score.ts";
import FITTED from "../../server/rank/weights.json" with { type: "json" };
import { ABSENT_QUERIES, absentFromTitles } from "./sets/absent-queries.ts";
import { openEvalData } from "./dataset.ts";
import { isRelevant } from "./judge.ts";
import { scoreFigures } from "./metrics.ts";
import { QUERIES, type JudgedQuery } from "./sets/queries.ts";
import { BROAD_A } from "./sets/broad-a.ts";
import { BROAD_B } from "./sets/broad-b.ts";
import { broadKind } from "./broad.ts";
import { understandRequest } from "../../server/search/echo.ts";
import { parseSearchRequest, type SearchRequest } from "../../shared/search.ts";

const NAMES = FEATURE_NAMES;
/** `--keep-ranking`: the order stays as weights.json has it (firstPass, full); only the score model is fitted. */
const KEEP_RANKING = process.argv.includes("--keep-ranking");
/** Query numbers of the broad own parts start here (after the first set's and the absent occupations'). */
const BROAD_OFFSET = 10_000;
const BROAD_OWN = [...BROAD_A, ...BROAD_B];
/** How much a broad query's candidate counts in the score model beside a first-set one. */
const BROAD_WEIGHT = Number(Bun.env.BROAD_WEIGHT ?? 0.5);

/** `weight`: how much the sample counts in the fit (1 unless said). */
type Sample = { query: number; x: number[]; y: number; weight?: number; absent?: boolean };

const data = await openEvalData(Bun.env);
const deps = { store: data.store, embedder: data.embedder };
/** The candidates of the query's words as typed (no condition read), as the weights were fitted. */
const rankAsTyped = (searched: SearchRequest) => rankCandidates(deps, searched, understandQuery(searched.query, searched.filters));
const samples: Sample[] = [];
for (const [index, judged] of QUERIES.entries()) {
  const ranked = await rankAsTyped(request(judged));
  for (const candidate of ranked) samples.push({ query: index, x: vector(candidate), y: isRelevant(judged, candidate.row) ? 1 : 0 });
}
console.log(`${samples.length} candidates of ${QUERIES.length} queries, ${samples.filter((s) => s.y).length} judged relevant`);

const folds = [0, 1].map((fold) => {
  const train = samples.filter((s) => s.query % 2 !== fold);
  const test = samples.filter((s) => s.query % 2 === fold);
  return { lr: precisionAt10(test, fit(train)), tuned: precisionAt10(test, tune(train, fit(train))) };
});
console.log(`2-fold cross-validated P@10, logistic fit: ${JSON.stringify(mergeFolds(folds.map((f) => f.lr)))}`);
console.log(`2-fold cross-validated P@10, tuned for P@10: ${JSON.stringify(mergeFolds(folds.map((f) => f.tuned)))}`);
// Tuning for P@10 wins in-sample but loses cross-validated (it fits the queries, not relevance):
// the logistic fit on all queries is what server/rank/score.ts uses, and it is calibrated as it stands.
const weights = KEEP_RANKING ? [FITTED.full.bias, ...NAMES.map((name) => FITTED.full[name])] : fit(samples);
console.log(`in-sample P@10 by kind: ${JSON.stringify(mergeFolds([precisionAt10(samples, weights)]))}`);
console.log("weights (bias first):", Object.fromEntries([["bias", weights[0]], ...NAMES.map((n, i) => [n, weights[i + 1]])].map(([k, v]) => [k, Math.round((v as number) * 100) / 100])));
console.log(`calibration (predicted → observed): ${calibrationTable(samples, weights)}`);

// The score model, on the fused score the weights above give.
const SCORE_NAMES = ["fused", ...SCORE_FEATURES] as const;
/** The candidates of each query the score model is fitted on: two pages of ten. */
const SHOWN = 20;
/**
 * How much an absent occupation's candidate counts beside a judged one: they are fewer than the
 * judged queries and the goal for them is strict (every result under 0.5), not an average. The
 * smallest of these weights that puts every result of the tuning part under 0.5.
 */
const ABSENT_WEIGHTS = [8, 12, 16, 24, 32, 48];
const scoreSample = (query: number, candidate: Ranked, y: number, fusedWeights: number[]): Sample => ({
  query, y, x: [predict(fusedWeights, vector(candidate)), ...SCORE_FEATURES.map((name) => candidate.features![name])],
});
const scoreSamples: Sample[] = [];
const rankedByQuery: Ranked[][] = [];
for (const judged of QUERIES) rankedByQuery.push(await rankAsTyped(request(judged)));
// Fitted on what a person sees (each query's best candidates), where the score's meaning matters.
rankedByQuery.forEach((ranked, q) => ranked.slice(0, SHOWN).forEach((c) => scoreSamples.push(scoreSample(q, c, isRelevant(QUERIES[q]!, c.row) ? 1 : 0, weights))));
const { absent } = absentFromTitles(ABSENT_QUERIES, data.records.map((record) => record.job_title ?? ""));
for (const [i, judged] of absent.filter((q) => !q.heldOut).entries()) {
  const ranked = await rankAsTyped(request({ query: judged.query, kind: "keyword", relevant: /$^/i }));
  for (const c of ranked.slice(0, SHOWN)) scoreSamples.push({ ...scoreSample(QUERIES.length + i, c, 0, weights), absent: true });
}
// And on the broad sets' own parts as the service answers them (conditions read, long requests,
// mixed Chinese): the score must mean the same for every kind of query. Their held-out parts stay unseen.
// A query that is only conditions has no features to fit (every posting meeting them scores JOBLESS_SCORE).
const byUrl = new Map(data.records.map((record) => [record.job_url, record]));
let broadQueries = 0;
for (const [i, judged] of BROAD_OWN.entries()) {
  const parsed = parseSearchRequest({ q: judged.query, top_k: 10, detail: "full" }, "post");
  const { request: served, understanding } = await understandRequest(deps, { ...parsed, filters: judged.filters ?? {} });
  if (understanding.jobless) continue;
  broadQueries++;
  const ranked = await rankCandidates(deps, served, understanding);
  for (const c of ranked.slice(0, SHOWN)) {
    const relevant = isRelevant(judged, judged.fields ? (byUrl.get(c.row.job_url) ?? c.row) : c.row);
    scoreSamples.push({ ...scoreSample(BROAD_OFFSET + i, c, relevant ? 1 : 0, weights), weight: BROAD_WEIGHT });
  }
}
console.log(`score model: ${QUERIES.length} first-set queries, ${broadQueries} broad own-part queries, ${absent.filter((q) => !q.heldOut).length} absent occupations`);
const absentBelowHalf = (w: number[]) => scoreSamples.every((s) => !s.absent || predict(w, s.x) < 0);
const absentWeighted = (samples: Sample[], weight: number) => samples.map((s) => (s.absent ? { ...s, weight } : s));
let scoreWeights: number[] = [];
let absentWeightUsed = 0;
for (const absentWeight of ABSENT_WEIGHTS) {
  absentWeightUsed = absentWeight;
  scoreWeights = fitWith(absentWeighted(scoreSamples, absentWeight), SCORE_NAMES.length);
  console.log(`absent occupations weighted ${absentWeight}: every result of the tuning part under 0.5: ${absentBelowHalf(scoreWeights)}`);
  if (absentBelowHalf(scoreWeights)) break;
}
// What the score is judged by, on queries the fit did not see (fitted on half, measured on the other) and in-sample.
const heldFigures = [0, 1].map((fold) => {
  const train = scoreSamples.filter((s) => s.query % 2 !== fold);
  return thresholdFigures(scoreSamples.filter((s) => s.query % 2 === fold), fitWith(absentWeighted(train, absentWeightUsed), SCORE_NAMES.length));
});
console.log(`score figures, 2-fold: ${JSON.stringify(heldFigures)}; in-sample: ${JSON.stringify(thresholdFigures(scoreSamples, scoreWeights))}`);
console.log("score weights (bias first):", Object.fromEntries([["bias", scoreWeights[0]], ...SCORE_NAMES.map((n, i) => [n, scoreWeights[i + 1]])].map(([k, v]) => [k, Math.round((v as number) * 100) / 100])));
console.log(`score calibration (predicted → observed): ${calibrationTable(scoreSamples, scoreWeights)}`);
const judgedSamples = scoreSamples.filter((s) => s.query < QUERIES.length || s.query >= BROAD_OFFSET);
const byFused = [0, 1, ...SCORE_FEATURES.map(() => 0)];
console.log(`in-sample P@10 ordered by the fused score: ${JSON.stringify(mergeFolds([precisionAt10(judgedSamples, byFused)]))}, by the score: ${JSON.stringify(mergeFolds([precisionAt10(judgedSamples, scoreWeights)]))}`);
if (process.argv.includes("--write")) {
  const named = (w: number[], names: readonly string[]) =>
    Object.fromEntries([["bias", w[0]!], ...names.map((n, i) => [n, w[i + 1]!])].map(([k, v]) => [k, Math.round((v as number) * 100) / 100]));
  const file = join(import.meta.dir, "../../server/rank/weights.json");
  const fitted = {
    comment: "Fitted by `bun bench/relevance/calibrate.ts --write` (logistic regression over the judged queries' candidates); firstPass without the feedback features; score over the fused score and the posting's own evidence, with the absent occupations' tuning part and the broad sets' own parts as served.",
    knowledge: KNOWLEDGE_FINGERPRINT,
    firstPass: KEEP_RANKING ? FITTED.firstPass : named(fitWith(samples.map((s) => ({ ...s, x: s.x.slice(0, FIRST_PASS_NAMES.length) })), FIRST_PASS_NAMES.length), FIRST_PASS_NAMES),
    full: named(weights, NAMES),
    score: named(scoreWeights, SCORE_NAMES),
  };
  writeFileSync(file, `${JSON.stringify(fitted, null, 2)}\n`);
  console.log(`wrote ${file}`);
}
data.store.close();

// --- internal ---

function request(judged: JudgedQuery) {
  return {
    query: judged.query, filters: judged.filters ?? {}, topK: 10, offset: 0, detail: "full" as const,
    minScore: 0, sort: "relevance" as const, collapse: false, explain: false, understand: false, facets: [], facetMinScore: 0.5, retrieval: "hybrid" as const,
  };
}

function vector(candidate: Ranked): number[] {
  return NAMES.map((name) => candidate.features![name]);
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function predict(w: number[], x: number[]): number {
  return w[0]! + x.reduce((sum, v, i) => sum + v * w[i + 1]!, 0);
}

/** Logistic regression by Newton's method (IRLS) with a little L2 on the weights: exact and deterministic. */
function fit(train: Sample[]): number[] {
  return fitWith(train, NAMES.length);
}

function fitWith(train: Sample[], features: number): number[] {
  const d = features + 1;
  let w = new Array(d).fill(0);
  const l2 = 1e-2;
  for (let step = 0; step < 25; step++) {
    const grad = new Array(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array(d).fill(0));
    for (const { x, y, weight = 1 } of train) {
      const xs = [1, ...x];
      const p = sigmoid(predict(w, x));
      for (let i = 0; i < d; i++) {
        grad[i] += weight * (p - y) * xs[i]!;
        for (let j = 0; j < d; j++) hess[i]![j] += weight * p * (1 - p) * xs[i]! * xs[j]!;
      }
    }
    for (let i = 1; i < d; i++) {
      grad[i] += l2 * train.length * w[i];
      hess[i]![i] += l2 * train.length;
    }
    const delta = solve(hess, grad);
    w = w.map((v, i) => v - delta[i]!);
    if (Math.max(...delta.map(Math.abs)) < 1e-8) break;
  }
  return w;
}

/**
 * Coordinate search on mean P@10 from the logistic weights: each weight in turn moves by ±step
 * while that helps, with the step halving each round. Ranking only (the scale is Platt's job).
 */
function tune(train: Sample[], start: number[]): number[] {
  const score = (w: number[]) => {
    const byKind = precisionAt10(train, w);
    const all = [...byKind.values()].flat();
    return all.reduce((x, y) => x + y, 0) / all.length;
  };
  let best = [...start];
  let bestScore = score(best);
  for (let step = 0.8; step > 0.04; step /= 2) {
    for (let i = 1; i < best.length; i++) {
      for (const delta of [step, -step]) {
        const tried = best.map((v, k) => (k === i ? v + delta : v));
        const s = score(tried);
        if (s > bestScore + 1e-9) {
          best = tried;
          bestScore = s;
        }
      }
    }
  }
  return best;
}

/** scoreFigures of the score model `w` over the samples. */
function thresholdFigures(all: Sample[], w: number[]) {
  return scoreFigures(all.map((s) => ({ query: s.query, relevant: s.y === 1, absent: s.absent, logit: predict(w, s.x) })));
}

/** Solves A x = b by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  const x = new Array(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let sum = m[r]![n]!;
    for (let k = r + 1; k < n; k++) sum -= m[r]![k]! * x[k];
    x[r] = sum / m[r]![r]!;
  }
  return x;
}

function precisionAt10(test: Sample[], w: number[]): Map<string, number[]> {
  const byKind = new Map<string, number[]>();
  const queries = new Set(test.map((s) => s.query));
  for (const q of queries) {
    const top = test.filter((s) => s.query === q).sort((a, b) => predict(w, b.x) - predict(w, a.x)).slice(0, 10);
    const kind = q >= BROAD_OFFSET ? `broad ${broadKind(BROAD_OWN[q - BROAD_OFFSET]!)}` : QUERIES[q]!.kind;
    byKind.set(kind, [...(byKind.get(kind) ?? []), top.filter((s) => s.y).length / 10]);
  }
  return byKind;
}

function mergeFolds(folds: Map<string, number[]>[]): Record<string, number> {
  const merged = new Map<string, number[]>();
  for (const fold of folds) for (const [kind, values] of fold) merged.set(kind, [...(merged.get(kind) ?? []), ...values]);
  return Object.fromEntries([...merged].map(([kind, values]) => [kind, Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 1000) / 1000]));
}

function calibrationTable(all: Sample[], w: number[]): string {
  const bins = [0, 0.2, 0.4, 0.6, 0.8, 1.0001];
  const parts: string[] = [];
  for (let i = 0; i + 1 < bins.length; i++) {
    const inBin = all.filter((s) => {
      const p = sigmoid(predict(w, s.x));
      return p >= bins[i]! && p < bins[i + 1]!;
    });
    if (inBin.length === 0) continue;
    const observed = inBin.filter((s) => s.y).length / inBin.length;
    parts.push(`${bins[i]!.toFixed(1)}-${Math.min(1, bins[i + 1]!).toFixed(1)}: ${observed.toFixed(2)} (n=${inBin.length})`);
  }
  return parts.join(", ");
}

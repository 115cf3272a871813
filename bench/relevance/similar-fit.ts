/**
 * Fits the similarity score of similar jobs (server/rank/similarity.ts) on the own half of the judged sample
 * (sets/similar-own.ts; the held-out half is never read here): a logistic regression of "the candidate's raw
 * title names the posting's occupation family" over the top candidates of each posting's similar jobs.
 *   bun bench/relevance/similar-fit.ts           prints the weights and the calibration
 *   bun bench/relevance/similar-fit.ts --write   writes them to server/rank/similar-weights.json
 */
import { join } from "node:path";
import { rankCandidates } from "../../server/search/candidates.ts";
import { understandRequest } from "../../server/search/echo.ts";
import { withoutPosting } from "../../server/search/page.ts";
import { similarRequest } from "../../server/search/similar.ts";
import { SIMILARITY_FEATURES, SIMILARITY_SEARCH_FEATURES } from "../../server/rank/similarity.ts";
import { openEvalData } from "./dataset.ts";
import { sharesFamily, titleFamilies } from "./occupation-family.ts";
import { SIMILAR_OWN } from "./sets/similar-own.ts";

/** Candidates per posting the model learns from: the page and what could rise into it. */
const DEPTH = 40;
const NAMES = ["fused", ...SIMILARITY_SEARCH_FEATURES, ...SIMILARITY_FEATURES] as const;

const data = await openEvalData(Bun.env);
const deps = { store: data.store, embedder: data.embedder };
const byId = new Map(data.records.map((record) => [record.id, record]));
const samples: Array<{ x: number[]; y: number }> = [];
try {
  for (const sample of SIMILAR_OWN) {
    const request = await similarRequest(deps, sample.id, { top_k: 10 }, "get");
    const understood = await understandRequest(deps, request);
    const ranked = withoutPosting(await rankCandidates(deps, understood.request, understood.understanding), request.similarTo).slice(0, DEPTH);
    for (const candidate of ranked) {
      const f = candidate.features!;
      const s = candidate.similarity!;
      const x = [candidate.fused, ...SIMILARITY_SEARCH_FEATURES.map((n) => f[n]), ...SIMILARITY_FEATURES.map((n) => s[n])];
      samples.push({ x, y: sharesFamily(sample.family, titleFamilies(byId.get(candidate.row.id)?.job_title)) ? 1 : 0 });
    }
  }
} finally {
  data.store.close();
}

const w = fitLogistic(samples);
const weights = Object.fromEntries([["bias", w[0]!], ...NAMES.map((n, i) => [n, w[i + 1]!])].map(([k, v]) => [k, Math.round((v as number) * 100) / 100]));
console.log(`${samples.length} candidates of ${SIMILAR_OWN.length} postings, ${samples.filter((s) => s.y === 1).length} of the same occupation`);
console.log("weights:", weights);
const bins = [0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.01];
for (let b = 0; b + 1 < bins.length; b++) {
  const inBin = samples.filter((s) => {
    const p = predict(w, s.x);
    return p >= bins[b]! && p < bins[b + 1]!;
  });
  const share = inBin.length === 0 ? 0 : inBin.filter((s) => s.y === 1).length / inBin.length;
  console.log(`predicted ${bins[b]}–${Math.min(1, bins[b + 1]!)}: ${inBin.length} candidates, ${(share * 100).toFixed(1)}% same occupation`);
}
if (process.argv.includes("--write")) {
  const file = join(import.meta.dir, "../../server/rank/similar-weights.json");
  const comment = "Fitted by `bun bench/relevance/similar-fit.ts --write` (logistic regression over the top 40 similar-jobs candidates of the judged sample's own half, bench/relevance/sets/similar-own.ts; label: the candidate's raw title names the posting's occupation family).";
  await Bun.write(file, `${JSON.stringify({ comment, weights }, null, 2)}\n`);
  console.log(`wrote ${file}`);
}

// --- internal ---

function predict(w: number[], x: number[]): number {
  let z = w[0]!;
  for (let i = 0; i < x.length; i++) z += w[i + 1]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** Gradient descent on the mean log loss with a small L2 penalty (the features are all of order 1). */
function fitLogistic(train: Array<{ x: number[]; y: number }>): number[] {
  const w = new Array(NAMES.length + 1).fill(0);
  const rate = 0.5;
  for (let step = 0; step < 4000; step++) {
    const grad = new Array(w.length).fill(0);
    for (const { x, y } of train) {
      const error = predict(w, x) - y;
      grad[0] += error;
      for (let i = 0; i < x.length; i++) grad[i + 1] += error * x[i]!;
    }
    for (let i = 0; i < w.length; i++) w[i] -= rate * (grad[i] / train.length + (i === 0 ? 0 : 0.001 * w[i]));
  }
  return w;
}

import type { Retrieval } from "../../shared/search.ts";
import type { CandidateRow } from "../store/store.ts";
import { compareText } from "../text/order.ts";
import { addDataEvidence, features, type Features, type RankingQuery } from "./features.ts";
import { addFeedback } from "./feedback.ts";
import { calibratedScore, fusedScore } from "./score.ts";
import { similarityEvidence, similarityScore, type SimilarityEvidence, type TitleHead } from "./similarity.ts";

/*
 * Ranking: every candidate of both retrievers gets its features, the hybrid mode adds feedback from
 * the first pass's best and whether the data holds the job, and the fitted weights give each its fused
 * score (the order) and its calibrated 0–1 score. The single-retriever modes score by their own retriever.
 */

/** A posting as the retrievers found it: its cosine to the query, its BM25 score, and its rank in each list (null when that one did not bring it). */
export interface Candidate {
  row: CandidateRow;
  cosine: number;
  bm25: number;
  bm25Rank: number | null;
  vectorRank: number | null;
}

/** A candidate with its evidence and scores. */
export interface Ranked {
  row: CandidateRow;
  score: number;
  fused: number;
  features?: Features;
  /** Similar jobs only: what similarity.ts read besides the features. */
  similarity?: SimilarityEvidence;
  bm25Rank: number | null;
  vectorRank: number | null;
}

/**
 * The candidates best first (equal scores by id, so pages stay stable). `namesJob`: the query names a
 * job outright (understand/). `checkpoint` is awaited between steps and every few candidates: it
 * throws to stop a search that ran out of time, and may let other work run (the fair queue's pause). `similar`: the query is a posting's title, for its
 * similar jobs (`cjk`: the posting is written in a CJK script); hybrid candidates then score by similarity.ts.
 */
export async function scoreCandidates(
  candidates: Candidate[],
  query: RankingQuery,
  mode: Retrieval,
  namesJob: boolean,
  checkpoint: () => void | Promise<void> = () => {},
  similar?: { cjk: boolean; head: TitleHead },
): Promise<Ranked[]> {
  await checkpoint();
  let bestCosine = -1;
  let bestBm25 = 0;
  for (const c of candidates) {
    bestCosine = Math.max(bestCosine, c.cosine);
    bestBm25 = Math.max(bestBm25, c.bm25);
  }
  const scored: Array<{ c: Candidate; evidence: Features | undefined }> = [];
  for (const [i, c] of candidates.entries()) {
    if (i % CHECK_EVERY === 0) await checkpoint();
    const retrieval = {
      cosine: c.cosine,
      cosineGap: bestCosine - c.cosine,
      bm25Share: bestBm25 > 0 ? c.bm25 / bestBm25 : 0,
      bm25Reciprocal: reciprocal(c.bm25Rank),
      vectorReciprocal: reciprocal(c.vectorRank),
    };
    scored.push({ c, evidence: mode === "hybrid" ? features(query, c.row.terms, retrieval, namesJob) : undefined });
  }
  // Feedback needs every candidate's first-pass evidence before any final score.
  await checkpoint();
  if (mode === "hybrid") {
    addFeedback(scored.map(({ c, evidence }) => ({ features: evidence!, vector: c.row.vector, terms: c.row.terms })));
    addDataEvidence(scored.map(({ evidence }) => evidence!), namesJob);
  }
  await checkpoint();
  const likeness = similar && mode === "hybrid" ? similarityEvidence(query, candidates.map((c) => c.row), similar) : undefined;
  const ranked: Ranked[] = scored.map(({ c, evidence }, i) => {
    const fused = evidence ? fusedScore(evidence) : mode === "vector" ? c.cosine : c.bm25;
    const score = evidence
      ? likeness ? similarityScore(fused, evidence, likeness[i]!) : calibratedScore(fused, evidence)
      : mode === "vector" ? (1 + c.cosine) / 2 : fused / (fused + 10);
    return { row: c.row, score, fused, ...(evidence ? { features: evidence } : {}), ...(likeness ? { similarity: likeness[i]! } : {}), bm25Rank: c.bm25Rank, vectorRank: c.vectorRank };
  });
  return ranked.sort((a, b) => b.score - a.score || b.fused - a.fused || compareText(a.row.id, b.row.id));
}

// --- internal ---

/** Candidates ranked between two checkpoints (a look at the clock costs ~50 ns; 32 candidates ~0.1–0.2 ms, more on a busy machine). */
const CHECK_EVERY = 32;

/** 1 for rank 1, falling like 1/rank after the first ten; 0 for no rank. */
function reciprocal(rank: number | null): number {
  return rank === null ? 0 : 10 / (9 + rank);
}

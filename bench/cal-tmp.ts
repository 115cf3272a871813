import { openEvalData } from "./relevance/dataset.ts";
import { rankCandidates } from "../server/search/search.ts";
import { ABSENT_QUERIES, absentFromTitles } from "./relevance/absent-queries.ts";
import { QUERIES } from "./relevance/queries.ts";
import { isRelevant } from "./relevance/judge.ts";
import { analyzeQuery } from "../server/relevance/query-understanding.ts";
const data = await openEvalData(Bun.env);
const deps = { store: data.store, embedder: data.embedder };
const req = (q: string, filters = {}) => ({ query: q, filters, topK: 10, offset: 0, detail: "full" as const, minScore: 0, sort: "relevance" as const, collapse: false, explain: false, understand: false, retrieval: "hybrid" as const });
const { absent } = absentFromTitles(ABSENT_QUERIES, data.records.map((r) => r.job_title ?? ""));
const F = ["titleCoverage", "textCoverage", "expansionTitle", "expansionText", "cosine", "feedbackTitle"] as const;
const fmt = (c: any) => F.map((f) => c.features[f].toFixed(2)).join(" ") + " s=" + c.score.toFixed(2);
for (const q of absent) {
  const ranked = await rankCandidates(deps, req(q.query));
  const a = analyzeQuery(q.query);
  console.log("ABSENT", q.query.padEnd(26), fmt(ranked[0]), "|", ranked[0]!.row.job_title?.slice(0, 30), "| occ:", a.occupations.map((o) => `${o.id}:${o.confidence}`).join(","));
}
for (const q of QUERIES.filter((q) => q.kind !== "chinese")) {
  const ranked = (await rankCandidates(deps, req(q.query, q.filters))).slice(0, 10);
  const rel = ranked.map((c) => isRelevant(q, c.row));
  console.log("PRESENT", q.kind.slice(0, 5), q.query.slice(0, 26).padEnd(26), fmt(ranked[0]), "rel@10", rel.filter(Boolean).length, "| occ:", analyzeQuery(q.query).occupations.map((o) => `${o.id}:${o.confidence}`).join(","));
}
data.store.close();

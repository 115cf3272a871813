/**
 * Facets and similar jobs, measured: `bun bench/perf/facets-similar.ts`
 *
 * On the evaluation's table (29,513 shared postings):
 * - latency of a search with every facet beside the same search without, alternating pair by pair
 *   over the first judged set's queries (result cache off; goal: at most 2× a plain search);
 * - similar jobs for 20 postings sampled with a fixed seed among those whose title exactly one keyword
 *   query's judge accepts (the title names one occupation): the share of their top 10 that the same judge
 *   accepts, as the relevance evaluation judges (the occupation is shared; goal ≥ 80%).
 */
import { parseSearchRequest, FACET_NAMES } from "../../shared/search.ts";
import { searchJobs } from "../../server/search/search.ts";
import { similarJobs } from "../../server/search/similar.ts";
import { openEvalData } from "../relevance/dataset.ts";
import { isRelevant } from "../relevance/judge.ts";
import { QUERIES } from "../relevance/sets/queries.ts";
import { percentile, round } from "./suite/stats.ts";
import { seededRandom } from "./suite/stats.ts";

const ROUNDS = 5;
const SAMPLES = 20;
const data = await openEvalData(Bun.env);
const deps = { store: data.store, embedder: data.embedder };
try {
  const queries = QUERIES.map((q) => q.query);
  const time = async (body: Record<string, unknown>) => {
    const started = performance.now();
    await searchJobs(deps, parseSearchRequest(body, "post"));
    return performance.now() - started;
  };
  const plain: number[] = [];
  const faceted: number[] = [];
  for (const q of queries) await Promise.all([time({ q }), time({ q, facets: [...FACET_NAMES] })]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of queries) {
      const withFacets = round % 2 === 0;
      const a = await time(withFacets ? { q, facets: [...FACET_NAMES] } : { q });
      const b = await time(withFacets ? { q } : { q, facets: [...FACET_NAMES] });
      (withFacets ? faceted : plain).push(a);
      (withFacets ? plain : faceted).push(b);
    }
  }
  console.log(`## Facets: ${queries.length} queries × ${ROUNDS} rounds, alternating, cache off\n`);
  console.log("| search | p50 ms | p99 ms |\n|---|---|---|");
  console.log(`| plain | ${round(percentile(plain, 50))} | ${round(percentile(plain, 99))} |`);
  console.log(`| every facet | ${round(percentile(faceted, 50))} | ${round(percentile(faceted, 99))} |`);
  console.log(`\nevery facet / plain, p50: ${(percentile(faceted, 50) / percentile(plain, 50)).toFixed(2)}×\n`);

  const judges = QUERIES.filter((q) => q.kind === "keyword");
  const random = seededRandom(20261125);
  const picked: Array<{ id: string; title: string; judge: (typeof judges)[number] }> = [];
  const seen = new Set<string>();
  while (picked.length < SAMPLES) {
    const record = data.records[Math.floor(random() * data.records.length)]!;
    // The occupation of a posting whose title names exactly one (a title naming several has none to share).
    const accepting = judges.filter((j) => j.relevant.test(record.job_title ?? ""));
    const judge = accepting.length === 1 ? accepting[0] : undefined;
    if (!judge || seen.has(judge.query) || seen.has(record.id)) continue;
    seen.add(judge.query);
    seen.add(record.id);
    picked.push({ id: record.id, title: record.job_title ?? "", judge });
    if (seen.size / 2 >= judges.length) seen.clear();
  }
  const byUrl = new Map(data.records.map((record) => [record.job_url, record]));
  const shares: number[] = [];
  console.log(`## Similar jobs: ${SAMPLES} postings (seed 20261125), top 10 judged by the keyword query whose judge accepts the posting\n`);
  console.log("| posting | judged as | shared |\n|---|---|---|");
  for (const { id, title, judge } of picked) {
    const { results } = await similarJobs(deps, id, { top_k: 10 }, "post");
    const share = results.filter((r) => isRelevant(judge, byUrl.get(r.job_url) ?? r)).length / Math.max(1, results.length);
    shares.push(share);
    console.log(`| ${title.slice(0, 50).replaceAll("|", "/")} | ${judge.query} | ${share.toFixed(1)} |`);
  }
  console.log(`\nmean share of the top 10 with the same occupation: ${(shares.reduce((a, b) => a + b, 0) / shares.length).toFixed(3)}`);
} finally {
  data.store.close();
}

/**
 * What query understanding costs: `bun bench/relevance/understanding.ts`
 *
 * On the evaluation's table (29,513 shared postings), every judged query (first set, constraint and
 * misspelled sets) is searched with understand=false and with the default, alternating pair by pair
 * (the machine is shared and noisy), result cache off; prints p50/p99 of each and of the understanding
 * step alone (spelling, places, conditions, time). The first search after a load also builds the
 * spelling index (SymSpell over the term statistics); that one-time cost is printed separately.
 */
import { parseSearchRequest } from "../../shared/search.ts";
import { searchJobs } from "../../server/search/search.ts";
import { understandQuery } from "../../server/understand/understand.ts";
import { CONSTRAINT_QUERIES, FRESH_TYPO_QUERIES, TYPO_QUERIES } from "./sets/constraint-queries.ts";
import { openEvalData } from "./dataset.ts";
import { QUERIES } from "./sets/queries.ts";
import { percentile, round } from "../perf/suite/stats.ts";

const ROUNDS = 5;
const queries = [...QUERIES, ...CONSTRAINT_QUERIES, ...TYPO_QUERIES, ...FRESH_TYPO_QUERIES].map((q) => q.query);
const data = await openEvalData(Bun.env);
const deps = { store: data.store, embedder: data.embedder };
try {
  const facets = await data.store.facets();
  const stats = data.store.termStats();
  let started = performance.now();
  understandQuery("warm up the spelling index", {}, { facets, stats, now: new Date() });
  const firstMs = performance.now() - started;

  const times = { off: [] as number[], on: [] as number[], step: [] as number[] };
  const run = async (q: string, understand: boolean) => {
    const t0 = performance.now();
    await searchJobs(deps, { ...parseSearchRequest({ q, top_k: 20 }, "post"), understand });
    return performance.now() - t0;
  };
  for (const q of queries) await Promise.all([run(q, false), run(q, true)]); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of queries) {
      const [first, second] = round % 2 === 0 ? [false, true] : [true, false];
      const a = await run(q, first);
      const b = await run(q, second);
      times[first ? "on" : "off"].push(a);
      times[second ? "on" : "off"].push(b);
      started = performance.now();
      understandQuery(q, {}, { facets, stats, now: new Date() });
      times.step.push(performance.now() - started);
    }
  }
  const row = (name: string, values: number[]) => `| ${name} | ${round(percentile(values, 50))} | ${round(percentile(values, 99))} | ${values.length} |`;
  console.log(`## Query understanding: ${queries.length} queries × ${ROUNDS} rounds, alternating, cache off\n`);
  console.log("| search | p50 ms | p99 ms | samples |\n|---|---|---|---|");
  console.log(row("understand=false", times.off));
  console.log(row("default (understand)", times.on));
  console.log(row("the understanding step alone", times.step));
  console.log(`\nfirst search after a load builds the spelling index: ${round(firstMs)} ms once`);
} finally {
  data.store.close();
}

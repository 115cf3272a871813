import { parseSearchRequest } from "../../shared/search.ts";
import { searchJobs, type SearchDeps } from "../../server/search/search.ts";
import type { AbsentQuery } from "./sets/absent-queries.ts";
import type { CountedQuery, ModeOutcome } from "./evaluate.ts";
import { K } from "./evaluate.ts";
import { markdownTable } from "./report.ts";

/*
 * Whether the 0-1 score means the same on every query (issue 14, item 5), for the service by default:
 * - absent occupations: the best score of each query for a job no posting is for (every result is
 *   irrelevant), which should stay under 0.5;
 * - present occupations (the judged queries): the share of results scored >= 0.8 that are relevant
 *   (goal >= 90%), and the share of queries whose best result scores >= 0.5 (goal >= 90%).
 * Each for the part tuned on and the held-out part.
 */

export interface AbsentOutcome {
  query: string;
  heldOut: boolean;
  best: number;
}

export async function evaluateAbsent(deps: SearchDeps, queries: AbsentQuery[]): Promise<AbsentOutcome[]> {
  const out: AbsentOutcome[] = [];
  for (const query of queries) {
    const { results } = await searchJobs(deps, parseSearchRequest({ q: query.query, top_k: K }, "post"));
    out.push({ query: query.query, heldOut: query.heldOut, best: Math.max(0, ...results.map((r) => r.score)) });
  }
  return out;
}

export function calibrationTable(absent: AbsentOutcome[], queries: CountedQuery[], outcome: ModeOutcome): string {
  const rows = [false, true].map((heldOut) => {
    const gone = absent.filter((a) => a.heldOut === heldOut);
    const present = outcome.queries.filter((_, i) => Boolean(queries[i]!.heldOut) === heldOut);
    const strong = present.flatMap((q) => q.ranked.filter((r) => r.score >= 0.8));
    const plausible = present.filter((q) => (q.ranked[0]?.score ?? 0) >= 0.5);
    return [
      heldOut ? "held-out" : "tuned on",
      `${gone.filter((a) => a.best < 0.5).length}/${gone.length}`,
      gone.length === 0 ? "—" : Math.max(...gone.map((a) => a.best)).toFixed(3),
      strong.length === 0 ? "—" : `${percent(strong.filter((r) => r.relevant).length / strong.length)} of ${strong.length}`,
      present.length === 0 ? "—" : `${percent(plausible.length / present.length)} of ${present.length}`,
    ];
  });
  const header = ["part", "absent: all < 0.5", "absent: highest score", "present: relevant among scores >= 0.8", "present: best >= 0.5"];
  return markdownTable(header, rows);
}

function percent(share: number): string {
  return `${(100 * share).toFixed(1)}%`;
}

/**
 * What spelling correction does on the own (tunable) queries: `bun bench/relevance/spelling.ts [--search] [--seeds N]`
 *
 * On the evaluation's term statistics (29,513 shared postings):
 * - false corrections: every own judged query as written (first set, constraint, broad A and B own
 *   parts), where any change is a false one;
 * - recovered misspellings: the own keyword and paraphrase queries mistyped by typing-errors.ts with
 *   seeds no judged set uses (N per query, default 3), a recovery being the corrected query's folded
 *   words equal to the original's; with --search, P@10 (default mode) of the mistyped and original queries;
 * - the words of the data the speller changes when typed alone, by how many postings use them (a
 *   sample of each band to read by eye: a real word changed is a false correction).
 * Held-out sets are never read.
 */
import { parseArgs } from "node:util";
import { correctSpelling } from "../../server/understand/spelling.ts";
import { understandQuery } from "../../server/understand/understand.ts";
import { fold, foldedWords } from "../../server/text/fold.ts";
import { openEvalData } from "./dataset.ts";
import { countRelevant, evaluateMode } from "./evaluate.ts";
import { mean } from "./metrics.ts";
import { BROAD_A } from "./sets/broad-a.ts";
import { BROAD_B } from "./sets/broad-b.ts";
import { CONSTRAINT_QUERIES, TYPO_QUERIES } from "./sets/constraint-queries.ts";
import { QUERIES } from "./sets/queries.ts";
import { typingErrors } from "./sets/typing-errors.ts";
import type { JudgedQuery } from "./sets/queries.ts";

const { values: args } = parseArgs({ options: { search: { type: "boolean", default: false }, seeds: { type: "string", default: "3" } } });
/** Seeds of this script's own misspellings: far from those of the judged sets (7001…, 20261125…, 20270301…). */
const SEED_BASE = 31_000;

const own = [...QUERIES, ...CONSTRAINT_QUERIES, ...TYPO_QUERIES, ...BROAD_A, ...BROAD_B].filter((q) => !q.heldOut);
const clean = own.filter((q) => q.kind !== "typo");
const sources = clean.filter((q) => q.kind === "keyword" || q.kind === "paraphrase");
const mistyped: Array<JudgedQuery & { original: string }> = [];
sources.forEach((source, i) => {
  for (let s = 0; s < Number(args.seeds); s++) {
    const typed = typingErrors(source.query, SEED_BASE + i * 10 + s);
    if (typed !== source.query && !mistyped.some((q) => q.query === typed)) mistyped.push({ ...source, query: typed, kind: "typo", original: source.query });
  }
});

const data = await openEvalData(Bun.env);
try {
  const facets = await data.store.facets();
  const stats = data.store.termStats();
  const corrected = (q: string) => understandQuery(q, {}, { facets, stats, now: new Date() });

  const falses = clean.map((q) => ({ q: q.query, u: corrected(q.query) })).filter(({ u }) => u.corrected !== null);
  console.log(`## False corrections: ${falses.length} of ${clean.length} own queries as written`);
  for (const { q, u } of falses) console.log(`- "${q}": ${u.hints.filter((h) => h.startsWith("searched for")).join("; ")}`);

  const same = (a: string, b: string) => foldedWords(a).join(" ") === foldedWords(b).join(" ");
  const outcomes = mistyped.map((q) => ({ q, text: corrected(q.query).corrected ?? q.query }));
  const missed = outcomes.filter(({ q, text }) => !same(text, q.original));
  console.log(`\n## Recovered misspellings: ${outcomes.length - missed.length} of ${outcomes.length} (seeds ${SEED_BASE}…)`);
  for (const { q, text } of missed) console.log(`- "${q.query}" → "${text}" (was "${q.original}")`);

  const changed = new Map<string, Array<{ word: string; seen: number; to: string }>>();
  for (const [word, seen] of Object.entries(stats!.df)) {
    if (!/^[a-z]{3,}$/.test(word) || fold(word) !== word) continue;
    const change = correctSpelling(word, stats, new Set())?.changes[0];
    if (!change) continue;
    const band = seen <= 5 ? "2-5" : seen <= 20 ? "6-20" : seen <= 100 ? "21-100" : "over 100";
    changed.set(band, [...(changed.get(band) ?? []), { word, seen, to: change.to }]);
  }
  console.log(`\n## Words of the data changed when typed alone (knowledge base not protecting), by postings using them`);
  for (const [band, list] of changed) {
    const sample = list.filter((_, i) => i % Math.max(1, Math.floor(list.length / 40)) === 0).slice(0, 40);
    console.log(`- ${band}: ${list.length}; e.g. ${sample.map((c) => `${c.word}(${c.seen})→${c.to}`).join(", ")}`);
  }

  if (args.search) {
    const deps = { store: data.store, embedder: data.embedder };
    const byUrl = new Map(data.records.map((record) => [record.job_url, record]));
    const typed = countRelevant(mistyped, data.records);
    const originals = countRelevant(mistyped.map((q) => ({ ...q, query: q.original })), data.records);
    const a = await evaluateMode(deps, "default", typed, 1, byUrl);
    const b = await evaluateMode(deps, "default", originals, 1, byUrl);
    console.log(`\n## P@10, default mode: mistyped ${mean(a.queries.map((o) => o.precision)).toFixed(3)}, originals ${mean(b.queries.map((o) => o.precision)).toFixed(3)} (${typed.length} queries)`);
    a.queries.forEach((o, i) => {
      const gap = b.queries[i]!.precision - o.precision;
      if (gap >= 0.2) console.log(`- "${typed[i]!.query}" ${o.precision.toFixed(1)} vs "${originals[i]!.query}" ${b.queries[i]!.precision.toFixed(1)}`);
    });
  }
} finally {
  data.store.close();
}

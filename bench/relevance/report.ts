import type { SearchFilters } from "../../shared/search.ts";
import { formatDateTime } from "../../shared/time.ts";
import type { CountedQuery, ModeOutcome, QueryOutcome } from "./evaluate.ts";

/** One row per mode: P@10 / nDCG@10 per kind and overall, and latency of a whole searchJobs call. */
export function summaryTable(outcomes: ModeOutcome[]): string {
  const header = [
    "mode", "keyword P@10", "keyword nDCG@10", "paraphrase P@10", "paraphrase nDCG@10",
    "chinese P@10", "filtered P@10", "overall P@10", "constraint P@10 (held-out)", "typo P@10 (held-out)", "unseen typo P@10", "p50 ms", "p99 ms",
  ];
  const withHeldOut = (all: { precision: number; queries: number }, held?: { precision: number }) =>
    all.queries === 0 ? "—" : `${fixed(all.precision)} (${held ? fixed(held.precision) : "—"})`;
  const rows = outcomes.map(({ mode, byKind, heldOutByKind, overall, latency }) => [
    mode,
    fixed(byKind.keyword.precision), fixed(byKind.keyword.ndcg),
    fixed(byKind.paraphrase.precision), fixed(byKind.paraphrase.ndcg),
    fixed(byKind.chinese.precision), fixed(byKind.filtered.precision),
    fixed(overall.precision),
    withHeldOut(byKind.constraint, heldOutByKind.constraint), withHeldOut(byKind.typo, heldOutByKind.typo),
    byKind["unseen typo"].queries === 0 ? "—" : fixed(byKind["unseen typo"].precision),
    latency.p50.toFixed(1), latency.p99.toFixed(1),
  ]);
  return markdownTable(header, rows);
}

/**
 * One row per query: P@10 in every mode run, nDCG@10 of hybrid (or of the only mode), and the share of
 * relevant postings among those the filters allow: what a random page would reach.
 */
export function perQueryTable(queries: CountedQuery[], outcomes: ModeOutcome[]): string {
  const focus = outcomes.find((outcome) => outcome.mode === "hybrid") ?? outcomes[0]!;
  const header = ["#", "kind", "query", "filters", "relevant", "base", ...outcomes.map((o) => `${o.mode} P@10`), `${focus.mode} nDCG@10`];
  const rows = queries.map((query, i) => [
    String(query.number),
    query.kind,
    query.query,
    describeFilters(query.filters),
    String(query.relevantInData),
    fixed(query.relevantInData / Math.max(1, query.matchingFilters)),
    ...outcomes.map((outcome) => fixed(outcome.queries[i]!.precision, 1)),
    fixed(focus.queries[i]!.ndcg),
  ]);
  return markdownTable(header, rows);
}

/** The judged top 10 of one query in one mode, in relevance order, for debugging a judge or a ranker. */
export function queryDetail(query: CountedQuery, outcome: QueryOutcome, mode: string): string {
  const lines = [
    `#${query.number} [${query.kind}] "${query.query}" ${describeFilters(query.filters)} — mode ${mode}: ` +
      `P@10 ${fixed(outcome.precision, 1)}, nDCG@10 ${fixed(outcome.ndcg)}, ${query.relevantInData} relevant of ${query.matchingFilters}`,
    `  judge: ${showRegex(query.relevant)}${query.tags ? ` or a tag matching ${showRegex(query.tags)}` : ""}`,
  ];
  outcome.ranked.forEach((result, i) => {
    const mark = result.relevant ? "✓" : "✗";
    const where = [result.city, result.publish_time.slice(0, 10)].filter(Boolean).join(", ");
    lines.push(`  ${String(i + 1).padStart(2)}. ${mark} ${result.score.toFixed(4)}  ${result.job_title.slice(0, 90) || "(no title)"}  (${where})`);
    lines.push(`        ${result.snippet}`);
  });
  return lines.join("\n");
}

export function describeFilters(filters: SearchFilters | undefined): string {
  if (!filters) return "";
  const parts: string[] = [];
  if (filters.city !== undefined) parts.push(`city=${filters.city}`);
  if (filters.country !== undefined) parts.push(`country=${filters.country}`);
  if (filters.source !== undefined) parts.push(`source=${filters.source}`);
  if (filters.since !== undefined) parts.push(`since=${formatDateTime(filters.since).slice(0, 10)}`);
  if (filters.until !== undefined) parts.push(`until=${formatDateTime(filters.until).slice(0, 10)}`);
  return parts.join(" ");
}

/** A regex as written: the engine prints non-ASCII characters (Chinese judges) as \\u escapes. */
export function showRegex(regex: RegExp): string {
  return String(regex).replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// --- internal ---

function fixed(value: number, digits = 3): string {
  return Number.isNaN(value) ? "–" : value.toFixed(digits);
}

export function markdownTable(header: string[], rows: string[][]): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

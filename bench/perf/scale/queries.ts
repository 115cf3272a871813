import type { Embedder } from "../../../server/embedding/embedder.ts";
import { fallbackVector } from "../../../server/embedding/embedder.ts";
import type { SearchFilters } from "../../../shared/search.ts";
import { ABSENT_QUERIES } from "../../relevance/sets/absent-queries.ts";
import { CONSTRAINT_QUERIES, FRESH_TYPO_QUERIES, TYPO_QUERIES } from "../../relevance/sets/constraint-queries.ts";
import { QUERIES } from "../../relevance/sets/queries.ts";
import { misspell } from "../../relevance/sets/typos.ts";

/** A query of the scale run: a text people type, embedded as the service embeds queries, and a filter. */
export interface ScaleQuery {
  text: string;
  vector: Float32Array;
  filter: SearchFilters;
}

/**
 * Filters as people set them, from wide to narrow (shares of the shared postings, which the
 * recombined set keeps: each synthetic posting has one real posting's place, seniority and type).
 */
export const SCALE_FILTERS: SearchFilters[] = [
  { city: "San Francisco" }, // 23%
  { country: "US", remote: true }, // ~13%
  { country: "GB" }, // 7%
  { city: "London", employment_type: ["FULL_TIME"] }, // ~3%
  { country: "DE" }, // 2.6%
  { city: "New York", seniority: ["senior"] }, // ~1.5%
  { city: "Berlin" }, // 1.9%
  { country: "CA", remote: true }, // ~0.6%
  { city: "Boston", seniority: ["senior", "lead"] }, // ~0.4%
  { city: "Seattle", employment_type: ["FULL_TIME"] }, // ~0.6%
  { city: "Toronto", seniority: ["lead"] }, // ~0.03%
  { city: "Austin", employment_type: ["INTERN"] }, // ~0.015%: fewer admitted rows in the probed partitions than asked for
];

/**
 * `count` distinct query texts none of which is a posting of the set: the relevance evaluation's
 * queries (keyword, paraphrase, constraint, typo, absent occupations), then more misspellings of them,
 * each embedded with `embedQuery`; texts the model cannot place (Chinese, for the static model: the
 * fallback vector, tied with every other such text) are left out. The i-th gets SCALE_FILTERS[i mod 12].
 */
export async function makeScaleQueries(embedder: Embedder, count: number): Promise<ScaleQuery[]> {
  const base = [...QUERIES, ...CONSTRAINT_QUERIES, ...TYPO_QUERIES, ...FRESH_TYPO_QUERIES, ...ABSENT_QUERIES].map((q) => q.query);
  const texts = [...new Set(base)];
  for (let seed = 1; texts.length < count * 2 && seed < count * 20; seed++) {
    const typed = misspell(base[seed % base.length]!, 0x17 * 1000 + seed);
    if (!texts.includes(typed)) texts.push(typed);
  }
  const fallback = fallbackVector(embedder.dimension);
  const placed: Array<{ text: string; vector: Float32Array }> = [];
  for (const text of texts) {
    const vector = await embedder.embedQuery(text);
    if (!vector.every((x, i) => x === fallback[i])) placed.push({ text, vector });
    if (placed.length === count) break;
  }
  return placed.map((q, i) => ({ ...q, filter: SCALE_FILTERS[i % SCALE_FILTERS.length]! }));
}
